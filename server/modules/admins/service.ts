import { and, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ApiAdmin,
  STAFF_ROLES,
  STAFF_ROLE_KEYS,
  type StaffRoleKey,
  type createAdminBody,
  staffRoleKey,
  type updateAdminBody,
} from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, HTTP, conflict, forbidden, invalidField, notFound } from '../../lib/http';
import { hashPassword } from '../../lib/passwords';
import { staffInviteMail } from '../../mail/templates';
import { createEmailToken, findLiveUserByEmail, revokeUserSessions, type UserRow } from '../account/queries';
import { EMAIL_TAKEN } from '../account/service';
import { type AccessFacts, NO_FACTS, accessFacts, accessFields } from './queries';

const INVITE_TTL = 72 * 3600_000;
const roleOf = (r: StaffRoleKey) => STAFF_ROLE_KEYS[r];

function toApiAdmin(u: UserRow, facts: AccessFacts = NO_FACTS): ApiAdmin {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    email: u.email,
    phone_number: u.phoneNumber,
    role: staffRoleKey(u.role),
    state: u.deactivatedAt ? 'Deactivated' : u.passwordHash ? 'Active' : 'Invited',
    created_at: u.createdAt.toISOString(),
    ...accessFields(u, facts),
  };
}

/** Each row with its open sessions (and pending 2FA resets) read in one query for the page. */
async function present(ctx: AppContext, rows: UserRow[]) {
  const facts = await accessFacts(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((u) => toApiAdmin(u, facts.get(u.id)));
}

const liveStaff = and(inArray(users.role, [...STAFF_ROLES]), isNull(users.deletedAt));

export async function listAdmins(ctx: AppContext, page: { limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(users)
      .where(liveStaff)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(users).where(liveStaff),
  ]);
  return { rows: await present(ctx, rows), total: total?.n ?? 0 };
}

async function sendInvite(ctx: AppContext, u: { id: string; email: string; firstName: string }) {
  const token = await createEmailToken(ctx.db, u.id, 'staff_invite', INVITE_TTL, ctx.now());
  try {
    await ctx.mailer.send(
      staffInviteMail(u.email, u.firstName, `${ctx.config.appUrl}/onboarding/new-password?token=${token}`),
    );
  } catch (err) {
    ctx.log.error({ err }, 'could not send staff invitation');
  }
}

/** A new staff member gets a mail to set their password; 2FA is set up at their first login. */
export async function createAdmin(ctx: AppContext, body: z.output<typeof createAdminBody>) {
  if (await findLiveUserByEmail(ctx.db, body.email)) throw invalidField('email', EMAIL_TAKEN);
  const now = ctx.now();
  const [u] = await ctx.db
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
      phoneNumber: body.phone_number,
      role: roleOf(body.role),
      state: 'Verified',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await sendInvite(ctx, u!);
  return toApiAdmin(u!);
}

/** Active ones: a deactivated Super-Admin cannot sign in, so does not keep the back-office managed. */
export async function otherSuperAdmins(db: DbOrTx, exceptId: string) {
  const [r] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(eq(users.role, 'Super-Admin'), isNull(users.deletedAt), isNull(users.deactivatedAt), ne(users.id, exceptId)),
    );
  return r?.n ?? 0;
}

/**
 * Every change to an administrator first locks the live Super-Admins, always in id order: two
 * Super-Admins demoting or deleting each other at once take turns, so one always remains.
 */
export async function lockSuperAdmins(tx: DbOrTx) {
  await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'Super-Admin'), isNull(users.deletedAt)))
    .orderBy(users.id)
    .for('update');
}

export async function findAdmin(db: DbOrTx, id: string) {
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), liveStaff))
    .for('update');
  if (!u) throw notFound('The administrator');
  return u;
}

export async function updateAdmin(ctx: AppContext, me: AuthUser, id: string, body: z.output<typeof updateAdminBody>) {
  const now = ctx.now();
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  const saved = await ctx.db.transaction(async (tx) => {
    await lockSuperAdmins(tx);
    const u = await findAdmin(tx, id);
    if (body.email !== u.email) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, body.email), isNull(users.deletedAt)));
      if (taken) throw invalidField('email', EMAIL_TAKEN);
    }
    const role = body.role ? roleOf(body.role) : u.role;
    if (u.role === 'Super-Admin' && role !== 'Super-Admin' && (await otherSuperAdmins(tx, u.id)) === 0) {
      throw conflict('The last Super-Admin cannot be demoted.');
    }
    if (id === me.id && role !== u.role) throw forbidden('You cannot change your own privileges.');
    const [saved] = await tx
      .update(users)
      .set({
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        phoneNumber: body.phone_number ?? u.phoneNumber,
        role,
        ...(passwordHash ? { passwordHash, passwordChangedAt: now } : {}),
        updatedAt: now,
      })
      .where(eq(users.id, id))
      .returning();
    // A new password, a new address or other privileges: their sessions start over.
    if (passwordHash || role !== u.role || body.email !== u.email) await revokeUserSessions(tx, id, now);
    return saved!;
  });
  return (await present(ctx, [saved]))[0]!;
}

export async function deleteAdmin(ctx: AppContext, me: AuthUser, id: string) {
  if (id === me.id) throw forbidden('You cannot delete your own account.');
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await lockSuperAdmins(tx);
    const u = await findAdmin(tx, id);
    if (u.role === 'Super-Admin' && (await otherSuperAdmins(tx, u.id)) === 0)
      throw new AppError(HTTP.CONFLICT, 'The last Super-Admin cannot be removed.');
    await tx.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, id));
    await revokeUserSessions(tx, id, now);
  });
  return 'Admin deleted.';
}
