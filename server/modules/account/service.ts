import { and, desc, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { acceptInviteBody, registerCompanyBody, registerIndividualBody } from '@shared/contract';
import type { AppContext } from '../../context';
import { companies, emailTokens, users } from '../../db/schema';
import { forbidden, invalidField } from '../../lib/http';
import { hashPassword } from '../../lib/passwords';
import { verifyEmailMail } from '../../mail/templates';
import {
  type UserRow,
  consumeEmailToken,
  createEmailToken,
  emailOfUsedVerification,
  findCompany,
  findLiveUserByEmail,
} from './queries';
import { createWallet } from '../ledger/accounts';

const HOUR = 3600_000;
const VERIFY_TTL = 48 * HOUR;
const RESEND_VERIFY_AFTER = 5 * 60_000;

export const EMAIL_TAKEN = 'The email has already been taken.';

export interface ClientMeta {
  ip: string;
  userAgent?: string;
}

const isUniqueViolation = (e: unknown) =>
  typeof e === 'object' &&
  e !== null &&
  ((e as { code?: string }).code === '23505' || (e as { cause?: { code?: string } }).cause?.code === '23505');

async function sendVerification(ctx: AppContext, user: Pick<UserRow, 'id' | 'email' | 'firstName'>) {
  const token = await createEmailToken(ctx.db, user.id, 'verify_email', VERIFY_TTL, ctx.now());
  const url = `${ctx.config.appUrl}/api/v1/account/verify-email?token=${token}`;
  await ctx.mailer.send(verifyEmailMail(user.email, user.firstName, url));
}

async function mailSafely(ctx: AppContext, what: string, send: () => Promise<void>) {
  try {
    await send();
  } catch (err) {
    ctx.log.error({ err }, `could not send ${what} mail`);
  }
}

export async function registerIndividual(ctx: AppContext, body: z.output<typeof registerIndividualBody>) {
  const now = ctx.now();
  const id = crypto.randomUUID();
  if (await findLiveUserByEmail(ctx.db, body.email)) throw invalidField('email', EMAIL_TAKEN);
  const passwordHash = await hashPassword(body.password);
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(users).values({
        id,
        email: body.email,
        passwordHash,
        firstName: body.first_name,
        lastName: body.last_name,
        phoneNumber: body.phone_number,
        role: 'Individual',
        passwordChangedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await createWallet(tx, id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('email', EMAIL_TAKEN);
    throw e;
  }
  await mailSafely(ctx, 'verification', () =>
    sendVerification(ctx, { id, email: body.email, firstName: body.first_name }),
  );
  return { id, email: body.email, message: 'Email Verification Sent.' };
}

export async function registerCompany(ctx: AppContext, body: z.output<typeof registerCompanyBody>) {
  const now = ctx.now();
  const userId = crypto.randomUUID();
  const companyId = crypto.randomUUID();
  if (await findLiveUserByEmail(ctx.db, body.email)) throw invalidField('email', EMAIL_TAKEN);
  const passwordHash = await hashPassword(body.password);
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(companies).values({
        id: companyId,
        companyName: body.company_name,
        companyWebsite: body.company_website,
        companyEmail: body.company_email,
        companyPhone: body.company_phone,
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(users).values({
        id: userId,
        email: body.email,
        passwordHash,
        firstName: body.first_name,
        lastName: body.last_name,
        role: 'Company-Admin',
        companyId,
        passwordChangedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await createWallet(tx, companyId);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw invalidField('email', EMAIL_TAKEN);
    throw e;
  }
  await mailSafely(ctx, 'verification', () =>
    sendVerification(ctx, { id: userId, email: body.email, firstName: body.first_name }),
  );
  return {
    id: userId,
    company_id: companyId,
    email: body.email,
    message: 'Verification mail sent to personal email address',
  };
}

/**
 * The link in the verification mail: the verified email, with `already` when the link had been opened before
 * (mail scanners and people click twice); null for an unknown or expired link.
 */
export async function verifyEmail(ctx: AppContext, token: string): Promise<{ email: string; already: boolean } | null> {
  const now = ctx.now();
  const used = await consumeEmailToken(ctx.db, token, ['verify_email'], now);
  if (!used) {
    const email = await emailOfUsedVerification(ctx.db, token, now);
    return email ? { email, already: true } : null;
  }
  const [u] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
    .returning({ email: users.email });
  return u ? { email: u.email, already: false } : null;
}

export async function assertMayLogIn(ctx: AppContext, user: UserRow) {
  const company = await findCompany(ctx.db, user.companyId);
  if (user.deactivatedAt || company?.deactivatedAt) {
    throw forbidden('This account has been deactivated. Please contact support.');
  }
  if (!user.emailVerifiedAt) {
    const [last] = await ctx.db
      .select({ createdAt: emailTokens.createdAt })
      .from(emailTokens)
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, 'verify_email')))
      .orderBy(desc(emailTokens.createdAt))
      .limit(1);
    if (!last || ctx.now().getTime() - last.createdAt.getTime() > RESEND_VERIFY_AFTER) {
      await mailSafely(ctx, 'verification', () => sendVerification(ctx, user));
    }
    throw forbidden('Please verify your email address first. Check your inbox for the verification link.');
  }
}

export async function acceptInvite(ctx: AppContext, body: z.output<typeof acceptInviteBody>) {
  const now = ctx.now();
  const passwordHash = await hashPassword(body.password);
  return ctx.db.transaction(async (tx) => {
    const used = await consumeEmailToken(tx, body.token, ['invite'], now);
    if (!used) throw invalidField('token', 'This invitation is invalid, has expired or was already accepted.');
    const [u] = await tx
      .update(users)
      .set({
        passwordHash,
        firstName: body.first_name,
        lastName: body.last_name,
        phoneNumber: body.phone_number,
        emailVerifiedAt: now,
        passwordChangedAt: now,
        updatedAt: now,
      })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt), isNull(users.passwordHash)))
      .returning({ email: users.email });
    if (!u) throw invalidField('token', 'This invitation is invalid, has expired or was already accepted.');
    return { email: u.email, message: 'Invitation accepted. You can now log in.' };
  });
}
