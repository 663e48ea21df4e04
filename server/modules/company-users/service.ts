import { and, count, desc, eq, isNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import {
  isStaff,
  COMPANY_USER_ROLES,
  type CompanyUserRow,
  type PageQuery,
  type createCompanyUserBody,
} from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import { users } from '../../db/schema';
import { forbidden, invalidField, notFound } from '../../lib/http';
import { offsetOf } from '../../lib/paging';
import { inviteMail } from '../../mail/templates';
import {
  createEmailToken,
  findCompany,
  findLiveUserByEmail,
  revokeUserSessions,
  type UserRow,
} from '../account/queries';
import { EMAIL_TAKEN } from '../account/service';

const INVITE_TTL = 7 * 24 * 3600_000;

function toCompanyUserRow(u: UserRow): CompanyUserRow {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    phone_number: u.phoneNumber,
    role: u.role === 'Company-Admin' ? 'admin' : 'user',
    state: u.deactivatedAt ? 'Deactivated' : u.passwordHash ? 'Active' : 'Invited',
    created_at: u.createdAt.toISOString(),
  };
}

/** Only the Company-Admin of this very company manages its users. */
function assertCompanyAdmin(me: AuthUser, companyId: string) {
  if (me.companyId !== companyId) throw notFound('The company');
  if (me.role !== 'Company-Admin') throw forbidden('Only a company admin can manage users.');
}

const ofCompany = (companyId: string) => and(eq(users.companyId, companyId), isNull(users.deletedAt));

export async function listCompanyUsers(ctx: AppContext, me: AuthUser, companyId: string, q: PageQuery) {
  // Staff read a company's users (to reset one's 2FA, say); only its admins manage them.
  if (isStaff(me.role)) {
    if (!(await findCompany(ctx.db, companyId))) throw notFound('The company');
  } else assertCompanyAdmin(me, companyId);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(users)
      .where(ofCompany(companyId))
      .orderBy(desc(users.createdAt), users.id)
      .limit(q.per_page)
      .offset(offsetOf(q)),
    ctx.db.select({ n: count() }).from(users).where(ofCompany(companyId)),
  ]);
  return { rows: rows.map(toCompanyUserRow), total: total?.n ?? 0 };
}

export async function inviteCompanyUser(
  ctx: AppContext,
  me: AuthUser,
  companyId: string,
  body: z.output<typeof createCompanyUserBody>,
) {
  assertCompanyAdmin(me, companyId);
  if (await findLiveUserByEmail(ctx.db, body.email)) throw invalidField('email', EMAIL_TAKEN);
  const company = await findCompany(ctx.db, companyId);
  if (!company) throw notFound('The company');
  const now = ctx.now();
  const id = crypto.randomUUID();
  const { user, token } = await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        id,
        email: body.email,
        firstName: body.first_name,
        lastName: body.last_name,
        phoneNumber: body.phone_number,
        role: COMPANY_USER_ROLES[body.role],
        companyId,
        invitedBy: me.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const token = await createEmailToken(tx, id, 'invite', INVITE_TTL, now);
    return { user: user!, token };
  });
  const identity = Buffer.from(
    JSON.stringify({
      email: body.email,
      phone: body.phone_number,
      fullname: `${body.first_name} ${body.last_name}`,
      token,
    }),
  ).toString('base64');
  const url = `${ctx.config.appUrl}/onboarding/invited?identity=${encodeURIComponent(identity)}`;
  const [inviter] = await ctx.db.select().from(users).where(eq(users.id, me.id));
  try {
    await ctx.mailer.send(
      inviteMail(body.email, body.first_name, company.companyName, `${inviter!.firstName} ${inviter!.lastName}`, url),
    );
  } catch (err) {
    ctx.log.error({ err }, 'could not send invitation mail');
  }
  return toCompanyUserRow(user);
}

async function otherMember(ctx: AppContext, me: AuthUser, companyId: string, userId: string, action: string) {
  assertCompanyAdmin(me, companyId);
  if (userId === me.id) throw forbidden(`You cannot ${action} your own account.`);
  const [u] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), ofCompany(companyId)));
  if (!u) throw notFound('The user');
  return u;
}

export async function setCompanyUserRole(
  ctx: AppContext,
  me: AuthUser,
  companyId: string,
  userId: string,
  role: 'admin' | 'user',
) {
  await otherMember(ctx, me, companyId, userId, 'change the role of');
  const [u] = await ctx.db
    .update(users)
    .set({ role: COMPANY_USER_ROLES[role], updatedAt: ctx.now() })
    .where(and(eq(users.id, userId), ne(users.id, me.id)))
    .returning();
  return toCompanyUserRow(u!);
}

export async function deleteCompanyUser(ctx: AppContext, me: AuthUser, companyId: string, userId: string) {
  await otherMember(ctx, me, companyId, userId, 'delete');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, userId));
    await revokeUserSessions(tx, userId, now);
  });
  return { message: 'User deleted.' };
}
