import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { changePasswordBody, updateCompanyBody, updateIndividualBody } from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import { companies, users } from '../../db/schema';
import { forbidden, invalidField, notFound } from '../../lib/http';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { FailureLimiter, guessLimits } from '../../lib/rate-limit';
import { passwordChangedMail } from '../../mail/templates';
import { findLiveUser, revokeUserSessions } from '../account/queries';
import { profileOf } from '../account/sessions';

export async function updateOwnDetails(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  body: z.output<typeof updateIndividualBody>,
) {
  if (id !== me.id) throw notFound('The user');
  await ctx.db
    .update(users)
    .set({ firstName: body.first_name, lastName: body.last_name, phoneNumber: body.phone_number, updatedAt: ctx.now() })
    .where(and(eq(users.id, me.id), isNull(users.deletedAt)));
  return profileOf(ctx, me.id);
}

export async function updateOwnCompany(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  body: z.output<typeof updateCompanyBody>,
) {
  if (me.companyId !== id) throw notFound('The company');
  if (me.role !== 'Company-Admin') throw forbidden('Only a company admin can change the company details.');
  await ctx.db
    .update(companies)
    .set({
      companyName: body.company_name,
      companyWebsite: body.company_website,
      companyPhone: body.company_phone,
      updatedAt: ctx.now(),
    })
    .where(eq(companies.id, id));
  return profileOf(ctx, me.id);
}

/** A password change ends every session of the user, this one included. */
export async function changePassword(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  body: z.output<typeof changePasswordBody>,
  ip: string,
) {
  if (id !== me.id) throw notFound('The user');
  const user = await findLiveUser(ctx.db, me.id);
  if (!user) throw notFound('The user');
  const limiter = new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
  const limits = guessLimits(ctx.config.rateLimit, 'auth', user.email, ip);
  // Counted before the check, so parallel guesses cannot all pass a check made before any was counted.
  const attempt = await limiter.attempt(limits);
  if (!(await verifyPassword(user.passwordHash, body.old_password))) {
    throw invalidField('old_password', 'The current password is incorrect.');
  }
  await attempt.takeBack();
  if (body.new_password === body.old_password) {
    throw invalidField('new_password', 'The new password must be different from the current one.');
  }
  const now = ctx.now();
  const passwordHash = await hashPassword(body.new_password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(users.id, me.id));
    await revokeUserSessions(tx, me.id, now);
  });
  try {
    await ctx.mailer.send(passwordChangedMail(user.email, user.firstName));
  } catch (err) {
    ctx.log.error({ err }, 'could not send password-changed mail');
  }
  return { message: 'Your password has been changed. Please log in again.' };
}
