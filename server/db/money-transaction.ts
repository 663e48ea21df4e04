import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { failpoint } from '../lib/failpoints';
import { AppError, HTTP } from '../lib/http';
import { seal } from '../lib/crypto';
import type { Db, Tx } from './client';
import { type IdempotencyState, JSON_TYPE, KEY_IN_FLIGHT, MAX_KEY_CLAIMS, keyTaken } from './idempotency-keys';

/** What a money transaction uses of the app's context (an AppContext is one). */
export interface MoneyContext {
  db: Db;
  now: () => Date;
  config: Pick<Config, 'encryptionKey' | 'failpoints'>;
  log: FastifyBaseLogger;
}

const claimStatement = (idem: IdempotencyState, at: Date, state = 'in_flight') => sql`
  insert into idempotency_keys (principal, key, request_hash, state, created_at)
  values (${idem.principal}, ${idem.key}, ${idem.requestHash}, ${state}, ${at.toISOString()}::timestamptz)
  on conflict do nothing returning key`;

/** The statement storing the request's answer with its key. */
function answering(ctx: MoneyContext, idem: IdempotencyState, body: unknown, status: number): SQL {
  return sql`update idempotency_keys set state = 'done', response_status = ${status},
      response_body = ${seal(JSON.stringify(body), ctx.config.encryptionKey)},
      response_content_type = ${JSON_TYPE}, completed_at = ${ctx.now().toISOString()}::timestamptz
    where principal = ${idem.principal} and key = ${idem.key}`;
}

/**
 * Runs a request's money movement in one transaction with its Idempotency-Key record: the key is
 * claimed first (a second request with it waits for the first to commit, then replays it) and the
 * answer is stored before the commit. A crash at any point leaves either nothing (a retry does
 * the work once) or the work with its answer (a retry replays it), never the work alone.
 * `answer` is the body the route sends for the result; the route must send exactly that.
 */
export async function moneyTransaction<T>(
  ctx: MoneyContext,
  req: FastifyRequest | null,
  work: (tx: Tx) => Promise<T>,
  answer: (result: T) => unknown,
  opts: { status?: number; answerLater?: boolean } = {},
): Promise<T> {
  const { db, now } = ctx;
  const idem = req ? inTransactionKey(req) : null;
  if (!req || !idem) {
    const plain = await db.transaction((tx) => work(tx));
    await failpoint(ctx, 'money.after-commit');
    return plain;
  }
  const result = await db.transaction(async (tx) => {
    const at = now();
    for (let attempt = 1; ; attempt++) {
      const claimed = (await tx.execute(
        claimStatement(idem, at, opts.answerLater ? 'awaiting_issuer' : 'in_flight'),
      )) as unknown as { rows: unknown[] };
      if (claimed.rows.length) break;
      await keyTaken(tx, idem, at, true);
      if (attempt >= MAX_KEY_CLAIMS) throw new AppError(HTTP.CONFLICT, KEY_IN_FLIGHT);
    }
    const r = await work(tx);
    // answerLater: whoever settles the effect stores the answer (completeKey).
    if (!opts.answerLater) await tx.execute(answering(ctx, idem, answer(r), opts.status ?? HTTP.OK));
    return r;
  });
  idem.completed = true;
  await failpoint(ctx, 'money.after-commit');
  return result;
}

/**
 * For work that claims and answers its key itself, in one statement with the money (cw_transfer):
 * the request's key, or null when it has none (or there is no request: the seed, the CLI).
 */
export function moneyKey(req: FastifyRequest | null): IdempotencyState | null {
  return req ? inTransactionKey(req) : null;
}

/** Such work found its key claimed: replay the answer or refuse (throws), or go on when the record was dead. */
export async function onKeyTaken(ctx: Pick<MoneyContext, 'db'>, idem: IdempotencyState, at: Date): Promise<void> {
  await keyTaken(ctx.db, idem, at, false);
}

function inTransactionKey(req: FastifyRequest): IdempotencyState | null {
  const idem = req.idempotency;
  if (idem && !idem.inTransaction)
    throw new Error(`${req.method} ${req.routeOptions.url}: money routes need config.idempotency = 'in-transaction'`);
  return idem;
}
