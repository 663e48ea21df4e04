import { dataDir } from './env';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Eml {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '=' && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) {
      bytes.push(parseInt(src.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function header(block: string, name: string): string {
  const m = new RegExp(`^${name}:\\s*(.*(?:\\n[ \\t].*)*)`, 'im').exec(block);
  return m ? m[1]!.replace(/\n[ \t]+/g, ' ').trim() : '';
}

function decodeBody(headers: string, body: string): string {
  const enc = header(headers, 'Content-Transfer-Encoding').toLowerCase();
  if (enc === 'quoted-printable') return decodeQuotedPrintable(body);
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** Reads a standard .eml as nodemailer writes it: the text/plain part of a multipart message. */
export function parseEml(file: string): Eml {
  const raw = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const [head = '', ...rest] = raw.split('\n\n');
  const body = rest.join('\n\n');
  const boundary = /boundary="?([^";\n]+)"?/i.exec(header(head, 'Content-Type'))?.[1];
  let text = decodeBody(head, body);
  if (boundary) {
    for (const part of body.split(`--${boundary}`)) {
      const [ph = '', ...pb] = part.replace(/^\n/, '').split('\n\n');
      if (/text\/plain/i.test(header(ph, 'Content-Type'))) {
        text = decodeBody(ph, pb.join('\n\n'));
        break;
      }
    }
  }
  return { file, to: header(head, 'To'), subject: header(head, 'Subject'), text };
}

export function mailsTo(email: string): Eml[] {
  const dir = path.join(dataDir(), 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => parseEml(path.join(dir, f)))
    .filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
}

/** Waits for a mail to `email` whose text has a link containing `contains`, and returns that link. */
export async function waitForLink(email: string, contains: string, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailsTo(email)
      .reverse()
      .find((m) => m.text.includes(contains));
    const link = mail?.text.split(/\s+/).find((w) => w.startsWith('http') && w.includes(contains));
    if (link) return link;
    if (Date.now() > until) throw new Error(`no mail to ${email} with a link containing ${contains}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
