import { and, eq, sql } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { cardTransactions, cards, ledgerAccounts, ledgerEntries, ledgerTransfers } from '../../db/schema';
import { balancesOf } from './accounts';

/** Card money by purpose: available (card accounts) and ledger (with held authorisations). */
export async function masterBalances(db: DbOrTx) {
  const rows = await db
    .select({
      purpose: cards.purpose,
      kind: ledgerAccounts.kind,
      total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)`,
    })
    .from(ledgerAccounts)
    .innerJoin(cards, eq(cards.id, ledgerAccounts.ownerId))
    .where(sql`${ledgerAccounts.kind} in ('card', 'card_hold')`)
    .groupBy(cards.purpose, ledgerAccounts.kind);
  const out: Record<'general' | 'media' | 'tokencard', { available: string; ledger: string }> = {
    general: { available: '0.00', ledger: '0.00' },
    media: { available: '0.00', ledger: '0.00' },
    tokencard: { available: '0.00', ledger: '0.00' },
  };
  for (const p of ['general', 'media', 'tokencard'] as const) {
    const available = Number(rows.find((r) => r.purpose === p && r.kind === 'card')?.total ?? 0);
    const held = Number(rows.find((r) => r.purpose === p && r.kind === 'card_hold')?.total ?? 0);
    out[p] = { available: formatMoney(available), ledger: formatMoney(available + held) };
  }
  return out;
}

/**
 * The back-office sums of one card (back-office §2.9), from its rows: approved (authorisations with
 * their increments), settled (clearings and force-posts), reversal (what went back from holds:
 * reversals, expiries, the rest of a hold a clearing closed), refund (merchants' refunds); held and
 * debt from its accounts. They add up: available + held = funded − settled + refund, and
 * held = approved − reversal − (settled − what clearings and force-posts took beyond a hold).
 */
export async function cardSums(db: DbOrTx, cardId: string) {
  const t = cardTransactions;
  const [[rows], acc] = await Promise.all([
    db
      .select({
        approved: sql<string>`coalesce(sum(${t.amount}) filter (where ${t.kind} = 'authorization' and ${t.status} <> 'declined'), 0)`,
        settled: sql<string>`coalesce(sum(${t.amount}) filter (where ${t.kind} in ('clearing', 'force_post')), 0)`,
        reversed: sql<string>`coalesce(sum(${t.released}), 0)`,
        refunded: sql<string>`coalesce(sum(${t.amount}) filter (where ${t.kind} = 'merchant_refund'), 0)`,
      })
      .from(t)
      .where(eq(t.cardId, cardId)),
    balancesOf(db, [cardId]),
  ]);
  const b = acc.get(cardId) ?? { available: 0, held: 0 };
  const moves = await db
    .select({
      kind: ledgerTransfers.kind,
      amount: sql<string>`coalesce(sum(abs(${ledgerEntries.amount})), 0)`,
      fees: sql<string>`coalesce(sum((${ledgerTransfers.meta}->>'fees_total')::bigint), 0)`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .where(and(eq(ledgerAccounts.ownerId, cardId), eq(ledgerAccounts.kind, 'card')))
    .groupBy(ledgerTransfers.kind);
  const by = (k: string) => Number(moves.find((m) => m.kind === k)?.amount ?? 0);
  const fees = moves.reduce((s, m) => s + Number(m.fees), 0);
  return {
    approved_sum: formatMoney(Number(rows?.approved ?? 0)),
    settled_sum: formatMoney(Number(rows?.settled ?? 0)),
    reversal_sum: formatMoney(Number(rows?.reversed ?? 0)),
    refund_sum: formatMoney(Number(rows?.refunded ?? 0)),
    held: formatMoney(b.held),
    debt: formatMoney(Math.max(0, -b.available)),
    total_issuance: formatMoney(by('issuance')),
    total_topup: formatMoney(by('topup')),
    total_withdrawal: formatMoney(by('withdraw')),
    total_maintenance: formatMoney(by('maintenance')),
    total_fees: formatMoney(fees),
  };
}
