import { and, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { walletMovementTotals as w } from '../../db/schema';
import { dayRange } from '../../lib/dates';

/**
 * The totals line of the staff's wallet lists over all wallets, read from the per-day totals a
 * trigger keeps (migration 0018) instead of counting every movement on every page. The same
 * figures as counting: the rows hold every wallet entry, and a day range is whole UTC days.
 * Null when the range does not end at midnight (the last instant of year 9999): the caller counts.
 */
function dayFilter(f: { kinds?: readonly string[]; startDate?: string; endDate?: string }): SQL | null {
  const r = dayRange(f.startDate, f.endDate);
  if (r.to && r.to.getTime() % 86_400_000 !== 0) return null;
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return (
    and(
      ...(f.kinds ? [inArray(w.kind, [...f.kinds])] : []),
      ...(r.from ? [gte(w.day, day(r.from))] : []),
      ...(r.to ? [lt(w.day, day(r.to))] : []),
    ) ?? sql`true`
  );
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
