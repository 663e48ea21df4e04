import { and, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { ApiCompanyCustomer, ApiCustomerRow, ApiIndividualCustomer } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { cards, companies, ledgerAccounts, users } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { containing } from '../../lib/like';

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

export async function listIndividuals(db: DbOrTx, f: CustomerFilters, page: { limit: number; offset: number }) {
  const r = dayRange(f.startDate, f.endDate);
  const cond = and(
    eq(users.role, 'Individual'),
    isNull(users.deletedAt),
    ...stateFilter(f.state, users.deactivatedAt, users.state),
    ...(r.from ? [gte(users.createdAt, r.from)] : []),
    ...(r.to ? [lt(users.createdAt, r.to)] : []),
    ...(f.name
      ? [
          or(
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, containing(f.name)),
            ilike(users.email, containing(f.name)),
          )!,
        ]
      : []),
  );
  const [rows, [total]] = await Promise.all([
    // The page's ids first; the card counts and balance are then computed for those rows alone
    // (a deep page would otherwise compute them for every row it skips).
    db
      .select({ u: users, ...cardCounts('users') })
      .from(users)
      .where(
        inArray(
          users.id,
          db
            .select({ id: users.id })
            .from(users)
            .where(cond)
            .orderBy(desc(users.createdAt), desc(users.id))
            .limit(page.limit)
            .offset(page.offset),
        ),
      )
      .orderBy(desc(users.createdAt), desc(users.id)),
    db.select({ n: count() }).from(users).where(cond),
  ]);
  return {
    rows: rows.map(
      (x): ApiIndividualCustomer => ({
        id: x.u.id,
        first_name: x.u.firstName,
        last_name: x.u.lastName,
        email: x.u.email,
        phone_number: x.u.phoneNumber,
        role: x.u.role,
        state: shownState(x.u.deactivatedAt, x.u.state),
        master_wallet: formatMoney(Number(x.balance)),
        cards_count: Number(x.cards),
        active_cards_count: Number(x.activeCards),
        created_at: x.u.createdAt.toISOString(),
      }),
    ),
    total: total?.n ?? 0,
  };
}

export async function listCompanies(db: DbOrTx, f: CustomerFilters, page: { limit: number; offset: number }) {
  const r = dayRange(f.startDate, f.endDate);
  const cond = and(
    ...stateFilter(f.state, companies.deactivatedAt, companies.state),
    ...(r.from ? [gte(companies.createdAt, r.from)] : []),
    ...(r.to ? [lt(companies.createdAt, r.to)] : []),
    ...(f.name
      ? [or(ilike(companies.companyName, containing(f.name)), ilike(companies.companyEmail, containing(f.name)))!]
      : []),
  );
  const usersCount = sql<number>`(select count(*)::int from ${users} where ${users.companyId} = ${outerId('companies')} and ${users.deletedAt} is null)`;
  const [rows, [total]] = await Promise.all([
    db
      .select({ c: companies, usersCount, ...cardCounts('companies') })
      .from(companies)
      .where(
        inArray(
          companies.id,
          db
            .select({ id: companies.id })
            .from(companies)
            .where(cond)
            .orderBy(desc(companies.createdAt), desc(companies.id))
            .limit(page.limit)
            .offset(page.offset),
        ),
      )
      .orderBy(desc(companies.createdAt), desc(companies.id)),
    db.select({ n: count() }).from(companies).where(cond),
  ]);
  return {
    rows: rows.map(
      (x): ApiCompanyCustomer => ({
        id: x.c.id,
        company_name: x.c.companyName,
        company_website: x.c.companyWebsite,
        company_email: x.c.companyEmail,
        company_phone: x.c.companyPhone,
        users_count: Number(x.usersCount),
        state: shownState(x.c.deactivatedAt, x.c.state),
        master_wallet: formatMoney(Number(x.balance)),
        cards_count: Number(x.cards),
        active_cards_count: Number(x.activeCards),
        created_at: x.c.createdAt.toISOString(),
      }),
    ),
    total: total?.n ?? 0,
  };
}
