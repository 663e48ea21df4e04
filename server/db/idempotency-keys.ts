import { and, eq, lt } from 'drizzle-orm';
import type { Config } from '../config';
import { seal, unseal } from '../lib/crypto';
import { AppError, HTTP } from '../lib/http';
import type { Db, DbOrTx } from './client';
import { idempotencyKeys } from './schema';

/**
 * The Idempotency-Key records: what the plugin (server/plugins/idempotency.ts) and the money
 * transactions (money-transaction.ts) both read and write.
 */

/** A record in flight longer than this belonged to a request that died; it may be taken over. */
const STALE_IN_FLIGHT_MS = 5 * 60_000;
const KEEP_MS = 24 * 3600_000;
export const JSON_TYPE = 'application/json; charset=utf-8';
export const MAX_KEY_CLAIMS = 3;

export interface IdempotencyState {
  principal: string;
  key: string;
  requestHash: string;
  replayed: boolean;
  /** the route records its key in its own money transaction (moneyTransaction) */
  inTransaction: boolean;
  /** the record was written, with the answer, in that transaction */
  completed: boolean;
}

export type KeyRecord = typeof idempotencyKeys.$inferSelect;

/** Thrown inside a money transaction when the key already has an answer: the errors plugin sends it. */
export class IdempotentReplay extends Error {
  constructor(readonly record: KeyRecord) {
    super('idempotent replay');
  }
}

const DIFFERENT_REQUEST = 'This Idempotency-Key was already used for a different request.';
export const KEY_IN_FLIGHT = 'A request with this Idempotency-Key is still being processed.';

export const whereKey = (s: { principal: string; key: string }) =>
  and(eq(idempotencyKeys.principal, s.principal), eq(idempotencyKeys.key, s.key));

/**
 * What an existing record means for a new request with its key: replay its answer, refuse (422
 * another request, 409 still running), or null when it is dead (expired, or in flight for
 * longer than any request lives) and has been deleted, so the key may be used again.
 */
export async function judge(db: DbOrTx, rec: KeyRecord, requestHash: string, now: Date): Promise<KeyRecord | null> {
  const age = now.getTime() - rec.createdAt.getTime();
  // 'awaiting_issuer': a withdrawal the issuer has not settled; the worker answers it, whenever that is.
  if (rec.state !== 'awaiting_issuer' && (age > KEEP_MS || (rec.state === 'in_flight' && age > STALE_IN_FLIGHT_MS))) {
    await db.delete(idempotencyKeys).where(and(whereKey(rec), eq(idempotencyKeys.createdAt, rec.createdAt)));
    return null;
  }
  if (rec.requestHash !== requestHash)
    throw new AppError(HTTP.UNPROCESSABLE, DIFFERENT_REQUEST, { 'Idempotency-Key': [DIFFERENT_REQUEST] });
  if (rec.state !== 'done') throw new AppError(HTTP.CONFLICT, KEY_IN_FLIGHT);
  return rec;
}

/** The key's record is committed by another request: replay its answer, refuse, or (dead, now deleted) go on. */
export async function keyTaken(db: DbOrTx, idem: IdempotencyState, at: Date, forUpdate: boolean): Promise<void> {
  const query = db.select().from(idempotencyKeys).where(whereKey(idem));
  const [rec] = forUpdate ? await query.for('update') : await query;
  const live = rec ? await judge(db, rec, idem.requestHash, at) : null;
  if (live) throw new IdempotentReplay(live);
}

/** A stored response: sealed ("v1.…"), or in the clear when recorded before bodies were sealed. */
export function openBody(stored: string, key: Buffer): string {
  return stored.startsWith('v1.') ? unseal(stored, key) : stored;
}

/** Stores a key's answer in the caller's transaction (the worker settling a withdrawal). */
export async function completeKey(
  ctx: { config: Pick<Config, 'encryptionKey'>; now(): Date },
  tx: DbOrTx,
  key: { principal: string; key: string },
  answer: { status: number; body: string },
) {
  await tx
    .update(idempotencyKeys)
    .set({
      state: 'done',
      responseStatus: answer.status,
      responseBody: seal(answer.body, ctx.config.encryptionKey),
      responseContentType: JSON_TYPE,
      completedAt: ctx.now(),
    })
    .where(whereKey(key));
}

/** Housekeeping for the job runner: drop records past their replay window. */
export async function pruneIdempotency(db: Db, now: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - 2 * KEEP_MS)));
}
