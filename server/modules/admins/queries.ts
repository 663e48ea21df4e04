import { and, count, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { ApiAdmin } from '@shared/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { approvals, sessions } from '../../db/schema';
import type { UserRow } from '../account/queries';

/** What the access review shows of a staff member beyond their own row. */
export interface AccessFacts {
  openSessions: number;
  /** a second-factor reset asked and waiting for a second person (maker-checker) */
  resetPending: boolean;
}
export const NO_FACTS: AccessFacts = { openSessions: 0, resetPending: false };

/** A session still usable: not ended, not past its absolute expiry, not idle too long (auth.ts ends those lazily). */
export function openSession(ctx: AppContext, now: Date) {
  const idleSince = new Date(now.getTime() - ctx.config.sessions.idleMinutes * 60_000);
  return and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, idleSince));
}

async function countOpenSessions(ctx: AppContext, db: DbOrTx, userIds: string[]) {
  if (!userIds.length) return new Map<string, number>();
  const rows = await db
    .select({ userId: sessions.userId, n: count() })
    .from(sessions)
    .where(and(inArray(sessions.userId, userIds), openSession(ctx, ctx.now())))
    .groupBy(sessions.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
}

/** Whose second-factor reset waits for a second person (a held `two_factor.reset`, not yet expired). */
async function pendingResets(ctx: AppContext, userIds: string[]) {
  if (!userIds.length) return new Set<string>();
  const rows = await ctx.db
    .selectDistinct({ id: approvals.targetId })
    .from(approvals)
    .where(
      and(
        eq(approvals.action, 'two_factor.reset'),
        eq(approvals.state, 'pending'),
        gt(approvals.expiresAt, ctx.now()),
        inArray(approvals.targetId, userIds),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The facts of a page of staff: their open sessions and pending resets, a query each. */
export async function accessFacts(ctx: AppContext, userIds: string[]): Promise<Map<string, AccessFacts>> {
  const [open, pending] = await Promise.all([countOpenSessions(ctx, ctx.db, userIds), pendingResets(ctx, userIds)]);
  return new Map(userIds.map((id) => [id, { openSessions: open.get(id) ?? 0, resetPending: pending.has(id) }]));
}

export function accessFields(
  u: UserRow,
  f: AccessFacts,
): Pick<ApiAdmin, 'two_factor' | 'last_sign_in_at' | 'open_sessions' | 'deactivated_at'> {
  return {
    two_factor: f.resetPending ? 'reset_pending' : u.totpSecret ? 'on' : 'not_set_up',
    last_sign_in_at: u.lastLoginAt?.toISOString() ?? null,
    open_sessions: f.openSessions,
    deactivated_at: u.deactivatedAt?.toISOString() ?? null,
  };
}
