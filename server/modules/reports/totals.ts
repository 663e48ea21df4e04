import { and, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { walletAccountTotals as a, walletMovementTotals as w } from '../../db/schema';
import { dayRange } from '../../lib/dates';

/**
 * The totals line of the staff's wallet lists over all wallets, read from the per-day totals a
 * trigger keeps (migration 0018) instead of counting every movement on every page. The same
 * figures as counting: the rows hold every wallet entry, and a day range is whole UTC days.
 * Null when the range does not end at midnight (the last instant of year 9999): the caller counts.
 */
function dayFilter(
  f: { kinds?: readonly string[]; startDate?: string; endDate?: string },
  t: { kind: typeof w.kind | typeof a.kind; day: typeof w.day | typeof a.day } = w,
): SQL | null {
  const r = dayRange(f.startDate, f.endDate);
  if (r.to && r.to.getTime() % 86_400_000 !== 0) return null;
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return (
    and(
      ...(f.kinds ? [f.kinds.length ? inArray(t.kind, [...f.kinds]) : sql`false`] : []),
      ...(r.from ? [gte(t.day, day(r.from))] : []),
      ...(r.to ? [lt(t.day, day(r.to))] : []),
    ) ?? sql`true`
  );
}

/** One wallet's kept totals per UTC day over a filter, newest day first. */
export type WalletDays = Array<{ day: string; n: number; amount: number; fees: number }>;

/**
 * One wallet's movements per day from the totals the posting trigger keeps per wallet (migration
 * 0049): a few hundred rows a year however busy the wallet, instead of its every entry. Null when
 * the range does not end at midnight (the caller counts).
 */
export async function walletDays(
  db: DbOrTx,
  account: SQL,
  f: { kinds?: readonly string[]; startDate?: string; endDate?: string },
): Promise<WalletDays | null> {
  const where = dayFilter(f, a);
  if (!where) return null;
  const rows = await db
    .select({
      day: a.day,
      n: sql<string>`sum(${a.entries})`,
      amount: sql<string>`sum(${a.amount})`,
      fees: sql<string>`sum(${a.fees})`,
    })
    .from(a)
    .where(and(sql`${a.accountId} = ${account}`, where))
    .groupBy(a.day)
    .orderBy(sql`${a.day} desc`);
  return rows.map((r) => ({ day: r.day, n: Number(r.n), amount: Number(r.amount), fees: Number(r.fees) }));
}

export const sumOfDays = (days: WalletDays) =>
  days.reduce((t, d) => ({ n: t.n + d.n, amount: t.amount + d.amount, fees: t.fees + d.fees }), {
    n: 0,
    amount: 0,
    fees: 0,
  });

/**
 * Where a page at `offset` (newest first) starts: the movements before the end of the day that holds
 * its first row, at the offset within that day, so a deep page skips whole days by their kept counts
 * instead of reading every newer entry. Null when the offset is past the last movement.
 */
export function pageStart(days: WalletDays, offset: number): { before: Date; offset: number } | null {
  let newer = 0;
  for (const d of days) {
    if (newer + d.n > offset)
      return { before: new Date(Date.parse(`${d.day}T00:00:00.000Z`) + 86_400_000), offset: offset - newer };
    newer += d.n;
  }
  return null;
}

export async function walletMovementTotals(
  db: DbOrTx,
  f: { kinds?: readonly string[]; startDate?: string; endDate?: string },
) {
  const where = dayFilter(f);
  if (!where) return null;
  const [r] = await db
    .select({
      n: sql<string>`coalesce(sum(${w.entries}), 0)`,
      amount: sql<string>`coalesce(sum(${w.amount}), 0)`,
      fees: sql<string>`coalesce(sum(${w.fees}), 0)`,
    })
    .from(w)
    .where(where);
  return { n: Number(r?.n ?? 0), amount: r?.amount ?? '0', fees: r?.fees ?? '0' };
}

/** Wallet-to-wallet transfers over all wallets: each has one debit of a master wallet. */
export async function walletTransferCount(db: DbOrTx, f: { startDate?: string; endDate?: string }) {
  const where = dayFilter({ ...f, kinds: ['transfer'] });
  if (!where) return null;
  const [r] = await db
    .select({ n: sql<string>`coalesce(sum(${w.debits}), 0)` })
    .from(w)
    .where(where);
  return Number(r?.n ?? 0);
}

/**
 * Folds the rows each posting added into one per day and kind (housekeeping). Only rows this
 * statement deletes are summed back, so postings meanwhile and an overlapping run lose nothing.
 */
export async function compactWalletTotals(db: DbOrTx) {
  await db.execute(sql`
    with gone as (delete from ${w} returning day, kind, entries, amount, fees, debits)
    insert into ${w} (day, kind, entries, amount, fees, debits)
    select day, kind, sum(entries), sum(amount), sum(fees), sum(debits) from gone group by day, kind`);
}
