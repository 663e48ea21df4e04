import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context';
import { loginChallenges, sessions, users } from '../../db/schema';
import { conflict, forbidden } from '../../lib/http';
import { revokeUserSessions } from '../account/queries';
import { openSession } from './queries';
import { findAdmin, lockSuperAdmins, otherSuperAdmins } from './service';

/**
 * The access review's actions on a staff member (issue 33): end their sessions, deactivate and
 * reactivate them. Ending sessions and deactivating take effect on every instance at the next
 * request: staff sessions are never answered from memory (plugins/auth.ts).
 */

/**
 * Ends every open session of a staff member and the logins they have under way. One's own: every
 * other session ends and the one asking stays signed in (as "sign out everywhere else" does).
 */
export async function endStaffSessions(ctx: AppContext, me: AuthUser, id: string) {
  const now = ctx.now();
  const ended = await ctx.db.transaction(async (tx) => {
    await findAdmin(tx, id);
    const keep = id === me.id && me.sessionId ? ne(sessions.id, me.sessionId) : undefined;
    const rows = await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, id), openSession(ctx, now), keep))
      .returning({ id: sessions.id });
    await tx
      .update(loginChallenges)
      .set({ usedAt: now })
      .where(and(eq(loginChallenges.userId, id), isNull(loginChallenges.usedAt)));
    return rows.length;
  });
  const message =
    ended === 0 ? 'There were no open sessions to end.' : `${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`;
  return { ended, message };
}

/**
 * Deactivation ends every session and login under way at once and refuses later sign-ins; the
 * account, its role and its history stay for reactivation and the audit trail. Never oneself, and
 * never the last active Super-Admin: someone must be able to manage staff.
 */
export async function setStaffActive(ctx: AppContext, me: AuthUser, id: string, active: boolean) {
  if (id === me.id)
    throw forbidden(active ? 'You cannot reactivate your own account.' : 'You cannot deactivate your own account.');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await lockSuperAdmins(tx);
    const u = await findAdmin(tx, id);
    if (active === !u.deactivatedAt)
      throw conflict(active ? 'This administrator is already active.' : 'This administrator is already deactivated.');
    if (!active && u.role === 'Super-Admin' && (await otherSuperAdmins(tx, u.id)) === 0)
      throw conflict('The last active Super-Admin cannot be deactivated.');
    await tx
      .update(users)
      .set({ deactivatedAt: active ? null : now, updatedAt: now })
      .where(eq(users.id, id));
    if (!active) await revokeUserSessions(tx, id, now);
  });
  return active ? 'Admin reactivated.' : 'Admin deactivated.';
}
