import { centsText } from '@shared/vocabulary';
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import type { AppContext } from '../../context';
import { cards, issuerOperations, ledgerAccounts, reconciliationRuns } from '../../db/schema';

interface Drift {
  card_id: string;
  ledger: string;
  issuer: string | null;
  reason: string;
}

export interface ReconciliationRun {
  run_at: string;
  checked: number;
  drift: Drift[];
}

const BATCH = 500;

type Pending = { load: number; unload: number; withdrawal: number; terminate: boolean };

/**
 * What the issuer should hold on a card, from the ledger and the operations still owed: loads
 * and maintenance fees are in the ledger before the issuer has them; a withdrawal leaves the
 * issuer first, so while it waits the issuer may hold that much less.
 */
function explain(
  ledger: number,
  issuer: number | undefined,
  p: Pending | undefined,
  ended: boolean,
  failed: string[],
): string | null {
  const owed = p ?? { load: 0, unload: 0, withdrawal: 0, terminate: false };
  if (ended && (owed.terminate || issuer === undefined || issuer === 0)) return null;
  if (issuer === undefined) return 'The card issuer does not know this card.';
  if (ended)
    return `The card was ended but the issuer still holds ${centsText(issuer, 'USD')}${failed.length ? ` (${failed.join('; ')})` : ''}.`;
  const high = ledger - owed.load + owed.unload;
  const low = high - owed.withdrawal;
  if (issuer >= low && issuer <= high) return null;
  const gap = issuer - high;
  const what =
    gap > 0
      ? `The issuer holds ${centsText(gap, 'USD')} more than the ledger`
      : `The issuer holds ${centsText(-gap, 'USD')} less than the ledger`;
  return failed.length
    ? `${what}; failed issuer operations: ${failed.join('; ')}.`
    : `${what}, and no operation explains it.`;
}

/**
 * Compares every card's ledger balance (available to spend) with what the issuer holds, allowing
 * for the operations still owed, and records the run; the difference that no owed operation
 * explains is drift, shown to staff.
 */
export async function reconcile(ctx: AppContext, trigger: 'job' | 'cli' | 'staff'): Promise<ReconciliationRun> {
  const runAt = ctx.now();
  const drift: Drift[] = [];
  let checked = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = await ctx.db
      .select({ id: cards.id, token: cards.issuerToken, deletedAt: cards.deletedAt })
      .from(cards)
      .where(gt(cards.id, after))
      .orderBy(asc(cards.id))
      .limit(BATCH);
    if (!batch.length) break;
    after = batch[batch.length - 1]!.id;
    const ids = batch.map((c) => c.id);
    const [accounts, ops, issuer] = await Promise.all([
      ctx.db
        .select({ owner: ledgerAccounts.ownerId, balance: ledgerAccounts.balance })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.kind, 'card'), inArray(ledgerAccounts.ownerId, ids))),
      ctx.db
        .select({
          cardId: issuerOperations.cardId,
          operation: issuerOperations.operation,
          purpose: issuerOperations.purpose,
          state: issuerOperations.state,
          amount: issuerOperations.amount,
          error: issuerOperations.lastError,
        })
        .from(issuerOperations)
        .where(and(inArray(issuerOperations.cardId, ids), inArray(issuerOperations.state, ['pending', 'failed']))),
      ctx.issuer.balances(batch.map((c) => c.token)),
    ]);
    const ledger = new Map(accounts.map((a) => [a.owner!, a.balance]));
    const pending = new Map<string, Pending>();
    const failed = new Map<string, string[]>();
    for (const op of ops) {
      if (op.state === 'failed') {
        failed.set(op.cardId, [
          ...(failed.get(op.cardId) ?? []),
          `${op.operation} failed: ${op.error ?? 'no reason given'}`,
        ]);
        continue;
      }
      const p = pending.get(op.cardId) ?? { load: 0, unload: 0, withdrawal: 0, terminate: false };
      if (op.operation === 'load') p.load += op.amount ?? 0;
      if (op.operation === 'unload' && op.purpose === 'card-withdrawal') p.withdrawal += op.amount ?? 0;
      else if (op.operation === 'unload') p.unload += op.amount ?? 0;
      if (op.operation === 'terminate') p.terminate = true;
      pending.set(op.cardId, p);
    }
    for (const c of batch) {
      checked++;
      const l = ledger.get(c.id) ?? 0;
      const i = issuer.get(c.token);
      const reason = explain(l, i, pending.get(c.id), !!c.deletedAt, failed.get(c.id) ?? []);
      if (reason)
        drift.push({ card_id: c.id, ledger: formatMoney(l), issuer: i === undefined ? null : formatMoney(i), reason });
    }
  }
  await ctx.db.insert(reconciliationRuns).values({ id: crypto.randomUUID(), runAt, checked, drift, trigger });
  if (drift.length)
    ctx.log.warn({ drift: drift.length, checked }, 'reconciliation found drift between the ledger and the card issuer');
  return { run_at: runAt.toISOString(), checked, drift };
}

export async function lastRun(ctx: AppContext): Promise<ReconciliationRun | null> {
  const [r] = await ctx.db.select().from(reconciliationRuns).orderBy(desc(reconciliationRuns.runAt)).limit(1);
  return r ? { run_at: r.runAt.toISOString(), checked: r.checked, drift: r.drift } : null;
}
