import { and, count, desc, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql, sum } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { type ApiTopup, TOPUP_APPROVABLE_FROM, type TopupState } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { companies, keptTopupTotals, ledgerAccounts, ledgerEntries, topups, users } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { type Page, afterCursor, isExport, newestFirst } from '../../lib/paging';
import { keptRows } from '../../db/kept-counts';

export interface TopupFilters {
  walletId?: string;
  state?: TopupState;
  method?: 'Tron' | 'Momo';
  /** any of these states (a momo agent's list: MOMO_CONFIRMABLE) */
  states?: readonly TopupState[];
  /** only what staff can decide now (TOPUP_APPROVABLE_FROM) */
  ready?: boolean;
  ownerType?: 'company' | 'individual';
  startDate?: string;
  endDate?: string;
}

const loader = alias(users, 'loader');
const owner = alias(users, 'owner');
const decider = alias(users, 'decider');
const walletAcc = alias(ledgerAccounts, 'wallet_acc');

function conditions(f: TopupFilters): SQL | undefined {
  const where: SQL[] = [];
  if (f.walletId) where.push(eq(topups.walletId, f.walletId));
  if (f.state) where.push(eq(topups.state, f.state));
  if (f.method) where.push(eq(topups.method, f.method));
  if (f.states) where.push(inArray(topups.state, [...f.states]));
  if (f.ready) where.push(readyToDecide(topups));
  if (f.ownerType === 'company') where.push(isNotNull(companies.id));
  if (f.ownerType === 'individual') where.push(isNull(companies.id));
  const range = dayRange(f.startDate, f.endDate);
  if (range.from) where.push(gte(topups.createdAt, range.from));
  if (range.to) where.push(lt(topups.createdAt, range.to));
  return where.length ? and(...where) : undefined;
}

/** A top-up staff can decide now, on the top-ups or on their kept totals (both have method and state). */
const readyToDecide = (t: { method: PgColumn; state: PgColumn }) =>
  or(
    and(eq(t.method, 'Tron'), eq(t.state, TOPUP_APPROVABLE_FROM.Tron)),
    and(eq(t.method, 'Momo'), eq(t.state, TOPUP_APPROVABLE_FROM.Momo)),
  )!;

/**
 * The total and sums of the top-ups a list shows: by method, state and owner kind alone, from the kept totals
 * (migration 0031); with any other filter (a wallet, dates), summed over the matching top-ups. What was received is told apart from
 * what is still pending or was denied.
 */
function topupSums(db: DbOrTx, f: TopupFilters, filtered: SQL | undefined) {
  if (
    conditions({ ...f, state: undefined, states: undefined, method: undefined, ready: undefined, ownerType: undefined })
  )
    return db
      .select({
        n: count(),
        amount: sum(topups.amount),
        received: sql<string>`coalesce(sum(${topups.amount}) filter (where ${topups.state} = 'Approved'), 0)`,
        denied: sql<string>`coalesce(sum(${topups.amount}) filter (where ${topups.state} = 'Denied'), 0)`,
      })
      .from(topups)
      .leftJoin(companies, eq(companies.id, topups.walletId))
      .where(filtered);
  const k = keptTopupTotals;
  return db
    .select({
      n: keptRows(k.rows),
      amount: sql<string>`coalesce(sum(${k.amount}), 0)`,
      received: sql<string>`coalesce(sum(${k.amount}) filter (where ${k.state} = 'Approved'), 0)`,
      denied: sql<string>`coalesce(sum(${k.amount}) filter (where ${k.state} = 'Denied'), 0)`,
    })
    .from(k)
    .where(
      and(
        f.state ? eq(k.state, f.state) : undefined,
        f.method ? eq(k.method, f.method) : undefined,
        f.states ? inArray(k.state, [...f.states]) : undefined,
        f.ready ? readyToDecide(k) : undefined,
        f.ownerType ? eq(k.ownerType, f.ownerType) : undefined,
      ),
    );
}

/**
 * A day range holding at most this many top-ups is paged by sorting its top-ups (read by creation time), not by walking
 * every top-up newest-updated first until the range's are met: at ten million movements a week in July had 19,178
 * top-ups and the walk passed the half million updated since (100 ms); the sort takes a few.
 */
const SORTED_RANGE_AT_MOST = 50_000;

/** Top-ups with their owner, loader and the wallet's balance change on approval. */
export async function listTopups(db: DbOrTx, f: TopupFilters, page: Page) {
  const filtered = conditions(f);
  const order = [desc(topups.updatedAt), desc(topups.id)];
  const range = dayRange(f.startDate, f.endDate);
  // With a day range, its total first: how many top-ups it holds decides how the page is found.
  const counted = !isExport(page) && (range.from || range.to) ? (await topupSums(db, f, filtered))[0] : undefined;
  // A small range in the same order by an expression no index has: the planner reads it by creation time and sorts it.
  const pageOrder = newestFirst(
    topups.updatedAt,
    topups.id,
    counted === undefined ? undefined : Number(counted.n),
    SORTED_RANGE_AT_MOST,
  );
  // The page's top-ups first (joining companies only for the owner filter), then their owners,
  // loaders and ledger entries for those alone: a deep page does not join the rows it skips.
  const where = inArray(
    topups.id,
    db
      .select({ id: topups.id })
      .from(topups)
      .leftJoin(companies, eq(companies.id, topups.walletId))
      .where(and(filtered, afterCursor(topups.updatedAt, topups.id, page)))
      .orderBy(...pageOrder)
      .limit(page.limit)
      .offset(isExport(page) ? 0 : page.offset),
  );
  const base = () =>
    db
      .select({
        t: topups,
        companyName: companies.companyName,
        ownerFirst: owner.firstName,
        ownerLast: owner.lastName,
        loaderFirst: loader.firstName,
        loaderLast: loader.lastName,
        loaderRole: loader.role,
        deciderFirst: decider.firstName,
        deciderLast: decider.lastName,
        before: ledgerEntries.balanceBefore,
        after: ledgerEntries.balanceAfter,
      })
      .from(topups)
      .leftJoin(companies, eq(companies.id, topups.walletId))
      .leftJoin(owner, eq(owner.id, topups.walletId))
      .leftJoin(loader, eq(loader.id, topups.createdBy))
      .leftJoin(decider, eq(decider.id, topups.decidedBy))
      .leftJoin(walletAcc, and(eq(walletAcc.kind, 'wallet'), eq(walletAcc.ownerId, topups.walletId)))
      .leftJoin(
        ledgerEntries,
        and(eq(ledgerEntries.transferId, topups.ledgerTransferId), eq(ledgerEntries.accountId, walletAcc.id)),
      );
  const [rows, [agg]] = await Promise.all([
    base()
      .where(where)
      .orderBy(...order),
    counted ? [counted] : isExport(page) ? [undefined] : topupSums(db, f, filtered),
  ]);
  return {
    rows: rows.map(
      (r): ApiTopup => ({
        id: r.t.id,
        reference: r.t.reference,
        code: r.t.code,
        name: r.companyName ?? `${r.ownerFirst ?? ''} ${r.ownerLast ?? ''}`.trim(),
        name_type: r.companyName ? 'Company' : 'Individual',
        wallet_id: r.t.walletId,
        amount: formatMoney(r.t.amount),
        method: r.t.method as ApiTopup['method'],
        transaction_hash: r.t.transactionHash,
        state: r.t.state as TopupState,
        reason: r.t.reason,
        fee: r.t.fee == null ? null : formatMoney(r.t.fee),
        credited: r.t.fee == null || r.t.state !== 'Approved' ? null : formatMoney(r.t.amount - r.t.fee),
        momo_amount: r.t.momoAmount == null ? null : formatMoney(r.t.momoAmount),
        balance_before: r.before == null ? null : formatMoney(r.before),
        balance_after: r.after == null ? null : formatMoney(r.after),
        loader: r.loaderFirst
          ? { first_name: r.loaderFirst, last_name: r.loaderLast ?? '', role: r.loaderRole ?? '' }
          : null,
        company: r.companyName,
        fees_meta: r.t.feesMeta,
        credited_automatically: r.t.creditedAutomatically,
        decided_by: r.deciderFirst ? { first_name: r.deciderFirst, last_name: r.deciderLast ?? '' } : null,
        chain_check: r.t.chainCheck ?? null,
        note: r.t.decisionNote,
        created_at: r.t.createdAt.toISOString(),
        updated_at: r.t.updatedAt.toISOString(),
      }),
    ),
    total: agg?.n ?? 0,
    totals: topupTotals(Number(agg?.amount ?? 0), Number(agg?.received ?? 0), Number(agg?.denied ?? 0)),
  };
}

/** The totals line of a top-up list: all of it, and what was received, is pending and was denied. */
export function topupTotals(all: number, received: number, denied: number) {
  return {
    amount: formatMoney(all),
    received: formatMoney(received),
    pending: formatMoney(all - received - denied),
    denied: formatMoney(denied),
  };
}

export async function findTopupByReference(db: DbOrTx, reference: string) {
  const [t] = await db.select().from(topups).where(eq(topups.reference, reference));
  return t;
}

export async function findTopup(db: DbOrTx, id: string) {
  const [t] = await db.select().from(topups).where(eq(topups.id, id));
  return t;
}

/** Staff's note is for staff: customers (owners and momo agents) get the top-up without it. */
export const forViewer = (rows: ApiTopup[], staff: boolean): ApiTopup[] =>
  staff ? rows : rows.map((r) => ({ ...r, note: null }));
