import { and, eq, gt, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import {
  balanceDayTotals,
  cardDayTotals,
  cardTransactionDayTotals,
  topupDayTotals,
  transferDayTotals,
} from '../../db/schema';

/** Whole UTC days (dayRange): from a midnight, up to and not including a later one. */
export interface Range {
  from?: Date;
  to?: Date;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The days a range covers, on a kept table's day column. Every figure is read from totals kept per UTC day (migration
 * 0055), so a year costs some thousands of day rows, however many movements and accounts. The last day is the day of
 * the range's last instant: dayRange's end is the next midnight (or 9999-12-31's last millisecond).
 */
const within = (col: Parameters<typeof gte>[0], r: Range): SQL[] => [
  ...(r.from ? [gte(col, dayOf(r.from))] : []),
  ...(r.to ? [lte(col, dayOf(new Date(r.to.getTime() - 1)))] : []),
];
/** A sum over kept rows, as a number (count and sum of bigint come back as text). */
const total = (col: Parameters<typeof gte>[0]) => sql<string>`coalesce(sum(${col}), 0)`;

const CARD_FEE_KINDS = ['issuance', 'topup', 'withdraw', 'maintenance'];
/** Top-ups not decided are kept on this day: a range counts only decided ones, as decided_at within it did. */
const UNDECIDED = '-infinity';
const decidedWithin = (r: Range): SQL[] =>
  r.from || r.to ? [gt(topupDayTotals.day, UNDECIDED), ...within(topupDayTotals.day, r)] : [];

/**
 * Balances as of the end of the range (or now): the net amounts posted to wallet, card and hold accounts up to its
 * last day, by kind and card purpose. Each account's entries chain from zero, so their sum is its last entry's
 * balance after: the same as summing each account's last entry before the end, without a seek per account.
 */
async function balancesByKind(db: DbOrTx, r: Range) {
  const b = balanceDayTotals;
  return db
    .select({ kind: b.accountKind, purpose: sql<string | null>`nullif(${b.purpose}, '')`, total: total(b.amount) })
    .from(b)
    .where(and(...within(b.day, { to: r.to })))
    .groupBy(b.accountKind, b.purpose);
}

/** Every figure of the Statistics screen (back-office §2.16, §3), for an optional date range. */
export async function statistics(db: DbOrTx, r: Range) {
  const tr = transferDayTotals;
  const tp = topupDayTotals;
  const ct = cardTransactionDayTotals;
  const cd = cardDayTotals;
  const [balances, fees, approvedTopups, cardTx, cardRows] = await Promise.all([
    balancesByKind(db, r),
    db
      .select({ kind: tr.kind, n: total(tr.transfers), total: total(tr.fees) })
      .from(tr)
      .where(and(inArray(tr.kind, [...CARD_FEE_KINDS, 'deposit']), ...within(tr.day, r)))
      .groupBy(tr.kind),
    db
      .select({ n: total(tp.rows), total: total(tp.amount) })
      .from(tp)
      .where(and(eq(tp.state, 'Approved'), ...decidedWithin(r))),
    db
      .select({ n: total(ct.rows), total: total(ct.amount) })
      .from(ct)
      .where(and(eq(ct.kind, 'authorization'), inArray(ct.status, ['approved', 'settled']), ...within(ct.day, r))),
    db
      .select({
        total: total(cd.rows),
        active: sql<string>`coalesce(sum(${cd.rows}) filter (where not ${cd.deleted} and ${cd.active}), 0)`,
        deactivated: sql<string>`coalesce(sum(${cd.rows}) filter (where not ${cd.deleted} and not ${cd.active}), 0)`,
        deleted: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.deleted}), 0)`,
        basic: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.type} = 'basic'), 0)`,
        premium: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.type} = 'premium'), 0)`,
        general: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.purpose} = 'general'), 0)`,
        media: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.purpose} = 'media'), 0)`,
        company: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.ownerType} = 'company'), 0)`,
        individual: sql<string>`coalesce(sum(${cd.rows}) filter (where ${cd.ownerType} = 'individual'), 0)`,
      })
      .from(cd)
      .where(and(...within(cd.day, r))),
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
    total_topups: Number(approvedTopups[0]?.n ?? 0),
    total_transactions: Number(cardTx[0]?.n ?? 0),
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
    total_maintenance: Number(maintenance?.n ?? 0),
    total_maintenance_amount: formatMoney(Number(maintenance?.total ?? 0)),
  };
}

export type Interval = 'day' | 'week' | 'month';

/**
 * Activity over time for the charts: top-ups, card payments and fee income per period, from the same kept totals
 * (a week or month is a whole number of UTC days). A group whose rows all changed away nets to zero and is left out,
 * as a group of no rows was.
 */
export async function series(db: DbOrTx, r: Range, interval: Interval) {
  const bucket = (col: Parameters<typeof gte>[0]) =>
    sql<string>`to_char(date_trunc(${interval}, ${col}::timestamp), 'YYYY-MM-DD')`;
  const tp = topupDayTotals;
  const ct = cardTransactionDayTotals;
  const tr = transferDayTotals;
  const [tops, payments, income] = await Promise.all([
    db
      .select({ period: bucket(tp.day), method: tp.method, n: total(tp.rows), total: total(tp.amount) })
      .from(tp)
      .where(and(eq(tp.state, 'Approved'), gt(tp.day, UNDECIDED), ...within(tp.day, r)))
      .groupBy(sql`1`, tp.method)
      .having(sql`sum(${tp.rows}) <> 0`)
      .orderBy(sql`1`, tp.method),
    db
      .select({ period: bucket(ct.day), status: ct.status, n: total(ct.rows), total: total(ct.amount) })
      .from(ct)
      .where(and(eq(ct.kind, 'authorization'), ...within(ct.day, r)))
      .groupBy(sql`1`, ct.status)
      .having(sql`sum(${ct.rows}) <> 0`)
      .orderBy(sql`1`, ct.status),
    db
      .select({ period: bucket(tr.day), kind: tr.kind, total: total(tr.fees) })
      .from(tr)
      .where(and(inArray(tr.kind, [...CARD_FEE_KINDS, 'deposit', 'api_fee']), ...within(tr.day, r)))
      .groupBy(sql`1`, tr.kind)
      .orderBy(sql`1`, tr.kind),
  ]);
  return {
    interval,
    topups: tops.map((t) => ({
      period: t.period,
      method: t.method,
      count: Number(t.n),
      amount: formatMoney(Number(t.total)),
    })),
    card_transactions: payments.map((p) => ({
      period: p.period,
      status: p.status,
      count: Number(p.n),
      amount: formatMoney(Number(p.total)),
    })),
    fees: income.map((f) => ({ period: f.period, kind: f.kind, amount: formatMoney(Number(f.total)) })),
  };
}
