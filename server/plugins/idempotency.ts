import { type SQL, and, eq, lt, sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { seal, sha256, unseal } from '../lib/crypto';
import { AppError, HTTP, badRequest } from '../lib/http';
import type { AppContext } from '../context';
import { failpoint } from '../lib/failpoints';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A record in flight longer than this belonged to a request that died; it may be taken over. */
const STALE_IN_FLIGHT_MS = 5 * 60_000;
const KEEP_MS = 24 * 3600_000;
const JSON_TYPE = 'application/json; charset=utf-8';

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

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'in-transaction': the handler runs its effect through moneyTransaction, which records the key;
     * 'none': the key is ignored, for answers that must never be stored (recovery codes, a new 2FA
     * key) and requests whose fingerprint would be a fast hash of a password.
     */
    idempotency?: 'in-transaction' | 'none';
  }
}

type KeyRecord = typeof idempotencyKeys.$inferSelect;

/** Thrown inside a money transaction when the key already has an answer: the errors plugin sends it. */
export class IdempotentReplay extends Error {
  constructor(readonly record: KeyRecord) {
    super('idempotent replay');
  }
}

const DIFFERENT_REQUEST = 'This Idempotency-Key was already used for a different request.';
const IN_FLIGHT = 'A request with this Idempotency-Key is still being processed.';

function fingerprint(req: FastifyRequest): string {
  const path = req.url.split('?')[0];
  const isJson = (req.headers['content-type'] ?? '').includes('json');
  const body =
    isJson || req.body === undefined ? JSON.stringify(req.body ?? null) : `len:${req.headers['content-length'] ?? ''}`;
  return sha256(`${req.method} ${path}?${req.url.split('?')[1] ?? ''}\n${body}`);
}

const whereKey = (s: { principal: string; key: string }) =>
  and(eq(idempotencyKeys.principal, s.principal), eq(idempotencyKeys.key, s.key));

/**
 * What an existing record means for a new request with its key: replay its answer, refuse (422
 * another request, 409 still running), or null when it is dead (expired, or in flight for
 * longer than any request lives) and has been deleted, so the key may be used again.
 */
async function judge(db: DbOrTx, rec: KeyRecord, requestHash: string, now: Date): Promise<KeyRecord | null> {
  const age = now.getTime() - rec.createdAt.getTime();
  // 'awaiting_issuer': a withdrawal the issuer has not settled; the worker answers it, whenever that is.
  if (rec.state !== 'awaiting_issuer' && (age > KEEP_MS || (rec.state === 'in_flight' && age > STALE_IN_FLIGHT_MS))) {
    await db.delete(idempotencyKeys).where(and(whereKey(rec), eq(idempotencyKeys.createdAt, rec.createdAt)));
    return null;
  }
  if (rec.requestHash !== requestHash)
    throw new AppError(HTTP.UNPROCESSABLE, DIFFERENT_REQUEST, { 'Idempotency-Key': [DIFFERENT_REQUEST] });
  if (rec.state !== 'done') throw new AppError(HTTP.CONFLICT, IN_FLIGHT);
  return rec;
}

/** A stored response: sealed ("v1.…"), or in the clear when recorded before bodies were sealed. */
function openBody(stored: string, key: Buffer): string {
  return stored.startsWith('v1.') ? unseal(stored, key) : stored;
}

/** Sends a recorded answer as it was first sent, marked as a replay. */
export function sendReplay(req: FastifyRequest, reply: FastifyReply, rec: KeyRecord, key: Buffer) {
  if (req.idempotency) req.idempotency.replayed = true;
  return reply
    .status(rec.responseStatus ?? HTTP.OK)
    .header('Idempotent-Replayed', 'true')
    .header('content-type', rec.responseContentType ?? JSON_TYPE)
    .send(rec.responseBody ? openBody(rec.responseBody, key) : '');
}

export type MoneyTx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The request's answer as a data-modifying CTE clause (`idempotency_answer as (update …)`) for the
 * work to add to its last statement, which saves a round trip; null without an Idempotency-Key.
 * The work must run the clause once it has asked for it.
 */
export type AnswerClause<T> = (result: T) => SQL | null;

const claimStatement = (idem: IdempotencyState, at: Date, state = 'in_flight') => sql`
  insert into idempotency_keys (principal, key, request_hash, state, created_at)
  values (${idem.principal}, ${idem.key}, ${idem.requestHash}, ${state}, ${at.toISOString()}::timestamptz)
  on conflict do nothing returning key`;

/** Stores a key's answer in the caller's transaction (the worker settling a withdrawal). */
export async function completeKey(
  ctx: AppContext,
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

/** The clause storing the answer, and the same as a statement of its own. */
function answering(req: FastifyRequest, idem: IdempotencyState, answer: (result: never) => unknown, status: number) {
  const { config, now } = req.server.ctx;
  const values = (result: unknown) =>
    sql`state = 'done', response_status = ${status}, response_body = ${seal(JSON.stringify(answer(result as never)), config.encryptionKey)},
      response_content_type = ${JSON_TYPE}, completed_at = ${now().toISOString()}::timestamptz
      where principal = ${idem.principal} and key = ${idem.key}`;
  return {
    clause: (result: unknown) => sql`idempotency_answer as (update idempotency_keys set ${values(result)})`,
    statement: (result: unknown) => sql`update idempotency_keys set ${values(result)}`,
  };
}

/** The key's record is committed by another request: replay its answer, refuse, or (dead, now deleted) go on. */
async function keyTaken(db: DbOrTx, idem: IdempotencyState, at: Date, forUpdate: boolean): Promise<void> {
  const query = db.select().from(idempotencyKeys).where(whereKey(idem));
  const [rec] = forUpdate ? await query.for('update') : await query;
  const live = rec ? await judge(db, rec, idem.requestHash, at) : null;
  if (live) throw new IdempotentReplay(live);
}

const MAX_CLAIMS = 3;

/**
 * Runs a request's money movement in one transaction with its Idempotency-Key record: the key is
 * claimed first (a second request with it waits for the first to commit, then replays it) and the
 * answer is stored before the commit. A crash at any point leaves either nothing (a retry does
 * the work once) or the work with its answer (a retry replays it), never the work alone.
 * `answer` is the body the route sends for the result; the route must send exactly that.
 */
export async function moneyTransaction<T>(
  ctx: AppContext,
  req: FastifyRequest | null,
  work: (tx: MoneyTx, answerClause: AnswerClause<T>) => Promise<T>,
  answer: (result: T) => unknown,
  opts: { status?: number; answerLater?: boolean } = {},
): Promise<T> {
  const { db, now } = ctx;
  const idem = req ? inTransactionKey(req) : null;
  if (!req || !idem) {
    const plain = await db.transaction((tx) => work(tx, () => null));
    await failpoint(ctx, 'money.after-commit');
    return plain;
  }
  const answers = answering(req, idem, answer, opts.status ?? HTTP.OK);
  const result = await db.transaction(async (tx) => {
    const at = now();
    for (let attempt = 1; ; attempt++) {
      const claimed = (await tx.execute(
        claimStatement(idem, at, opts.answerLater ? 'awaiting_issuer' : 'in_flight'),
      )) as unknown as { rows: unknown[] };
      if (claimed.rows.length) break;
      await keyTaken(tx, idem, at, true);
      if (attempt >= MAX_CLAIMS) throw new AppError(HTTP.CONFLICT, IN_FLIGHT);
    }
    let embedded = false;
    const r = await work(tx, (value) => {
      embedded = true;
      return answers.clause(value);
    });
    // answerLater: whoever settles the effect stores the answer (completeKey).
    if (!embedded && !opts.answerLater) await tx.execute(answers.statement(r));
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
export async function onKeyTaken(ctx: AppContext, idem: IdempotencyState, at: Date): Promise<void> {
  await keyTaken(ctx.db, idem, at, false);
}

export const MAX_KEY_CLAIMS = MAX_CLAIMS;
export const KEY_IN_FLIGHT = IN_FLIGHT;

function inTransactionKey(req: FastifyRequest): IdempotencyState | null {
  const idem = req.idempotency;
  if (idem && !idem.inTransaction)
    throw new Error(`${req.method} ${req.routeOptions.url}: money routes need config.idempotency = 'in-transaction'`);
  return idem;
}

/**
 * Idempotency-Key on authenticated mutations: the same key and request replays the first
 * answer; the same key with another request is 422; a key still in flight is 409.
 * Records live in the database so every instance agrees. Routes that move money record the key
 * inside their own transaction (moneyTransaction); the others claim it before the handler and
 * store the answer after it.
 */
export default fp(async (app) => {
  const { db } = app.ctx;
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (!req.user || !MUTATING.has(req.method) || typeof key !== 'string') return;
    if (req.routeOptions.config.idempotency === 'none') return;
    if (key.length < 1 || key.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters.');
    const principal = req.user.via === 'api' ? `client:${req.user.clientId}` : `user:${req.user.id}`;
    const state: IdempotencyState = {
      principal,
      key,
      requestHash: fingerprint(req),
      replayed: false,
      inTransaction: false,
      completed: false,
    };
    if (req.routeOptions.config.idempotency === 'in-transaction') {
      req.idempotency = { ...state, inTransaction: true };
      return;
    }
    const now = app.ctx.now();
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ principal, key, requestHash: state.requestHash, state: 'in_flight', createdAt: now })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length) {
        req.idempotency = state;
        return;
      }
      const [rec] = await db.select().from(idempotencyKeys).where(whereKey(state));
      const live = rec ? await judge(db, rec, state.requestHash, now) : null;
      if (live) {
        req.idempotency = state;
        return sendReplay(req, reply, live, app.ctx.config.encryptionKey);
      }
    }
    throw new AppError(HTTP.CONFLICT, IN_FLIGHT);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency;
    if (!idem || idem.replayed || idem.completed) return payload;
    const body = typeof payload === 'string' ? payload : payload == null ? '' : String(payload);
    const contentType = String(reply.getHeader('content-type') ?? JSON_TYPE);
    if (reply.statusCode >= 500) {
      // Nothing was done, so let the client retry with the same key.
      if (!idem.inTransaction) await db.delete(idempotencyKeys).where(whereKey(idem));
      return payload;
    }
    const done = {
      state: 'done',
      responseStatus: reply.statusCode,
      // Sealed at rest: a response may carry what is never stored in the clear (a card's
      // number and CVC, a client secret shown once).
      responseBody: seal(body, app.ctx.config.encryptionKey),
      responseContentType: contentType,
      completedAt: app.ctx.now(),
    };
    if (!idem.inTransaction) {
      await db.update(idempotencyKeys).set(done).where(whereKey(idem));
      return payload;
    }
    // A money route refused before moving anything: its answer is the key's first answer, unless
    // a request with the same key got there first, whose answer is then sent instead.
    const inserted = await db
      .insert(idempotencyKeys)
      .values({
        principal: idem.principal,
        key: idem.key,
        requestHash: idem.requestHash,
        createdAt: app.ctx.now(),
        ...done,
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return payload;
    const [rec] = await db.select().from(idempotencyKeys).where(whereKey(idem));
    if (rec?.state !== 'done' || rec.requestHash !== idem.requestHash) return payload;
    idem.replayed = true;
    reply
      .status(rec.responseStatus ?? HTTP.OK)
      .header('Idempotent-Replayed', 'true')
      .header('content-type', rec.responseContentType ?? JSON_TYPE);
    return rec.responseBody ? openBody(rec.responseBody, app.ctx.config.encryptionKey) : '';
  });
});

/** Housekeeping for the job runner: drop records past their replay window. */
export async function pruneIdempotency(db: Db, now: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - 2 * KEEP_MS)));
}
