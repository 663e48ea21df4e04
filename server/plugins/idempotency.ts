import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyKeys } from '../db/schema';
import {
  type IdempotencyState,
  JSON_TYPE,
  KEY_IN_FLIGHT,
  type KeyRecord,
  MAX_KEY_CLAIMS,
  judge,
  openBody,
  whereKey,
} from '../db/idempotency-keys';
import { seal, sha256 } from '../lib/crypto';
import { AppError, HTTP, badRequest } from '../lib/http';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

function fingerprint(req: FastifyRequest): string {
  const path = req.url.split('?')[0];
  const isJson = (req.headers['content-type'] ?? '').includes('json');
  const body =
    isJson || req.body === undefined ? JSON.stringify(req.body ?? null) : `len:${req.headers['content-length'] ?? ''}`;
  return sha256(`${req.method} ${path}?${req.url.split('?')[1] ?? ''}\n${body}`);
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
    for (let attempt = 0; attempt < MAX_KEY_CLAIMS; attempt++) {
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
    throw new AppError(HTTP.CONFLICT, KEY_IN_FLIGHT);
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
