import { and, eq, lt } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { idempotencyKeys } from '../db/schema';
import { seal, sha256, unseal } from '../lib/crypto';
import { AppError, HTTP, badRequest } from '../lib/http';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A record in flight longer than this belonged to a request that died; it may be taken over. */
const STALE_IN_FLIGHT_MS = 5 * 60_000;
const KEEP_MS = 24 * 3600_000;

function fingerprint(req: FastifyRequest): string {
  const path = req.url.split('?')[0];
  const isJson = (req.headers['content-type'] ?? '').includes('json');
  const body = isJson || req.body === undefined ? JSON.stringify(req.body ?? null) : `len:${req.headers['content-length'] ?? ''}`;
  return sha256(`${req.method} ${path}?${req.url.split('?')[1] ?? ''}\n${body}`);
}

/**
 * Idempotency-Key on authenticated mutations: the same key and request replays the first
 * answer; the same key with another request is 422; a key still in flight is 409.
 * Records live in the database so every instance agrees.
 */
export default fp(async (app) => {
  const { db } = app.ctx;
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (!req.user || !MUTATING.has(req.method) || typeof key !== 'string') return;
    if (key.length < 1 || key.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters.');
    const principal = req.user.via === 'api' ? `client:${req.user.clientId}` : `user:${req.user.id}`;
    const hash = fingerprint(req);
    const now = app.ctx.now();

    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await db
        .insert(idempotencyKeys)
        .values({ principal, key, requestHash: hash, state: 'in_flight', createdAt: now })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length) {
        req.idempotency = { principal, key, replayed: false };
        return;
      }
      const [rec] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.principal, principal), eq(idempotencyKeys.key, key)));
      if (!rec) continue;
      const age = now.getTime() - rec.createdAt.getTime();
      const expired = age > KEEP_MS;
      const abandoned = rec.state === 'in_flight' && age > STALE_IN_FLIGHT_MS;
      if (expired || abandoned) {
        await db
          .delete(idempotencyKeys)
          .where(
            and(
              eq(idempotencyKeys.principal, principal),
              eq(idempotencyKeys.key, key),
              eq(idempotencyKeys.createdAt, rec.createdAt),
            ),
          );
        continue;
      }
      if (rec.requestHash !== hash) {
        throw new AppError(
          HTTP.UNPROCESSABLE,
          'This Idempotency-Key was already used for a different request.',
          { 'Idempotency-Key': ['This Idempotency-Key was already used for a different request.'] },
        );
      }
      if (rec.state === 'in_flight') {
        throw new AppError(HTTP.CONFLICT, 'A request with this Idempotency-Key is still being processed.');
      }
      req.idempotency = { principal, key, replayed: true };
      reply
        .status(rec.responseStatus ?? HTTP.OK)
        .header('Idempotent-Replayed', 'true')
        .header('content-type', rec.responseContentType ?? 'application/json; charset=utf-8');
      return reply.send(rec.responseBody ? openBody(rec.responseBody, app.ctx.config.encryptionKey) : '');
    }
    throw new AppError(HTTP.CONFLICT, 'A request with this Idempotency-Key is still being processed.');
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency;
    if (!idem || idem.replayed) return payload;
    const where = and(eq(idempotencyKeys.principal, idem.principal), eq(idempotencyKeys.key, idem.key));
    if (reply.statusCode >= 500) {
      // Nothing was done, so let the client retry with the same key.
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    await db
      .update(idempotencyKeys)
      .set({
        state: 'done',
        responseStatus: reply.statusCode,
        // Sealed at rest: a response may carry what is never stored in the clear (a card's
        // number and CVC, a client secret shown once).
        responseBody: seal(typeof payload === 'string' ? payload : payload == null ? '' : String(payload), app.ctx.config.encryptionKey),
        responseContentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
        completedAt: app.ctx.now(),
      })
      .where(where);
    return payload;
  });

  // Error responses thrown before onSend still pass through it; nothing else to do here.
});

/** A stored response: sealed ("v1.…"), or in the clear when recorded before bodies were sealed. */
function openBody(stored: string, key: Buffer): string {
  return stored.startsWith('v1.') ? unseal(stored, key) : stored;
}

/** Housekeeping for the job runner: drop records past their replay window. */
export async function pruneIdempotency(db: import('../db/client').Db, now: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - 2 * KEEP_MS)));
}
