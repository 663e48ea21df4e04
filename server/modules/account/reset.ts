import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { newPasswordBody } from '@shared/contract';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { HTTP, invalidField } from '../../lib/http';
import { hashPassword } from '../../lib/passwords';
import { FailureLimiter, pairPrefix } from '../../lib/rate-limit';
import { resetPasswordMail } from '../../mail/templates';
import { consumeEmailToken, createEmailToken, findLiveUserByEmail, revokeUserSessions } from './queries';
import type { ClientMeta } from './service';

/** Password reset: the request for a link, and the new password from it. */

const RESET_TTL = 3600_000;
const RESET_MAILS_PER_WINDOW = 3;

/**
 * Always the same answer, in the same time, whether or not the email has an account: the request
 * does only the counting; finding the account and mailing it happen after the answer.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, meta: ClientMeta) {
  const lim = new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
  await lim.assertUnder([{ key: `reset:ip:${meta.ip}`, max: ctx.config.rateLimit.perAddress }]);
  await lim.hit(`reset:ip:${meta.ip}`);
  const perEmail = await lim.hit(`reset:acct:${email}`);
  if (perEmail <= RESET_MAILS_PER_WINDOW) ctx.background.run('password reset mail', () => mailResetLink(ctx, email));
  return {
    code: HTTP.ACCEPTED,
    message: 'If an account exists for this email, we have sent it a link to reset the password.',
  };
}

async function mailResetLink(ctx: AppContext, email: string) {
  const user = await findLiveUserByEmail(ctx.db, email);
  if (!user || user.deactivatedAt) return;
  const token = await createEmailToken(ctx.db, user.id, 'reset_password', RESET_TTL, ctx.now());
  const url = `${ctx.config.appUrl}/onboarding/new-password?token=${token}`;
  await ctx.mailer.send(resetPasswordMail(user.email, user.firstName, url));
}

/** Sets a password from a mailed link (reset, or a new staff account's first password). */
export async function setPasswordFromLink(ctx: AppContext, body: z.output<typeof newPasswordBody>) {
  const now = ctx.now();
  const passwordHash = await hashPassword(body.password);
  const result = await ctx.db.transaction(async (tx) => {
    const used = await consumeEmailToken(tx, body.token, ['reset_password', 'staff_invite'], now);
    if (!used) throw invalidField('token', 'This link is invalid or has expired. Please request a new one.');
    const [u] = await tx
      .update(users)
      // A 2FA key shown but never confirmed may have been seen by whoever had the old password.
      .set({
        passwordHash,
        passwordChangedAt: now,
        emailVerifiedAt: now,
        pendingTotpSecret: null,
        pendingTotpCreatedAt: null,
        updatedAt: now,
      })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning({ email: users.email });
    if (!u) throw invalidField('token', 'This link is invalid or has expired. Please request a new one.');
    await revokeUserSessions(tx, used.userId, now);
    return { email: u.email, message: 'Your password has been set. You can now log in.' };
  });
  // Failed attempts against the old password do not lock out the new one.
  const lim = new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
  await lim.clearPrefix(pairPrefix('auth', result.email));
  await lim.clear(`auth:acct:${result.email}`);
  await lim.clear(`auth:codes:${result.email}`);
  return result;
}
