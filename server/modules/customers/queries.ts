import { and, count, eq, gte, ilike, inArray, isNotNull, isNull, like, lt, or, type SQL, sql } from 'drizzle-orm';
import type { ApiCompanyCustomer, ApiCustomerRow, ApiIndividualCustomer } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { cards, companies, customerCount, ledgerAccounts, userSearch, users } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { containing } from '../../lib/like';
import { keptRows } from '../../db/kept-counts';
import { newestFirst, pageAndTotal } from '../../lib/paging';

export type CustomerFilters = { state?: string; name?: string; startDate?: string; endDate?: string };

/** The state staff see: Deactivated while it holds, else the verification state (pending = In-review). */
function stateFilter(
  state: string | undefined,
  deactivatedAt: typeof users.deactivatedAt | typeof companies.deactivatedAt,
  verification: typeof users.state | typeof companies.state,
): SQL[] {
  if (!state) return [];
  if (state === 'Deactivated') return [isNotNull(deactivatedAt)];
  return [isNull(deactivatedAt), eq(verification, state === 'In-review' ? 'pending' : state)];
}

const shownState = (deactivated: Date | null, state: string): ApiCustomerRow['state'] =>
  deactivated ? 'Deactivated' : state === 'pending' ? 'In-review' : (state as ApiCustomerRow['state']);

/**
 * The outer row's id, named with its table: Drizzle leaves columns unqualified in single-table
 * selects, and an unqualified "id" inside a subquery would mean the subquery's own table.
 */
const outerId = (table: 'users' | 'companies') => sql.raw(`"${table}"."id"`);

const cardCounts = (table: 'users' | 'companies') => {
  const walletCol = outerId(table);
  return {
    cards: sql<number>`(select count(*)::int from ${cards} where ${cards.walletId} = ${walletCol})`,
    activeCards: sql<number>`(select count(*)::int from ${cards} where ${cards.walletId} = ${walletCol} and ${cards.state} = 'Active' and ${cards.deletedAt} is null)`,
    balance: sql<number>`coalesce((select ${ledgerAccounts.balance} from ${ledgerAccounts} where ${ledgerAccounts.kind} = 'wallet' and ${ledgerAccounts.ownerId} = ${walletCol}), 0)`,
  };
};

type Customers = typeof users | typeof companies;
type PageRange = { limit: number; offset: number };

/** Both lists, their pages and their exports: newest first, the id breaking ties (a search's by its count). */
const newest = (t: Customers, matches?: number) => newestFirst(t.createdAt, t.id, matches);

/** The filters both lists have: the state staff see and the day range of creation. */
function commonFilters(t: Customers, f: CustomerFilters): SQL[] {
  const r = dayRange(f.startDate, f.endDate);
  return [
    ...stateFilter(f.state, t.deactivatedAt, t.state),
    ...(r.from ? [gte(t.createdAt, r.from)] : []),
    ...(r.to ? [lt(t.createdAt, r.to)] : []),
  ];
}

/**
 * Individuals found by name alone: counted in the narrow user_search rows (migration 0056), about half the users'
 * pages; the same rows as listIndividuals' condition (ILIKE lower-cases both sides, as haystack and lower() do). A
 * name with a newline could match across the two texts there, so it is counted over the users.
 */
function countNamed(db: DbOrTx, name: string) {
  const s = userSearch;
  return db
    .select({ n: count() })
    .from(s)
    .where(and(s.listed, like(s.haystack, sql`lower(${containing(name)})`)));
}

/**
 * How many customers match: by state alone (or all), the kept total's (migration 0053); with a name or a day range,
 * counted over the matching rows.
 */
function countCustomers(db: DbOrTx, t: Customers, cond: SQL | undefined, f: CustomerFilters) {
  const r = dayRange(f.startDate, f.endDate);
  if (t === users && f.name && !f.name.includes('\n') && !f.state && !r.from && !r.to) return countNamed(db, f.name);
  if (f.name || r.from || r.to) return db.select({ n: count() }).from(t).where(cond);
  const k = customerCount;
  return db
    .select({ n: keptRows(k.rows) })
    .from(k)
    .where(
      and(
        eq(k.kind, t === users ? 'individual' : 'company'),
        ...(f.state === 'Deactivated'
          ? [eq(k.deactivated, true)]
          : f.state
            ? [eq(k.deactivated, false), eq(k.state, f.state === 'In-review' ? 'pending' : f.state)]
            : []),
      ),
    );
}

/**
 * The page's ids, chosen first: the card counts and balance are then computed for those rows alone
 * (a deep page would otherwise compute them for every row it skips).
 */
const pageIds = (db: DbOrTx, t: Customers, cond: SQL | undefined, page: PageRange, matches?: number) =>
  db
    .select({ id: t.id })
    .from(t)
    .where(cond)
    .orderBy(...newest(t, matches))
    .limit(page.limit)
    .offset(page.offset);

/** The columns both rows end with, in the contract's order. */
const commonRow = (
  x: { deactivatedAt: Date | null; state: string; createdAt: Date },
  counts: { balance: number; cards: number; activeCards: number },
): Pick<ApiCustomerRow, 'state' | 'master_wallet' | 'cards_count' | 'active_cards_count' | 'created_at'> => ({
  state: shownState(x.deactivatedAt, x.state),
  master_wallet: formatMoney(Number(counts.balance)),
  cards_count: Number(counts.cards),
  active_cards_count: Number(counts.activeCards),
  created_at: x.createdAt.toISOString(),
});

export async function listIndividuals(db: DbOrTx, f: CustomerFilters, page: PageRange) {
  const cond = and(
    eq(users.role, 'Individual'),
    isNull(users.deletedAt),
    ...commonFilters(users, f),
    ...(f.name
      ? [
          or(
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, containing(f.name)),
            ilike(users.email, containing(f.name)),
          )!,
        ]
      : []),
  );
  const [rows, total] = await pageAndTotal(
    !!f.name,
    () => countCustomers(db, users, cond, f),
    (matches) =>
      db
        .select({ u: users, ...cardCounts('users') })
        .from(users)
        .where(inArray(users.id, pageIds(db, users, cond, page, matches)))
        .orderBy(...newest(users)),
  );
  return {
    rows: rows.map(
      (x): ApiIndividualCustomer => ({
        id: x.u.id,
        first_name: x.u.firstName,
        last_name: x.u.lastName,
        email: x.u.email,
        phone_number: x.u.phoneNumber,
        role: x.u.role,
        ...commonRow(x.u, x),
      }),
    ),
    total,
  };
}

export async function listCompanies(db: DbOrTx, f: CustomerFilters, page: PageRange) {
  const cond = and(
    ...commonFilters(companies, f),
    ...(f.name
      ? [or(ilike(companies.companyName, containing(f.name)), ilike(companies.companyEmail, containing(f.name)))!]
      : []),
  );
  const usersCount = sql<number>`(select count(*)::int from ${users} where ${users.companyId} = ${outerId('companies')} and ${users.deletedAt} is null)`;
  const [rows, total] = await pageAndTotal(
    !!f.name,
    () => countCustomers(db, companies, cond, f),
    (matches) =>
      db
        .select({ c: companies, usersCount, ...cardCounts('companies') })
        .from(companies)
        .where(inArray(companies.id, pageIds(db, companies, cond, page, matches)))
        .orderBy(...newest(companies)),
  );
  return {
    rows: rows.map(
      (x): ApiCompanyCustomer => ({
        id: x.c.id,
        company_name: x.c.companyName,
        company_website: x.c.companyWebsite,
        company_email: x.c.companyEmail,
        company_phone: x.c.companyPhone,
        users_count: Number(x.usersCount),
        ...commonRow(x.c, x),
      }),
    ),
    total,
  };
}
