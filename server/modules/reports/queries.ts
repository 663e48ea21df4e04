import { and, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn, unionAll } from 'drizzle-orm/pg-core';
import type { ApiWalletTransaction, ApiWalletTransfer } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { companies, ledgerAccounts, ledgerEntries, ledgerTransfers, users, walletEntries as w } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { type Page, afterCursor, isExport } from '../../lib/paging';
import { pageStart, sumOfDays, walletDays, walletMovementTotals, walletTransferCount } from './totals';

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
 * Wallet entries newest first, unpaged, from wallet_entries: all wallets' or one wallet's (`account`). Of one kind
 * from the (…, kind, time) index; of several, each kind's read from it only as far as the page reaches and merged.
 * As one `kind in (…)` the planner read the time index instead, past every entry of the other kinds (100,000 at the
 * benchmark's size for the card movements). `before` bounds the time from above (a deep page's starting day).
 */
function walletEntryIds(db: DbOrTx, f: TxFilters, page: Page, account?: SQL, before?: Date) {
  const of = (kind: SQL | undefined) =>
    db
      .select({ id: w.entryId, at: w.createdAt })
      .from(w)
      .where(
        and(
          account ? eq(w.accountId, account) : undefined,
          kind,
          ...rangeOn(w.createdAt, f.startDate, f.endDate),
          before ? lt(w.createdAt, before) : undefined,
          afterCursor(w.createdAt, w.entryId, page),
        ),
      )
      .orderBy(desc(w.createdAt), desc(w.entryId));
  const kinds = kindsOf(f);
  if (!kinds || kinds.length < 2) return of(kinds ? (kinds.length ? eq(w.kind, kinds[0]!) : sql`false`) : undefined);
  const reach = page.limit + (isExport(page) ? 0 : page.offset);
  const [first, second, ...rest] = kinds.map((k) => of(eq(w.kind, k)).limit(reach));
  return unionAll(first!, second!, ...rest).orderBy(desc(w.createdAt), desc(w.entryId));
}

/**
 * One wallet's page, from its kept totals per day: the totals line, and the day its page starts on (so that page
 * 50,000 of a million movements reads at most a day's entries, not the 500,000 newer ones). Null when the totals
 * cannot serve the range (the caller counts and pages by offset).
 */
async function oneWalletPage(db: DbOrTx, account: SQL, kinds: readonly string[] | undefined, f: TxFilters, page: Page) {
  const days = isExport(page)
    ? null
    : await walletDays(db, account, { kinds, startDate: f.startDate, endDate: f.endDate });
  if (!days) return null;
  const start = pageStart(days, page.offset);
  return { totals: sumOfDays(days), start, page: { limit: page.limit, offset: start?.offset ?? 0 } };
}

/** Every movement of master wallets, as entries of their ledger accounts (newest first). */
export async function walletTransactions(db: DbOrTx, f: TxFilters, page: Page) {
  const kinds = kindsOf(f);
  const account = f.walletId ? walletAccountOf(f.walletId) : undefined;
  // One wallet's totals and starting day from its kept totals per day; all wallets' totals from the per-day totals.
  const own = account ? await oneWalletPage(db, account, kinds, f, page) : null;
  const kept =
    isExport(page) || account
      ? (own?.totals ?? null)
      : await walletMovementTotals(db, { kinds, startDate: f.startDate, endDate: f.endDate });
  const at = own ? own.page : page;
  // The page's entries first (from wallet_entries, by the (account, time) or (account, kind, time) index for one
  // wallet), then their rows by key. A page past the last movement reads nothing.
  const chosen = walletEntryIds(db, f, at, account, own?.start?.before)
    .limit(page.limit)
    .offset(isExport(page) ? 0 : at.offset)
    .as('chosen');
  const [rows, [agg]] = await Promise.all([
    own && !own.start
      ? []
      : db
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
            .where(
              and(
                eq(ledgerAccounts.kind, 'wallet'),
                ...(f.walletId
                  ? [eq(ledgerAccounts.ownerId, f.walletId), eq(ledgerEntries.accountId, walletAccountOf(f.walletId))]
                  : []),
                ...(f.type ? [eq(ledgerTransfers.kind, f.type)] : []),
                ...(f.types ? [inArray(ledgerTransfers.kind, [...f.types])] : []),
                ...rangeOn(ledgerEntries.createdAt, f.startDate, f.endDate),
              ),
            ),
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
  const account = f.walletId ? walletAccountOf(f.walletId) : undefined;
  // One wallet's count and starting day from its kept totals per day (each transfer is one entry of it).
  const own = account ? await oneWalletPage(db, account, ['transfer'], f, page) : null;
  const kept = isExport(page) || account ? (own ? own.totals.n : null) : await walletTransferCount(db, f);
  const at = own ? own.page : { ...page, offset: isExport(page) ? 0 : page.offset };
  // The page's transfers first (one row each, ordered and paged by time and transfer id), then their rows by key:
  // one wallet's transfer entries, all wallets' debits, from wallet_entries.
  const chosen = db
    .select({ id: w.entryId, transferId: w.transferId, at: w.createdAt })
    .from(w)
    .where(
      and(
        account ? eq(w.accountId, account) : w.debit,
        eq(w.kind, 'transfer'),
        ...rangeOn(w.createdAt, f.startDate, f.endDate),
        own?.start ? lt(w.createdAt, own.start.before) : undefined,
        afterCursor(w.createdAt, w.transferId, page),
      ),
    )
    .orderBy(desc(w.createdAt), desc(w.transferId))
    .limit(page.limit)
    .offset(at.offset)
    .as('chosen');
  const [rows, [agg]] = await Promise.all([
    own && !own.start
      ? []
      : db
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
            .where(
              and(
                eq(ledgerTransfers.kind, 'transfer'),
                eq(ledgerAccounts.kind, 'wallet'),
                ...(f.walletId
                  ? [eq(ledgerAccounts.ownerId, f.walletId), eq(ledgerEntries.accountId, walletAccountOf(f.walletId))]
                  : [sql`${ledgerEntries.amount} < 0`]),
                ...rangeOn(ledgerEntries.createdAt, f.startDate, f.endDate),
              ),
            ),
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
