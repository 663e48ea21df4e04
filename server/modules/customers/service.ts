import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { companies, users } from '../../db/schema';
import { conflict, notFound } from '../../lib/http';
import { accountStatusMail } from '../../mail/templates';
import { revokeUserSessions } from '../account/queries';

async function mail(ctx: AppContext, to: { email: string; firstName: string }[], active: boolean) {
  for (const u of to) {
    try {
      await ctx.mailer.send(accountStatusMail(u.email, u.firstName, active));
    } catch (err) {
      ctx.log.error({ err }, 'could not send account status mail');
    }
  }
}

/** Deactivation ends every session at once; the verification state is kept for reactivation. */
export async function setIndividualActive(ctx: AppContext, id: string, active: boolean) {
  const now = ctx.now();
  const u = await ctx.db.transaction(async (tx) => {
    const [u] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'Individual'), isNull(users.deletedAt)))
      .for('update');
    if (!u) throw notFound('The customer');
    if (active === !u.deactivatedAt)
      throw conflict(active ? 'This account is already active.' : 'This account is already deactivated.');
    await tx
      .update(users)
      .set({ deactivatedAt: active ? null : now, updatedAt: now })
      .where(eq(users.id, id));
    if (!active) await revokeUserSessions(tx, id, now);
    return u;
  });
  await mail(ctx, [u], active);
  return active ? 'User Account reactivated.' : 'User Account deactivated.';
}

export async function setCompanyActive(ctx: AppContext, id: string, active: boolean) {
  const now = ctx.now();
  const members = await ctx.db.transaction(async (tx) => {
    const [c] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
    if (!c) throw notFound('The company');
    if (active === !c.deactivatedAt)
      throw conflict(active ? 'This company is already active.' : 'This company is already deactivated.');
    await tx
      .update(companies)
      .set({ deactivatedAt: active ? null : now, updatedAt: now })
      .where(eq(companies.id, id));
    const members = await tx
      .select()
      .from(users)
      .where(and(eq(users.companyId, id), isNull(users.deletedAt)));
    if (!active) for (const m of members) await revokeUserSessions(tx, m.id, now);
    return members;
  });
  await mail(
    ctx,
    members.filter((m) => m.role === 'Company-Admin' && m.passwordHash),
    active,
  );
  return active ? 'Company Account reactivated.' : 'Company Account deactivated.';
}
