import { and, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn, unionAll } from 'drizzle-orm/pg-core';
import type { ApiWalletTransaction, ApiWalletTransfer } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { companies, ledgerAccounts, ledgerEntries, ledgerTransfers, users, walletEntries as w } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { type Page, afterCursor, isExport } from '../../lib/paging';
import { walletMovementTotals, walletTransferCount } from './totals';

export interface TxFilters {
  walletId?: string;
  type?: string;
  /** only these kinds (e.g. the card movements of a wallet) */
  types?: readonly string[];
  startDate?: string;
  endDate?: string;
}

type Meta = {
  fees_total?: number;
  fees_meta?: Record<string, unknown>;
  card_number?: string;
  wallet_from?: string;
  wallet_to?: string;
  reference?: string | null;
};

function rangeOn(col: PgColumn, start?: string, end?: string): SQL[] {
  const r = dayRange(start, end);
  return [...(r.from ? [gte(col, r.from)] : []), ...(r.to ? [lt(col, r.to)] : [])];
}

/** The ledger account of the master wallet of `ownerId` (a user or company id), as a scalar subquery. */
const walletAccountOf = (ownerId: string) =>
  sql`(select wa.id from ledger_accounts wa where wa.kind = 'wallet' and wa.owner_id = ${ownerId})`;

/** The transfer kinds a filter keeps: all (undefined), or these (none when its type is not among its types). */
const kindsOf = (f: TxFilters) => (f.type ? (f.types ? f.types.filter((k) => k === f.type) : [f.type]) : f.types);

/**
 * All wallets' entries newest first, unpaged: of one kind from the (kind, time) index; of several, each kind's read
 * from it only as far as the page reaches and merged. As one `kind in (…)` the planner read the time index instead,
 * past every entry of the other kinds (100,000 at the benchmark's size for the card movements).
 */
function allWalletEntries(db: DbOrTx, f: TxFilters, page: Page) {
  const of = (kind: SQL | undefined) =>
    db
      .select({ id: w.entryId, at: w.createdAt })
      .from(w)
      .where(and(kind, ...rangeOn(w.createdAt, f.startDate, f.endDate), afterCursor(w.createdAt, w.entryId, page)))
      .orderBy(desc(w.createdAt), desc(w.entryId));
  const kinds = kindsOf(f);
  if (!kinds || kinds.length < 2) return of(kinds ? (kinds.length ? eq(w.kind, kinds[0]!) : sql`false`) : undefined);
  const reach = page.limit + (isExport(page) ? 0 : page.offset);
  const [first, second, ...rest] = kinds.map((k) => of(eq(w.kind, k)).limit(reach));
  return unionAll(first!, second!, ...rest).orderBy(desc(w.createdAt), desc(w.entryId));
}

/** Every movement of master wallets, as entries of their ledger accounts (newest first). */
export async function walletTransactions(db: DbOrTx, f: TxFilters, page: Page) {
  const filtered = and(
    eq(ledgerAccounts.kind, 'wallet'),
    // The wallet's account id as a value too: the planner then reads its entries newest first
    // from the (account, time) index and stops after a batch, instead of scanning every entry.
    ...(f.walletId
      ? [eq(ledgerAccounts.ownerId, f.walletId), eq(ledgerEntries.accountId, walletAccountOf(f.walletId))]
      : []),
    ...(f.type ? [eq(ledgerTransfers.kind, f.type)] : []),
    ...(f.types ? [inArray(ledgerTransfers.kind, [...f.types])] : []),
    ...rangeOn(ledgerEntries.createdAt, f.startDate, f.endDate),
  );
  // The page's entries first, then their rows by key: one wallet's from its ledger account's entries (newest
  // first from the (account, time) index), all wallets' from wallet_entries.
  const chosen = (
    f.walletId
      ? db
          .select({ id: ledgerEntries.id, at: ledgerEntries.createdAt })
          .from(ledgerEntries)
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
          .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
          .where(and(filtered, afterCursor(ledgerEntries.createdAt, ledgerEntries.id, page)))
          .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      : allWalletEntries(db, f, page)
  )
    .limit(page.limit)
    .offset(isExport(page) ? 0 : page.offset)
    .as('chosen');
  // Over all wallets the totals come from the per-day totals (one wallet's are few to count).
  const kinds = kindsOf(f);
  const kept =
    isExport(page) || f.walletId
      ? null
      : await walletMovementTotals(db, { kinds, startDate: f.startDate, endDate: f.endDate });
  const [rows, [agg]] = await Promise.all([
    db
      .select({ e: ledgerEntries, t: ledgerTransfers })
      .from(chosen)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, chosen.id))
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
      .orderBy(desc(chosen.at), desc(chosen.id)),
    isExport(page)
      ? [undefined]
      : kept
        ? [kept]
        : db
            .select({
              n: count(),
              amount: sql<string>`coalesce(sum(abs(${ledgerEntries.amount})), 0)`,
              fees: sql<string>`coalesce(sum((${ledgerTransfers.meta}->>'fees_total')::bigint), 0)`,
            })
            .from(ledgerEntries)
            .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
            .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
            .where(filtered),
  ]);
  return {
    rows: rows.map(({ e, t }): ApiWalletTransaction => {
      const meta = t.meta as Meta;
      return {
        id: e.id,
        trans_ref: t.reference,
        type: t.kind,
        direction: e.amount > 0 ? 'credit' : 'debit',
        amount: formatMoney(Math.abs(e.amount)),
        fees: formatMoney(meta.fees_total ?? 0),
        fees_meta: meta.fees_meta
          ? { ...meta.fees_meta, old_balance: formatMoney(e.balanceBefore), new_balance: formatMoney(e.balanceAfter) }
          : null,
        card_number: meta.card_number ?? null,
        description: t.description,
        balance_before: formatMoney(e.balanceBefore),
        balance_after: formatMoney(e.balanceAfter),
        created_at: e.createdAt.toISOString(),
      };
    }),
    total: agg?.n ?? 0,
    totals: { amount: formatMoney(Number(agg?.amount ?? 0)), fees: formatMoney(Number(agg?.fees ?? 0)) },
  };
}

const transferer = alias(users, 'transferer');
const fromCompany = alias(companies, 'from_company');
const toCompany = alias(companies, 'to_company');
const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

/**
 * Wallet-to-wallet transfers. With a wallet, one row per transfer touching it, typed Debit or
 * Credit and with that wallet's balances; without one (staff), one row per transfer from the
 * sender's side.
 */
export async function walletTransfers(
  db: DbOrTx,
  f: { walletId?: string; startDate?: string; endDate?: string },
  page: Page,
) {
  const filtered = and(
    eq(ledgerTransfers.kind, 'transfer'),
    eq(ledgerAccounts.kind, 'wallet'),
    // As in walletTransactions: the account id as a value lets the planner walk that account's entries by time.
    ...(f.walletId
      ? [eq(ledgerAccounts.ownerId, f.walletId), eq(ledgerEntries.accountId, walletAccountOf(f.walletId))]
      : [sql`${ledgerEntries.amount} < 0`]),
    ...rangeOn(ledgerEntries.createdAt, f.startDate, f.endDate),
  );
  const kept = isExport(page) || f.walletId ? null : await walletTransferCount(db, f);
  const offset = isExport(page) ? 0 : page.offset;
  // The page's transfers first (one row each, ordered and paged by time and transfer id), then their rows by key:
  // one wallet's from its ledger account's entries, all wallets' debits from wallet_entries.
  const chosen = (
    f.walletId
      ? db
          .select({ id: ledgerEntries.id, transferId: ledgerEntries.transferId, at: ledgerEntries.createdAt })
          .from(ledgerEntries)
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
          .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
          .where(and(filtered, afterCursor(ledgerEntries.createdAt, ledgerEntries.transferId, page)))
          .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.transferId))
      : db
          .select({ id: w.entryId, transferId: w.transferId, at: w.createdAt })
          .from(w)
          .where(
            and(
              eq(w.kind, 'transfer'),
              w.debit,
              ...rangeOn(w.createdAt, f.startDate, f.endDate),
              afterCursor(w.createdAt, w.transferId, page),
            ),
          )
          .orderBy(desc(w.createdAt), desc(w.transferId))
  )
    .limit(page.limit)
    .offset(offset)
    .as('chosen');
  const [rows, [agg]] = await Promise.all([
    db
      .select({
        e: ledgerEntries,
        t: ledgerTransfers,
        by: sql<string | null>`${transferer.firstName} || ' ' || ${transferer.lastName}`,
        fromName: sql<
          string | null
        >`coalesce(${fromCompany.companyName}, ${fromUser.firstName} || ' ' || ${fromUser.lastName})`,
        toName: sql<
          string | null
        >`coalesce(${toCompany.companyName}, ${toUser.firstName} || ' ' || ${toUser.lastName})`,
      })
      .from(chosen)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, chosen.id))
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, chosen.transferId))
      .leftJoin(transferer, eq(transferer.id, ledgerTransfers.createdBy))
      // The cast on the stored side keeps the primary-key indexes usable.
      .leftJoin(fromCompany, sql`${fromCompany.id} = (${ledgerTransfers.meta}->>'wallet_from')::uuid`)
      .leftJoin(fromUser, sql`${fromUser.id} = (${ledgerTransfers.meta}->>'wallet_from')::uuid`)
      .leftJoin(toCompany, sql`${toCompany.id} = (${ledgerTransfers.meta}->>'wallet_to')::uuid`)
      .leftJoin(toUser, sql`${toUser.id} = (${ledgerTransfers.meta}->>'wallet_to')::uuid`)
      .orderBy(desc(chosen.at), desc(chosen.transferId)),
    isExport(page)
      ? [undefined]
      : kept !== null
        ? [{ n: kept }]
        : db
            .select({ n: count() })
            .from(ledgerEntries)
            .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
            .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
            .where(filtered),
  ]);
  return {
    rows: rows.map(({ e, t, by, fromName, toName }): ApiWalletTransfer => {
      const meta = t.meta as Meta;
      return {
        id: t.id,
        trans_ref: t.reference,
        wallet_from: meta.wallet_from ?? '',
        wallet_to: meta.wallet_to ?? '',
        from_name: fromName,
        to_name: toName,
        amount: formatMoney(Math.abs(e.amount)),
        reference: meta.reference ?? null,
        transferer: by,
        type: f.walletId ? (e.amount < 0 ? 'Debit' : 'Credit') : 'Transfer',
        status: 'Completed',
        balance_before: formatMoney(e.balanceBefore),
        balance_after: formatMoney(e.balanceAfter),
        created_at: t.createdAt.toISOString(),
        updated_at: t.createdAt.toISOString(),
      };
    }),
    total: agg?.n ?? 0,
  };
}
