/**
 * The Statistics screen's figures computed from the rows themselves, as the server did before migration 0055 kept
 * them per day: tests/integration/statistics-kept.test.ts holds the kept figures to these.
 */
import { and, count, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../../server/db/client';
import { cardTransactions, cards, companies, ledgerAccounts, ledgerTransfers, topups } from '../../../server/db/schema';

import type { Interval, Range } from '../../../server/modules/statistics/queries';

const within = (col: Parameters<typeof gte>[0], r: Range): SQL[] => [
  ...(r.from ? [gte(col, r.from)] : []),
  ...(r.to ? [lt(col, r.to)] : []),
];

const CARD_FEE_KINDS = ['issuance', 'topup', 'withdraw', 'maintenance'];

/**
 * Balances as of the end of the range: each account's last entry before it (an index seek per
 * account), or the running balances when the range is open-ended.
 */
async function balancesByKind(db: DbOrTx, r: Range) {
  if (!r.to) {
    return db
      .select({
        kind: ledgerAccounts.kind,
        purpose: cards.purpose,
        total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)`,
      })
      .from(ledgerAccounts)
      .leftJoin(cards, eq(cards.id, ledgerAccounts.ownerId))
      .where(inArray(ledgerAccounts.kind, ['wallet', 'card', 'card_hold']))
      .groupBy(ledgerAccounts.kind, cards.purpose);
  }
  const res = await db.execute<{ kind: string; purpose: string | null; total: string }>(sql`
    select a.kind, c.purpose, coalesce(sum(last.balance_after), 0) as total
    from ledger_accounts a
    left join cards c on c.id = a.owner_id
    cross join lateral (
      select e.balance_after from ledger_entries e
      where e.account_id = a.id and e.created_at < ${r.to}
      order by e.created_at desc, e.id desc limit 1
    ) last
    where a.kind in ('wallet', 'card', 'card_hold')
    group by a.kind, c.purpose`);
  return (res as unknown as { rows: Array<{ kind: string; purpose: string | null; total: string }> }).rows;
}

/** Every figure of the Statistics screen (back-office §2.16, §3), for an optional date range. */
export async function rawStatistics(db: DbOrTx, r: Range) {
  const [balances, fees, approvedTopups, cardTx, cardRows] = await Promise.all([
    balancesByKind(db, r),
    db
      .select({
        kind: ledgerTransfers.kind,
        n: count(),
        total: sql<string>`coalesce(sum((${ledgerTransfers.meta}->>'fees_total')::bigint), 0)`,
      })
      .from(ledgerTransfers)
      .where(
        and(inArray(ledgerTransfers.kind, [...CARD_FEE_KINDS, 'deposit']), ...within(ledgerTransfers.createdAt, r)),
      )
      .groupBy(ledgerTransfers.kind),
    db
      .select({ n: count(), total: sql<string>`coalesce(sum(${topups.amount}), 0)` })
      .from(topups)
      .where(and(eq(topups.state, 'Approved'), ...within(topups.decidedAt, r))),
    db
      .select({ n: count(), total: sql<string>`coalesce(sum(${cardTransactions.amount}), 0)` })
      .from(cardTransactions)
      .where(
        and(
          eq(cardTransactions.kind, 'authorization'),
          inArray(cardTransactions.status, ['approved', 'settled']),
          ...within(cardTransactions.createdAt, r),
        ),
      ),
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${cards.deletedAt} is null and ${cards.state} = 'Active')::int`,
        deactivated: sql<number>`count(*) filter (where ${cards.deletedAt} is null and ${cards.state} <> 'Active')::int`,
        deleted: sql<number>`count(*) filter (where ${cards.deletedAt} is not null)::int`,
        basic: sql<number>`count(*) filter (where ${cards.type} = 'basic')::int`,
        premium: sql<number>`count(*) filter (where ${cards.type} = 'premium')::int`,
        general: sql<number>`count(*) filter (where ${cards.purpose} = 'general')::int`,
        media: sql<number>`count(*) filter (where ${cards.purpose} = 'media')::int`,
        company: sql<number>`count(*) filter (where ${companies.id} is not null)::int`,
        individual: sql<number>`count(*) filter (where ${companies.id} is null)::int`,
      })
      .from(cards)
      .leftJoin(companies, eq(companies.id, cards.walletId))
      .where(and(...within(cards.createdAt, r))),
  ]);
  const bal = (kinds: string[], purpose?: string) =>
    balances
      .filter((b) => kinds.includes(b.kind) && (!purpose || b.purpose === purpose))
      .reduce((s, b) => s + Number(b.total), 0);
  const feeOf = (kinds: string[]) =>
    fees.filter((f) => kinds.includes(f.kind)).reduce((s, f) => s + Number(f.total), 0);
  const maintenance = fees.find((f) => f.kind === 'maintenance');
  const c = cardRows[0]!;
  return {
    total_wallet_balance: formatMoney(bal(['wallet'])),
    total_card_balance: formatMoney(bal(['card', 'card_hold'])),
    total_fees_amount: formatMoney(feeOf(CARD_FEE_KINDS)),
    total_topups_fees: formatMoney(feeOf(['deposit'])),
    total_card_balance_general: formatMoney(bal(['card', 'card_hold'], 'general')),
    total_card_balance_media: formatMoney(bal(['card', 'card_hold'], 'media')),
    total_card_balance_tokencard: formatMoney(bal(['card', 'card_hold'], 'tokencard')),
    total_topups_amount: formatMoney(Number(approvedTopups[0]?.total ?? 0)),
    total_topups: approvedTopups[0]?.n ?? 0,
    total_transactions: cardTx[0]?.n ?? 0,
    total_transactions_amount: formatMoney(Number(cardTx[0]?.total ?? 0)),
    total_cards: Number(c.total),
    total_activated_cards: Number(c.active),
    total_deactivated_cards: Number(c.deactivated),
    total_deleted_cards: Number(c.deleted),
    total_basic_cards: Number(c.basic),
    total_premium_cards: Number(c.premium),
    total_general_cards: Number(c.general),
    total_media_cards: Number(c.media),
    total_company_cards: Number(c.company),
    total_individual_cards: Number(c.individual),
    total_maintenance: maintenance?.n ?? 0,
    total_maintenance_amount: formatMoney(Number(maintenance?.total ?? 0)),
  };
}

/** Activity over time for the charts: top-ups, card payments and fee income per period. */
export async function rawSeries(db: DbOrTx, r: Range, interval: Interval) {
  const bucket = (col: Parameters<typeof gte>[0]) =>
    sql<string>`to_char(date_trunc(${interval}, ${col} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const [tops, payments, income] = await Promise.all([
    db
      .select({
        period: bucket(topups.decidedAt),
        method: topups.method,
        n: count(),
        total: sql<string>`coalesce(sum(${topups.amount}), 0)`,
      })
      .from(topups)
      .where(and(eq(topups.state, 'Approved'), isNotNull(topups.decidedAt), ...within(topups.decidedAt, r)))
      .groupBy(sql`1`, topups.method)
      .orderBy(sql`1`),
    db
      .select({
        period: bucket(cardTransactions.createdAt),
        status: cardTransactions.status,
        n: count(),
        total: sql<string>`coalesce(sum(${cardTransactions.amount}), 0)`,
      })
      .from(cardTransactions)
      .where(and(eq(cardTransactions.kind, 'authorization'), ...within(cardTransactions.createdAt, r)))
      .groupBy(sql`1`, cardTransactions.status)
      .orderBy(sql`1`),
    db
      .select({
        period: bucket(ledgerTransfers.createdAt),
        kind: ledgerTransfers.kind,
        total: sql<string>`coalesce(sum((${ledgerTransfers.meta}->>'fees_total')::bigint), 0)`,
      })
      .from(ledgerTransfers)
      .where(
        and(
          inArray(ledgerTransfers.kind, [...CARD_FEE_KINDS, 'deposit', 'api_fee']),
          ...within(ledgerTransfers.createdAt, r),
        ),
      )
      .groupBy(sql`1`, ledgerTransfers.kind)
      .orderBy(sql`1`),
  ]);
  return {
    interval,
    topups: tops.map((t) => ({ period: t.period, method: t.method, count: t.n, amount: formatMoney(Number(t.total)) })),
    card_transactions: payments.map((p) => ({
      period: p.period,
      status: p.status,
      count: p.n,
      amount: formatMoney(Number(p.total)),
    })),
    fees: income.map((f) => ({ period: f.period, kind: f.kind, amount: formatMoney(Number(f.total)) })),
  };
}
