import { createHmac } from 'node:crypto';
import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { DbOrTx, Tx } from '../../db/client';
import { callbackEndpoints, webhookDeliveries, webhookEvents } from '../../db/schema';
import { randomToken, unseal } from '../../lib/crypto';
import { callbackUrlProblem } from './ssrf';
import { metrics } from '../../lib/metrics';

/** Standard Webhooks retry schedule, after each failed attempt. */
const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  14 * 3600_000,
  20 * 3600_000,
  24 * 3600_000,
];
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;

/** webhook-signature: v1,base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")), key = base64 after whsec_. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export const newSigningSecret = () => `whsec_${Buffer.from(randomToken(24), 'base64url').toString('base64')}`;

type EventData = Record<string, unknown>;

/**
 * Queues an event for the company's active callback, in the caller's transaction: it is sent if
 * and only if what it reports was committed. Data that costs a query may come as a thunk, read
 * only when there is a callback to send it to.
 */
export async function emitEvent(
  tx: Tx | DbOrTx,
  companyId: string | null,
  type: string,
  data: EventData | (() => Promise<EventData>),
  now: Date,
) {
  if (!companyId) return;
  const [endpoint] = await tx
    .select({ id: callbackEndpoints.id })
    .from(callbackEndpoints)
    .where(
      and(
        eq(callbackEndpoints.companyId, companyId),
        eq(callbackEndpoints.active, true),
        isNull(callbackEndpoints.revokedAt),
      ),
    );
  if (!endpoint) return;
  await tx.insert(webhookEvents).values({
    id: crypto.randomUUID(),
    messageId: `msg_${randomToken(18)}`,
    companyId,
    type,
    payload: { type, timestamp: now.toISOString(), data: typeof data === 'function' ? await data() : data },
    state: 'pending',
    nextAttemptAt: now,
    createdAt: now,
  });
}

type Outcome = { status: number | null; error: string | null; ms: number };

async function post(url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, error: null, ms: Date.now() - started };
  } catch (e) {
    return {
      status: null,
      error: (e as Error).name === 'TimeoutError' ? 'Timed out after 10 s' : (e as Error).message.slice(0, 200),
      ms: Date.now() - started,
    };
  }
}

/**
 * Sends what is due. Events are claimed with FOR UPDATE SKIP LOCKED and a lease, so several
 * instances share the work without sending one twice at the same time.
 */
export async function deliverDue(ctx: AppContext, limit = 20): Promise<number> {
  const now = ctx.now();
  const claimed = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.state, 'pending'), lte(webhookEvents.nextAttemptAt, now)))
      .orderBy(asc(webhookEvents.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const e of due) {
      await tx
        .update(webhookEvents)
        .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
        .where(eq(webhookEvents.id, e.id));
    }
    return due;
  });
  for (const e of claimed) await attempt(ctx, e);
  return claimed.length;
}

async function attempt(ctx: AppContext, e: typeof webhookEvents.$inferSelect) {
  const now = ctx.now();
  const [endpoint] = await ctx.db
    .select()
    .from(callbackEndpoints)
    .where(and(eq(callbackEndpoints.companyId, e.companyId), isNull(callbackEndpoints.revokedAt)));
  if (!endpoint?.active) {
    await ctx.db.update(webhookEvents).set({ state: 'skipped' }).where(eq(webhookEvents.id, e.id));
    return;
  }
  const n = e.attempts + 1;
  const body = JSON.stringify(e.payload);
  const problem = await callbackUrlProblem(endpoint.url, ctx.config.env);
  let outcome: Outcome;
  if (problem) outcome = { status: null, error: problem, ms: 0 };
  else {
    const ts = Math.floor(now.getTime() / 1000);
    const secret = unseal(endpoint.signingSecret, ctx.config.encryptionKey);
    outcome = await post(
      endpoint.url,
      {
        'content-type': 'application/json',
        'user-agent': 'Cardwallet-Webhooks/1.0',
        'webhook-id': e.messageId,
        'webhook-timestamp': String(ts),
        'webhook-signature': sign(secret, e.messageId, ts, body),
      },
      body,
    );
  }
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const gone = outcome.status === 410;
  const exhausted = n > RETRY_SCHEDULE_MS.length;
  const next = ok || gone || exhausted ? null : new Date(now.getTime() + RETRY_SCHEDULE_MS[n - 1]!);
  await ctx.db.transaction(async (tx) => {
    await tx.insert(webhookDeliveries).values({
      id: crypto.randomUUID(),
      eventId: e.id,
      endpointId: endpoint.id,
      url: endpoint.url,
      attempt: n,
      statusCode: outcome.status,
      error: outcome.error,
      durationMs: outcome.ms,
      nextRetryAt: next,
      createdAt: now,
    });
    await tx
      .update(webhookEvents)
      .set({
        attempts: n,
        state: ok ? 'delivered' : next ? 'pending' : 'failed',
        deliveredAt: ok ? now : null,
        nextAttemptAt: next ?? now,
      })
      .where(eq(webhookEvents.id, e.id));
    if (gone) {
      await tx
        .update(callbackEndpoints)
        .set({ active: false, disabledReason: 'The endpoint answered 410 Gone', updatedAt: now })
        .where(eq(callbackEndpoints.id, endpoint.id));
    }
  });
  if (!ok) metrics.webhookFailure(gone ? 'gone' : next ? 'retry' : 'failed');
}

/** Polls the outbox about once a second (the first attempt lands within seconds of the event). */
export function startDispatcher(ctx: AppContext, everyMs = 1000): () => void {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      while ((await deliverDue(ctx)) > 0) {
        /* keep going while there is work */
      }
    } catch (err) {
      ctx.log.error({ err }, 'webhook dispatch failed');
    } finally {
      busy = false;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
