import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { issuerOperations } from '../../db/schema';
import { type DisputeFiling, IssuerError, withTimeout } from '../../issuer/port';
import { failpoint } from '../../lib/failpoints';
import { onFailure, onSuccess } from './outbox-effects';
import type { OperationRow } from './operations';

/** The issuer call an operation stands for, under the client's timeout. */
function call(ctx: AppContext, op: OperationRow): Promise<unknown> {
  const { issuer } = ctx;
  const ms = ctx.config.issuer.timeoutMs;
  const amount = op.amount ?? 0;
  const calls: Record<string, () => Promise<unknown>> = {
    load: () => issuer.load(op.cardToken, amount, op.id),
    unload: () => issuer.unload(op.cardToken, amount, op.id),
    freeze: () => issuer.freeze(op.cardToken, op.id),
    unfreeze: () => issuer.unfreeze(op.cardToken, op.id),
    terminate: () => issuer.terminate(op.cardToken, op.id),
    dispute: () => issuer.dispute(op.cardToken, op.plan as unknown as DisputeFiling, op.id),
    withdraw_dispute: () => issuer.withdrawDispute(op.cardToken, String(op.plan.disputeId), op.id),
  };
  const run = calls[op.operation];
  if (!run) return Promise.reject(new IssuerError(`${op.operation} is not performed from the outbox`));
  return withTimeout(run(), ms);
}

/** Long enough that a worker still waiting on the issuer keeps the operation to itself. */
const leaseMs = (ctx: AppContext) => ctx.config.issuer.timeoutMs * 2 + 5_000;

/**
 * Takes operations that are due (or one by id), with FOR UPDATE SKIP LOCKED and a lease, so
 * several instances share the work and none performs an operation another is performing.
 */
async function claim(ctx: AppContext, where: { id?: string; limit: number }): Promise<OperationRow[]> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(issuerOperations)
      .where(
        and(
          eq(issuerOperations.state, 'pending'),
          lte(issuerOperations.nextAttemptAt, now),
          where.id ? eq(issuerOperations.id, where.id) : undefined,
          // only a card's oldest pending operation: its later ones wait their turn
          sql`not exists (select 1 from issuer_operations e where e.card_id = ${issuerOperations.cardId} and e.state = 'pending' and e.seq < ${issuerOperations.seq})`,
        ),
      )
      .orderBy(asc(issuerOperations.nextAttemptAt))
      .limit(where.limit)
      .for('update', { skipLocked: true });
    for (const op of due) {
      op.attempts += 1;
      await tx
        .update(issuerOperations)
        .set({ attempts: op.attempts, nextAttemptAt: new Date(now.getTime() + leaseMs(ctx)) })
        .where(eq(issuerOperations.id, op.id));
    }
    return due;
  });
}

export type Outcome = 'done' | 'failed' | 'pending';

/** Performs a claimed operation and records what came of it: done, failed for good, or due again later. */
async function attempt(ctx: AppContext, op: OperationRow): Promise<Outcome> {
  await failpoint(ctx, 'outbox.before-dispatch');
  let error: unknown = null;
  let result: unknown = null;
  try {
    result = await call(ctx, op);
  } catch (err) {
    error = err;
  }
  await failpoint(ctx, 'outbox.after-dispatch');
  const now = ctx.now();
  const retryable = error instanceof IssuerError ? error.retryable : error !== null;
  const message = error instanceof Error ? error.message : error === null ? null : String(error);
  const { retryMs, maxAttempts } = ctx.config.issuer;
  const outcome: Outcome = error === null ? 'done' : !retryable || op.attempts >= maxAttempts ? 'failed' : 'pending';
  await ctx.db.transaction(async (tx) => {
    // Only the holder of the operation records it (a lease that ran out may have passed it on).
    const [mine] = await tx
      .update(issuerOperations)
      .set(
        outcome === 'pending'
          ? {
              lastError: message,
              nextAttemptAt: new Date(now.getTime() + retryMs[Math.min(op.attempts - 1, retryMs.length - 1)]!),
            }
          : { state: outcome, lastError: message, completedAt: now },
      )
      .where(
        and(
          eq(issuerOperations.id, op.id),
          eq(issuerOperations.state, 'pending'),
          eq(issuerOperations.attempts, op.attempts),
        ),
      )
      .returning({ id: issuerOperations.id });
    if (!mine) return;
    if (outcome === 'done') await onSuccess(ctx, tx, op, result);
    if (outcome === 'failed') await onFailure(ctx, tx, op, message ?? 'The card issuer failed.');
  });
  if (error && outcome !== 'done')
    ctx.log.warn(
      { operation: op.operation, id: op.id, card: op.cardId, attempt: op.attempts, outcome, error: message },
      'issuer operation failed',
    );
  return outcome;
}

/**
 * Tries one operation now, right after the request that owed it commits, once the card's earlier
 * operations are done (waiting at most the issuer's timeout for them); the worker retries it if
 * this fails or gives up.
 */
export async function performNow(ctx: AppContext, id: string): Promise<Outcome> {
  const giveUpAt = Date.now() + ctx.config.issuer.timeoutMs;
  try {
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      const [op] = await claim(ctx, { id, limit: 1 });
      if (op) return await attempt(ctx, op);
      const state = await stateOf(ctx.db, id);
      if (state !== 'pending' || Date.now() > giveUpAt) return state;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  } catch (err) {
    ctx.log.error({ err, id }, 'issuer operation could not be tried now; the worker will');
    return 'pending';
  }
}

async function stateOf(db: DbOrTx, id: string): Promise<Outcome> {
  const [op] = await db
    .select({ state: issuerOperations.state })
    .from(issuerOperations)
    .where(eq(issuerOperations.id, id));
  return (op?.state ?? 'pending') as Outcome;
}

/** Performs what is due; answers how many operations it took. */
export async function performDue(ctx: AppContext, limit = 20): Promise<number> {
  const claimed = await claim(ctx, { limit });
  for (const op of claimed) await attempt(ctx, op);
  return claimed.length;
}

/** The worker: about once a second (config.issuer.pollMs), everything that is due. */
export function startIssuerWorker(ctx: AppContext): () => void {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      while ((await performDue(ctx)) > 0) {
        /* keep going while there is work */
      }
    } catch (err) {
      ctx.log.error({ err }, 'issuer outbox failed');
    } finally {
      busy = false;
    }
  }, ctx.config.issuer.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
