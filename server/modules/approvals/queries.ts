import { and, desc, eq, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import {
  APPROVAL_ACTION_NAMES,
  type ApprovalAction,
  type ApprovalState,
  STAFF_ROLES,
  approvalPermission,
  can,
} from '@shared/contract';
import type { DbOrTx } from '../../db/client';
import { approvalPolicies, approvals, users } from '../../db/schema';

export type ApprovalRow = typeof approvals.$inferSelect;
export interface Policy {
  action: ApprovalAction;
  required: boolean;
  minAmount: number | null;
}

/** Every action's policy; an action with no row is off (a fresh install works with one admin). */
export async function listPolicies(db: DbOrTx): Promise<Policy[]> {
  const rows = await db.select().from(approvalPolicies);
  const by = new Map(rows.map((r) => [r.action, r]));
  return APPROVAL_ACTION_NAMES.map((action) => {
    const r = by.get(action);
    return { action, required: r?.required ?? false, minAmount: r?.minAmount ?? null };
  });
}

export async function policyOf(db: DbOrTx, action: ApprovalAction): Promise<Policy> {
  const [r] = await db.select().from(approvalPolicies).where(eq(approvalPolicies.action, action));
  return { action, required: r?.required ?? false, minAmount: r?.minAmount ?? null };
}

export async function savePolicies(db: DbOrTx, list: Policy[], by: string, now: Date): Promise<void> {
  for (const p of list)
    await db
      .insert(approvalPolicies)
      .values({ action: p.action, required: p.required, minAmount: p.minAmount, updatedAt: now, updatedBy: by })
      .onConflictDoUpdate({
        target: approvalPolicies.action,
        set: { required: p.required, minAmount: p.minAmount, updatedAt: now, updatedBy: by },
      });
}

export async function insertApproval(db: DbOrTx, row: typeof approvals.$inferInsert): Promise<void> {
  await db.insert(approvals).values(row);
}

/** Pending requests past their 24 hours become expired; any process may run it, any number of times. */
export async function expireDue(db: DbOrTx, now: Date, id?: string): Promise<void> {
  await db
    .update(approvals)
    .set({ state: 'expired', decidedAt: sql`${approvals.expiresAt}` })
    .where(and(eq(approvals.state, 'pending'), lte(approvals.expiresAt, now), id ? eq(approvals.id, id) : undefined));
}

export async function listApprovals(
  db: DbOrTx,
  state: ApprovalState | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: ApprovalRow[]; total: number }> {
  const where = state ? eq(approvals.state, state) : undefined;
  const rows = await db
    .select()
    .from(approvals)
    .where(where)
    .orderBy(desc(approvals.createdAt), desc(approvals.id))
    .limit(page.limit)
    .offset(page.offset);
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(approvals).where(where);
  return { rows, total: Number(c?.n ?? 0) };
}

export async function findApproval(db: DbOrTx, id: string): Promise<ApprovalRow | undefined> {
  const [r] = await db.select().from(approvals).where(eq(approvals.id, id));
  return r;
}

/** Takes a pending request for this checker: one conditional update, so of several at once one wins. */
export async function claim(
  db: DbOrTx,
  id: string,
  by: { id: string; email: string },
  now: Date,
): Promise<ApprovalRow | undefined> {
  const [r] = await db
    .update(approvals)
    .set({ state: 'approved', decidedBy: by.id, decidedByEmail: by.email, decidedAt: now })
    .where(and(eq(approvals.id, id), eq(approvals.state, 'pending'), sql`${approvals.expiresAt} > ${now}`))
    .returning();
  return r;
}

/**
 * Takes over a request whose performer died after its claim (approved, no result, claimed before
 * `staleBefore`): replaying it with the same Idempotency-Key performs it at most once.
 */
export async function reclaim(db: DbOrTx, id: string, now: Date, staleBefore: Date): Promise<ApprovalRow | undefined> {
  const [r] = await db
    .update(approvals)
    .set({ decidedAt: now })
    .where(
      and(
        eq(approvals.id, id),
        eq(approvals.state, 'approved'),
        isNull(approvals.resultStatus),
        lt(approvals.decidedAt, staleBefore),
      ),
    )
    .returning();
  return r;
}

export async function recordResult(db: DbOrTx, id: string, status: number, body: unknown): Promise<void> {
  await db
    .update(approvals)
    .set({ resultStatus: status, resultBody: body, state: status >= 400 ? 'failed' : 'approved' })
    .where(and(eq(approvals.id, id), isNull(approvals.resultStatus)));
}

export async function rejectPending(
  db: DbOrTx,
  id: string,
  by: { id: string; email: string },
  reason: string,
  now: Date,
): Promise<ApprovalRow | undefined> {
  const [r] = await db
    .update(approvals)
    .set({ state: 'rejected', decidedBy: by.id, decidedByEmail: by.email, decidedAt: now, reason })
    .where(and(eq(approvals.id, id), eq(approvals.state, 'pending'), sql`${approvals.expiresAt} > ${now}`))
    .returning();
  return r;
}

/** The live staff who may check this action, but its maker. */
export async function checkersOf(db: DbOrTx, action: ApprovalAction, maker: string): Promise<string[]> {
  const roles = STAFF_ROLES.filter((r) => can(r, approvalPermission(action)));
  if (!roles.length) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.role, roles), ne(users.id, maker), isNull(users.deletedAt), isNull(users.deactivatedAt)));
  return rows.map((r) => r.id);
}
