import PDFDocument from 'pdfkit';
import { displayMoney } from '@shared/money';
// What the screens call each kind of movement, so the statement says the same.
import { txTypeLabel } from '@shared/ui/wallet/format';
import type { Statement, StatementLine } from './statement';

/** A4 in points, with the margins every page keeps. */
const PAGE = { width: 595.28, height: 841.89, margin: 40 } as const;
const CONTENT = PAGE.width - 2 * PAGE.margin;
const FOOTER_Y = PAGE.height - PAGE.margin - 18;
const INK = '#1f1f1f';
const MUTED = '#595959';
const RULE = '#d9d9d9';

/** The movements table: each cell is its own text run, so a text extractor reads cells, not a line of prose. */
const COLUMNS = [
  { key: 'date', title: 'Date (UTC)', width: 72, align: 'left' },
  { key: 'ref', title: 'Reference', width: 84, align: 'left' },
  { key: 'details', title: 'Details', width: 176, align: 'left' },
  { key: 'fees', title: 'Fees', width: 50, align: 'right' },
  { key: 'amount', title: 'Amount', width: 68, align: 'right' },
  { key: 'balance', title: 'Balance', width: 65, align: 'right' },
] as const;
type Cell = (typeof COLUMNS)[number]['key'];

// The built-in Helvetica (no font files to ship) writes WinAnsi only: Latin-1 and these.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
// Letters of Ghanaian names outside WinAnsi, by the Latin letter readers expect in their place.
const FALLBACK: Record<string, string> = { Ɔ: 'O', ɔ: 'o', Ɛ: 'E', ɛ: 'e', Ŋ: 'N', ŋ: 'n' };

/** Text the built-in font can draw: accents it lacks are dropped, anything else it cannot draw becomes '?'. */
function pdfText(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (FALLBACK[ch]) out += FALLBACK[ch];
    else {
      const bare = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += bare && [...bare].every((b) => b.codePointAt(0)! < 0x7f) ? bare : '?';
    }
  }
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "1 Nov 2026" of a UTC day "2026-11-01" */
const dayText = (day: string) =>
  `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
/** "1 Nov 2026 14:05 UTC" */
const instantText = (d: Date) => `${dayText(d.toISOString().slice(0, 10))} ${d.toISOString().slice(11, 16)} UTC`;
const usdt = (cents: number) => `USDT ${displayMoney(cents)}`;
const signed = (cents: number) => `${cents > 0 ? '+' : ''}${displayMoney(cents)}`;

/** Where the closing balance is taken, in words: the end of the last day, or now if that is still to come. */
function closingWhen(s: Statement): string {
  const endOfDay = Date.parse(`${s.endDate}T00:00:00Z`) + 86_400_000;
  return s.to.getTime() >= endOfDay
    ? `at the end of ${dayText(s.endDate)} (UTC)`
    : `at ${instantText(s.to)}, when this statement was made`;
}

function lineCells(l: StatementLine): Record<Cell, string> {
  return {
    date: l.created_at.slice(0, 16).replace('T', ' '),
    ref: l.trans_ref,
    details: txTypeLabel(l.type),
    fees: l.feeCents ? displayMoney(l.feeCents) : '0.00',
    amount: signed(l.cents),
    balance: displayMoney(l.balanceCents),
  };
}

/** The smaller grey line under a movement: what the ledger says of it, and its card. */
const lineNote = (l: StatementLine) =>
  [l.card_number ? `Card ${l.card_number}` : null, l.description].filter(Boolean).join(' · ');

/** Renders a statement as a PDF (A4, Helvetica), buffered: a statement is capped in size (STATEMENT_MAX_MOVEMENTS). */
export function renderStatementPdf(s: Statement): Promise<Buffer> {
  const holder = pdfText(s.holder.name);
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    info: {
      Title: `Wallet statement, ${holder}, ${s.startDate} to ${s.endDate}`,
      Author: 'Cardwallet',
      Subject: `Master wallet ${s.walletId}`,
      CreationDate: s.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const text = (
    t: string,
    x: number,
    y: number,
    o: PDFKit.Mixins.TextOptions & { size?: number; bold?: boolean; color?: string } = {},
  ) => {
    const size = o.size ?? 9;
    doc
      .font(o.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(size)
      .fillColor(o.color ?? INK);
    // One line, cut with an ellipsis where it would overflow its width (pdfkit cuts only within a height).
    doc.text(pdfText(t), x, y, { height: o.lineBreak ? undefined : size * 1.2, ellipsis: true, ...o });
  };
  const rule = (y: number) =>
    doc
      .moveTo(PAGE.margin, y)
      .lineTo(PAGE.margin + CONTENT, y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();

  // Heading and account.
  let y: number = PAGE.margin;
  text('Cardwallet', PAGE.margin, y, { size: 10, bold: true, color: MUTED });
  text('Wallet statement', PAGE.margin, y + 14, { size: 18, bold: true });
  y += 46;
  const facts: Array<[string, string]> = [
    ['Account holder', `${holder} (${s.holder.type})`],
    ['Wallet ID', s.walletId],
    ['Currency', 'USDT'],
    ['Period', `${dayText(s.startDate)} to ${dayText(s.endDate)}, both days included`],
    ['Statement made', instantText(s.generatedAt)],
  ];
  for (const [label, value] of facts) {
    text(label, PAGE.margin, y, { width: 110, color: MUTED });
    text(value, PAGE.margin + 110, y, { width: CONTENT - 110 });
    y += 14;
  }
  text(
    'All dates and times are in UTC. Amounts are in USDT: what moved into or out of the wallet, fees already counted; the Fees column shows the fees of each movement.',
    PAGE.margin,
    y + 2,
    {
      width: CONTENT,
      size: 8,
      color: MUTED,
      lineBreak: true,
    },
  );
  y += 28;

  // Summary: what the ledger held at the two instants, and what moved in between.
  const summary: Array<[string, string, boolean]> = [
    [`Opening balance at ${instantText(s.from)}`, usdt(s.opening), true],
    ['Money in', usdt(s.moneyIn), false],
    ['Money out', usdt(-s.moneyOut), false],
    ['Fees (already counted in the amounts)', usdt(s.fees), false],
    [`Closing balance ${closingWhen(s)}`, usdt(s.closing), true],
  ];
  rule(y);
  y += 6;
  for (const [label, value, bold] of summary) {
    text(label, PAGE.margin, y, { width: CONTENT - 140, bold });
    text(value, PAGE.margin + CONTENT - 140, y, { width: 140, align: 'right', bold });
    y += 15;
  }
  rule(y);
  y += 16;

  // Movements, oldest first, with the balance after each.
  text(`Movements (${s.lines.length})`, PAGE.margin, y, { size: 11, bold: true });
  y += 18;
  const header = (at: number) => {
    let x = PAGE.margin;
    for (const c of COLUMNS) {
      text(c.title, x, at, { width: c.width - 4, align: c.align, bold: true, size: 8, color: MUTED });
      x += c.width;
    }
    rule(at + 11);
    return at + 16;
  };
  y = header(y);
  if (!s.lines.length) {
    text('No movements in this period.', PAGE.margin, y, { color: MUTED });
    y += 14;
  }
  for (const l of s.lines) {
    const note = lineNote(l);
    const height = note ? 22 : 13;
    if (y + height > FOOTER_Y - 6) {
      doc.addPage();
      y = header(PAGE.margin);
    }
    const cells = lineCells(l);
    let x = PAGE.margin;
    for (const c of COLUMNS) {
      text(cells[c.key], x, y, { width: c.width - 4, align: c.align, size: 8 });
      x += c.width;
    }
    if (note)
      text(note, PAGE.margin + COLUMNS[0].width + COLUMNS[1].width, y + 10, {
        width: COLUMNS[2].width + COLUMNS[3].width - 4,
        size: 7,
        color: MUTED,
      });
    y += height;
  }
  if (y + 30 > FOOTER_Y - 6) {
    doc.addPage();
    y = PAGE.margin;
  }
  rule(y);
  text('Closing balance', PAGE.margin, y + 6, { width: 200, bold: true });
  text(usdt(s.closing), PAGE.margin + CONTENT - 140, y + 6, { width: 136, align: 'right', bold: true });

  // Every page: whose statement, which page of how many.
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i);
    const footer = `Wallet statement of ${holder}, ${dayText(s.startDate)} to ${dayText(s.endDate)}`;
    text(footer, PAGE.margin, FOOTER_Y, { width: CONTENT - 80, size: 7, color: MUTED });
    text(`Page ${i + 1} of ${pages.count}`, PAGE.margin + CONTENT - 80, FOOTER_Y, {
      width: 80,
      align: 'right',
      size: 7,
      color: MUTED,
    });
  }
  doc.end();
  return done;
}
