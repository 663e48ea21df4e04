import { dataDir } from './env';
import { generate } from 'otplib';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The authenticator app of the test run: remembers each account's secret (as a person's phone
 * would) and the last time step it used, so a code is never offered twice. One file per account,
 * so parallel workers never overwrite each other.
 */
const fileOf = (email: string) => {
  const dir = path.join(dataDir(), 'authenticator');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${email.toLowerCase()}.json`);
};

type Entry = { secret: string; lastStep?: number; recoveryCodes?: string[] };

export function rememberSecret(email: string, secret: string) {
  writeFileSync(fileOf(email), JSON.stringify({ secret } satisfies Entry));
}

/** The recovery codes shown at setup, kept beside the key (as a person keeps them apart from the phone). */
export function rememberRecoveryCodes(email: string, codes: string[]) {
  const f = fileOf(email);
  const entry = existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Entry) : ({ secret: '' } as Entry);
  writeFileSync(f, JSON.stringify({ ...entry, recoveryCodes: codes }));
}

export function knownRecoveryCodes(email: string): string[] {
  const f = fileOf(email);
  return existsSync(f) ? ((JSON.parse(readFileSync(f, 'utf8')) as Entry).recoveryCodes ?? []) : [];
}

export function knownSecret(email: string): string | undefined {
  const f = fileOf(email);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Entry).secret : undefined;
}

/**
 * A code for a time step this account has not used yet. The server accepts one step of drift, as it
 * would from a phone whose clock runs a little ahead, so once the current step is used the next one
 * is offered at once; only a third login within the same 30 s waits, for the next step to begin.
 */
export async function freshCode(email: string): Promise<string> {
  const f = fileOf(email);
  if (!existsSync(f)) throw new Error(`no authenticator entry for ${email}`);
  const entry = JSON.parse(readFileSync(f, 'utf8')) as Entry;
  let step = Math.floor(Date.now() / 30_000);
  const last = entry.lastStep;
  if (last !== undefined && step <= last) {
    // The step after the last one used, offered once the last one is the current step.
    if (step < last) await new Promise((r) => setTimeout(r, last * 30_000 - Date.now() + 200));
    step = last + 1;
  }
  const code = await generate({ secret: entry.secret, epoch: step * 30 + 1 });
  writeFileSync(f, JSON.stringify({ ...entry, lastStep: step }));
  return code;
}

/** Six digits that no time step the server accepts right now (the current one and one either side) gives. */
export async function wrongCodeFor(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((d) => generate({ secret, epoch: now + d }))));
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
