import { and, count, desc, eq, gte, lt, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { type ApiFee, type feeListQuery, type updateFeeBody, feeOutOfRange } from '@shared/contract';
import { type FeeRule, hundredthsToString } from '@shared/fees';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { companies, fees } from '../../db/schema';
import { invalidField, notFound } from '../../lib/http';
import { dayRange } from '../../lib/dates';
import { offsetOf } from '../../lib/paging';

type FeeRow = typeof fees.$inferSelect;

/** The fees that apply to a company (its overrides over the defaults), or the defaults. */
export async function scheduleFor(db: DbOrTx, companyId: string | null): Promise<FeeRule[]> {
  const rows = await db
    .select()
    .from(fees)
    .where(
      companyId
        ? or(eq(fees.for, 'default'), and(eq(fees.for, 'company'), eq(fees.forId, companyId)))
        : eq(fees.for, 'default'),
    );
  return effective(rows).map((r) => ({
    name: r.name,
    type: r.type as FeeRule['type'],
    value: r.value,
    status: r.status as FeeRule['status'],
  }));
}

/** A company's own row replaces the default of the same name, whether active or not. */
function effective(rows: FeeRow[]): FeeRow[] {
  const byName = new Map<string, FeeRow>();
  for (const r of rows) if (r.for === 'default' && !byName.has(r.name)) byName.set(r.name, r);
  for (const r of rows) if (r.for === 'company') byName.set(r.name, r);
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function toApiFee(r: FeeRow, companyName: string | null, inherited?: boolean): ApiFee {
  return {
    id: r.id,
    name: r.name,
    type: r.type as ApiFee['type'],
    value: hundredthsToString(r.value),
    state: r.status as ApiFee['state'],
    for: r.for as ApiFee['for'],
    for_id: r.forId,
    for_name: companyName,
    ...(inherited === undefined ? {} : { inherited }),
    updated_at: r.updatedAt.toISOString(),
  };
}

async function companyName(db: DbOrTx, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [c] = await db.select({ name: companies.companyName }).from(companies).where(eq(companies.id, id));
  return c?.name ?? null;
}

/** A customer's view: the schedule that applies to them (their company's, or the defaults). */
export async function customerSchedule(ctx: AppContext, me: AuthUser, forId?: string): Promise<ApiFee[]> {
  const companyId = me.companyId;
  if (forId && forId !== companyId) throw notFound('The company');
  return companySchedule(ctx, companyId);
}

async function companySchedule(ctx: AppContext, companyId: string | null): Promise<ApiFee[]> {
  const name = await companyName(ctx.db, companyId);
  if (companyId && !name) throw notFound('The company');
  const rows = await ctx.db
    .select()
    .from(fees)
    .where(
      companyId
        ? or(eq(fees.for, 'default'), and(eq(fees.for, 'company'), eq(fees.forId, companyId)))
        : eq(fees.for, 'default'),
    );
  return effective(rows).map((r) =>
    toApiFee(r, r.for === 'company' ? name : null, companyId ? r.for === 'default' : undefined),
  );
}

/** Super-Admin: one company's schedule, with the company it is for (a screen opened by its address names it). */
export async function companyScheduleOf(ctx: AppContext, companyId: string) {
  const [data, name] = await Promise.all([companySchedule(ctx, companyId), companyName(ctx.db, companyId)]);
  return { data, company: { id: companyId, company_name: name! } };
}

/** Staff: every row of the schedule, defaults and overrides, filtered and paged. */
export async function listFees(ctx: AppContext, q: z.output<typeof feeListQuery>) {
  const where: SQL[] = [];
  if (q.for) where.push(eq(fees.for, q.for));
  if (q.for_id) where.push(eq(fees.forId, q.for_id));
  const range = dayRange(q.start_date, q.end_date);
  if (range.from) where.push(gte(fees.updatedAt, range.from));
  if (range.to) where.push(lt(fees.updatedAt, range.to));
  const cond = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ fee: fees, companyName: companies.companyName })
      .from(fees)
      .leftJoin(companies, eq(companies.id, fees.forId))
      .where(cond)
      .orderBy(fees.for, fees.name, desc(fees.updatedAt))
      .limit(q.per_page)
      .offset(offsetOf(q)),
    ctx.db.select({ n: count() }).from(fees).where(cond),
  ]);
  return { rows: rows.map((r) => toApiFee(r.fee, r.companyName)), total: total?.n ?? 0 };
}

const statusOf = (s: z.output<typeof updateFeeBody>['status'], fallback: string) =>
  s === undefined ? fallback : s === 1 || s === '1' || s === 'Active' ? 'Active' : 'Inactive';

/**
 * Edits a fee. Editing a default fee "for" a company creates (or updates) that company's own
 * row, leaving the default for everyone else.
 */
export async function updateFee(ctx: AppContext, me: AuthUser, id: string, body: z.output<typeof updateFeeBody>) {
  const [row] = await ctx.db.select().from(fees).where(eq(fees.id, id));
  if (!row) throw notFound('The fee');
  // the stored type decides, whatever type the request carried
  const outOfRange = feeOutOfRange(row.type as ApiFee['type'], body.value);
  if (outOfRange) throw invalidField('value', outOfRange);
  const now = ctx.now();
  if (row.for === 'default' && body.for === 'company' && body.for_id) {
    const name = await companyName(ctx.db, body.for_id);
    if (!name) throw notFound('The company');
    const [saved] = await ctx.db
      .insert(fees)
      .values({
        id: crypto.randomUUID(),
        name: row.name,
        type: row.type,
        value: body.value,
        status: statusOf(body.status, row.status),
        for: 'company',
        forId: body.for_id,
        updatedBy: me.id,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [fees.name, fees.for, fees.forId],
        set: { value: body.value, status: statusOf(body.status, row.status), updatedBy: me.id, updatedAt: now },
      })
      .returning();
    return toApiFee(saved!, name);
  }
  if (row.for === 'company' && body.for_id && body.for_id !== row.forId) throw notFound('The fee');
  const [saved] = await ctx.db
    .update(fees)
    .set({ value: body.value, status: statusOf(body.status, row.status), updatedBy: me.id, updatedAt: now })
    .where(eq(fees.id, id))
    .returning();
  return toApiFee(saved!, await companyName(ctx.db, saved!.forId));
}
