import { createHmac, randomInt } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recoveryCodes } from '../../db/schema';
import { recoveryKeyOf } from '../../lib/crypto';

const RECOVERY_CODE_COUNT = 10;
// No 0/O or 1/I: codes are read off paper and typed.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const newCode = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
/**
 * Keyed with the server's secret (a stolen table alone cannot be searched for 50-bit codes) and
 * salted with the user id (equal codes of two users never share a hash).
 */
const codeHash = (key: Buffer, userId: string, normalised: string) =>
  createHmac('sha256', recoveryKeyOf(key)).update(`${userId}:${normalised}`).digest('hex');
const shown = (c: string) => `${c.slice(0, 5)}-${c.slice(5)}`;

/** A new set of codes replacing any earlier set; the plain codes exist only in this answer. */
export async function issueRecoveryCodes(db: DbOrTx, key: Buffer, userId: string, now: Date): Promise<string[]> {
  // Two new sets at once must not leave twenty live codes: the user's row orders them.
  await db.execute(sql`select 1 from users where id = ${userId} for update`);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db
    .insert(recoveryCodes)
    .values(
      codes.map((c) => ({ id: crypto.randomUUID(), userId, codeHash: codeHash(key, userId, c), createdAt: now })),
    );
  return codes.map(shown);
}

export async function dropRecoveryCodes(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function unusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Uses up one unused code of the user; false if it is not one. */
export async function spendRecoveryCode(
  db: DbOrTx,
  key: Buffer,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash(key, userId, code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return !!used;
}

export const BAD_RECOVERY_CODE = 'This recovery code is not valid or has already been used.';
