import { and, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ApiCardTransaction } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { categoryOf } from '@shared/merchant-categories';
import type { DbOrTx } from '../../db/client';
import { cardCount, cardSearch, cardTransactions, cards, companies, users } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { type Page, afterCursor, isExport, newestFirst, pageAndTotal } from '../../lib/paging';
import { balancesOf } from './accounts';
import { toApiCard } from './presenters';
import { containing } from '../../lib/like';
import { keptRows } from '../../db/kept-counts';

export interface CardFilters {
  walletId?: string;
  startDate?: string;
  endDate?: string;
  ownerType?: 'company' | 'individual';
  purpose?: string;
  type?: string;
  isActive?: boolean;
  search?: string;
  deleted?: 'exclude' | 'only' | 'include';
  flaggedOnly?: boolean;
  createdBy?: string;
}

const owner = alias(users, 'owner');
const creator = alias(users, 'creator');

function where(f: CardFilters): SQL | undefined {
  const w: SQL[] = [];
  if (f.walletId) w.push(eq(cards.walletId, f.walletId));
  const r = dayRange(f.startDate, f.endDate);
  if (r.from) w.push(gte(cards.createdAt, r.from));
  if (r.to) w.push(lt(cards.createdAt, r.to));
  if (f.ownerType === 'company') w.push(isNotNull(companies.id));
  if (f.ownerType === 'individual') w.push(isNull(companies.id));
  if (f.purpose) w.push(eq(cards.purpose, f.purpose));
  if (f.type) w.push(eq(cards.type, f.type));
  if (f.isActive === true) w.push(and(eq(cards.state, 'Active'), isNull(cards.deletedAt))!);
  if (f.isActive === false) w.push(or(ne(cards.state, 'Active'), isNotNull(cards.deletedAt))!);
  if (f.search) {
    const q = containing(f.search);
    // The full name contains whatever the first or the last name contains, so these three
    // conditions are the four of old; each has its index (trigram: migration 0016, last4: 0017).
    w.push(
      or(
        ilike(cards.nickname, q),
        ilike(sql`${cards.firstName} || ' ' || ${cards.lastName}`, q),
        eq(cards.last4, f.search),
      )!,
    );
  }
  if ((f.deleted ?? 'exclude') === 'exclude') w.push(isNull(cards.deletedAt));
  if (f.deleted === 'only') w.push(isNotNull(cards.deletedAt));
  // as written, not a parameter, so the partial index of flagged cards (migration 0031) serves it
  if (f.flaggedOnly) w.push(sql`${cards.flagged}`);
  if (f.createdBy) w.push(eq(cards.createdBy, f.createdBy));
  return w.length ? and(...w) : undefined;
}

/** Cards with balances and owners, newest first; without a page, all of them (customer lists). */
export async function listCards(db: DbOrTx, f: CardFilters, page?: Page, staff = false) {
  const cond = where(f);
  const after = page ? afterCursor(cards.createdAt, cards.id, page) : undefined;
  const order = [desc(cards.createdAt), desc(cards.id)];
  // A page's cards are chosen first, joining only what the filters need, and their owners and
  // creators joined for those alone: a deep page skips its offset without joining each row.
  const chosen = (matches?: number) =>
    page
      ? inArray(
          cards.id,
          db
            .select({ id: cards.id })
            .from(cards)
            .leftJoin(companies, eq(companies.id, cards.walletId))
            .where(and(cond, after))
            .orderBy(...newestFirst(cards.createdAt, cards.id, matches))
            .limit(page.limit)
            .offset(isExport(page) ? 0 : page.offset),
        )
      : and(cond, after);
  const q = (matches?: number) =>
    db
      .select({
        c: cards,
        companyName: companies.companyName,
        ownerFirst: owner.firstName,
        ownerLast: owner.lastName,
        creatorName: sql<string | null>`${creator.firstName} || ' ' || ${creator.lastName}`,
      })
      .from(cards)
      .leftJoin(companies, eq(companies.id, cards.walletId))
      .leftJoin(owner, eq(owner.id, cards.walletId))
      .leftJoin(creator, eq(creator.id, cards.createdBy))
      .where(chosen(matches))
      .orderBy(...order);
  const counted = !!page && !isExport(page);
  const [rows, total] = counted
    ? await pageAndTotal(!!f.search, () => countCards(db, f, cond), q)
    : [await q(), undefined];
  const balances = await balancesOf(
    db,
    rows.map((r) => r.c.id),
  );
  return {
    rows: rows.map((r) =>
      toApiCard(r.c, balances.get(r.c.id) ?? { available: 0, held: 0 }, {
        owner_name: r.companyName ?? `${r.ownerFirst ?? ''} ${r.ownerLast ?? ''}`.trim(),
        owner_type: r.companyName ? 'Company' : 'Individual',
        created_by: r.creatorName ?? undefined,
        ...(staff && r.c.createdBy ? { created_by_id: r.c.createdBy } : {}),
        staff,
      }),
    ),
    total: total ?? rows.length,
  };
}

/**
 * How many cards match: by owner kind, purpose, type, activity and deletion alone, the kept count's (migration 0031);
 * with a date, wallet, search, flag or creator, counted over the matching cards.
 */
function countCards(db: DbOrTx, f: CardFilters, cond: SQL | undefined) {
  if (searchAlone(f)) return countSearched(db, f.search);
  const counted = { ...f, ownerType: undefined, purpose: undefined, type: undefined, isActive: undefined };
  if (where({ ...counted, deleted: 'include' }))
    return db.select({ n: count() }).from(cards).leftJoin(companies, eq(companies.id, cards.walletId)).where(cond);
  const k = cardCount;
  const deleted = f.deleted ?? 'exclude';
  return db
    .select({ n: keptRows(k.rows) })
    .from(k)
    .where(
      and(
        f.ownerType ? eq(k.ownerType, f.ownerType) : undefined,
        f.purpose ? eq(k.purpose, f.purpose) : undefined,
        f.type ? eq(k.type, f.type) : undefined,
        f.isActive === true ? sql`${k.active} and not ${k.deleted}` : undefined,
        f.isActive === false ? sql`not (${k.active} and not ${k.deleted})` : undefined,
        deleted === 'exclude' ? sql`not ${k.deleted}` : deleted === 'only' ? sql`${k.deleted}` : undefined,
      ),
    );
}

/**
 * A search in the staff's list with no other filter (deleted cards included, as that list has them): counted in the
 * narrow card_search rows (migration 0056), a quarter of the cards' pages. A search with a newline could match across
 * the two texts there.
 */
function searchAlone(f: CardFilters): f is CardFilters & { search: string } {
  const others =
    f.walletId || f.startDate || f.endDate || f.ownerType || f.purpose || f.type || f.flaggedOnly || f.createdBy;
  return !!f.search && !f.search.includes('\n') && !others && f.isActive === undefined && f.deleted === 'include';
}

/**
 * The same cards as the search's condition in where(): those whose text (cw_card_haystack) contains the search, counted
 * in card_search, and those found by last4 alone, counted over their few cards. ILIKE lower-cases both sides, as the
 * text and lower() do.
 */
function countSearched(db: DbOrTx, search: string) {
  const p = sql`lower(${containing(search)})`;
  const byText = sql`(select count(*) from ${cardSearch} where ${cardSearch.haystack} like ${p})`;
  return db
    .select({ n: sql<number>`${byText} + count(*)`.mapWith(Number) })
    .from(cards)
    .where(
      and(
        eq(cards.last4, search),
        sql`not (cw_card_haystack(${cards.nickname}, ${cards.firstName}, ${cards.lastName}) like ${p})`,
      ),
    );
}

export async function cardHistory(db: DbOrTx, cardId: string, f: { startDate?: string; endDate?: string }, page: Page) {
  const r = dayRange(f.startDate, f.endDate);
  const cond = and(
    eq(cardTransactions.cardId, cardId),
    ...(r.from ? [gte(cardTransactions.createdAt, r.from)] : []),
    ...(r.to ? [lt(cardTransactions.createdAt, r.to)] : []),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(cardTransactions)
      .where(and(cond, afterCursor(cardTransactions.createdAt, cardTransactions.id, page)))
      .orderBy(desc(cardTransactions.createdAt), desc(cardTransactions.id))
      .limit(page.limit)
      .offset(isExport(page) ? 0 : page.offset),
    isExport(page) ? [undefined] : db.select({ n: count() }).from(cardTransactions).where(cond),
  ]);
  return {
    rows: rows.map(toApiCardTx),
    total: total?.n ?? 0,
  };
}

export function toApiCardTx(t: typeof cardTransactions.$inferSelect): ApiCardTransaction {
  return {
    id: t.id,
    card_id: t.cardId,
    kind: t.kind as ApiCardTransaction['kind'],
    status: t.status as ApiCardTransaction['status'],
    description: t.description,
    amount: formatMoney(t.amount),
    currency: t.currency,
    merchant: t.merchant,
    country: t.country,
    decline_reason: t.declineReason,
    authorization_id: t.authorizationId,
    mcc: t.mcc,
    merchant_category: t.mcc ? categoryOf(t.mcc) : null,
    decline_code: t.declineCode as ApiCardTransaction['decline_code'],
    decided_by: t.decidedBy as ApiCardTransaction['decided_by'],
    decision_ms: t.decisionMs,
    held: t.kind === 'authorization' && t.held != null ? formatMoney(t.held) : null,
    date_created: t.createdAt.toISOString(),
    date_updated: t.updatedAt.toISOString(),
  };
}
