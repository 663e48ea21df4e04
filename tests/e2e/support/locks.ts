import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './env';

/**
 * One login at a time per account across all workers: the first login of an account sets up its
 * 2FA key, and two at once would race for it (and for the same 30-second code). A lock left by a
 * worker that died is taken over after two minutes.
 */
export async function withAccountLock<T>(email: string, fn: () => Promise<T>): Promise<T> {
  const dir = path.join(dataDir(), 'locks', email.toLowerCase());
  mkdirSync(path.dirname(dir), { recursive: true });
  const until = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(dir);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`timed out waiting to log in as ${email}`);
      try {
        if (Date.now() - statSync(dir).mtimeMs > 120_000) rmSync(dir, { recursive: true, force: true });
      } catch {
        /* released meanwhile */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
