import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  LoginChallenge,
  SessionPayload,
  acceptInviteBody,
  newPasswordBody,
  registerCompanyBody,
  registerIndividualBody,
} from '../../../shared/contract';
import type { AppContext } from '../../context';
import { companies, emailTokens, loginChallenges, users } from '../../db/schema';
import { hashToken, randomToken, seal, unseal } from '../../lib/crypto';
import { AppError, HTTP, forbidden, invalidField, unauthorized } from '../../lib/http';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { FailureLimiter } from '../../lib/rate-limit';
import { checkTotp, newTotpSecret, totpQrCode } from '../../lib/totp';
import { resetPasswordMail, verifyEmailMail } from '../../mail/templates';
import {
  type UserRow,
  consumeEmailToken,
  createEmailToken,
  findCompany,
  findLiveUser,
  findLiveUserByEmail,
  revokeUserSessions,
} from './queries';
import { createWallet } from '../ledger/accounts';
import { createSession, sessionPayload } from './sessions';

const HOUR = 3600_000;
const VERIFY_TTL = 48 * HOUR;
const RESET_TTL = HOUR;
const CHALLENGE_TTL = 10 * 60_000;
const CHALLENGE_MAX_ATTEMPTS = 5;
const RESEND_VERIFY_AFTER = 5 * 60_000;

export const EMAIL_TAKEN = 'The email has already been taken.';

export interface ClientMeta {
  ip: string;
  userAgent?: string;
}

const isUniqueViolation = (e: unknown) =>
  typeof e === 'object' && e !== null && ((e as { code?: string }).code === '23505' || (e as { cause?: { code?: string } }).cause?.code === '23505');

function limiter(ctx: AppContext) {
  return new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
}

const authKeys = (ctx: AppContext, account: string, ip: string) => [
  { key: `auth:acct:${account}`, max: ctx.config.rateLimit.perAccount },
  { key: `auth:ip:${ip}`, max: ctx.config.rateLimit.perAddress },
];

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
  await mailSafely(ctx, 'verification', () => sendVerification(ctx, { id, email: body.email, firstName: body.first_name }));
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
  return { id: userId, company_id: companyId, email: body.email, message: 'Verification mail sent to personal email address' };
}

/** The link in the verification mail. Returns the verified email, or null for a bad link. */
export async function verifyEmail(ctx: AppContext, token: string): Promise<string | null> {
  const now = ctx.now();
  const used = await consumeEmailToken(ctx.db, token, ['verify_email'], now);
  if (!used) return null;
  const [u] = await ctx.db
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
    .returning({ email: users.email });
  return u?.email ?? null;
}

async function assertMayLogIn(ctx: AppContext, user: UserRow) {
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

export async function login(ctx: AppContext, email: string, password: string, meta: ClientMeta): Promise<LoginChallenge> {
  const lim = limiter(ctx);
  const keys = authKeys(ctx, email, meta.ip);
  await lim.assertUnder(keys);
  const user = await findLiveUserByEmail(ctx.db, email);
  if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
    for (const k of keys) await lim.hit(k.key);
    throw unauthorized('Invalid email or password.');
  }
  await assertMayLogIn(ctx, user);
  // The account's failure count is cleared only when the whole login succeeds (confirmLogin):
  // clearing it here would let anyone holding the password guess TOTP codes without limit.

  const token = randomToken();
  const needsSetup = !user.totpSecret;
  const secret = needsSetup ? newTotpSecret() : null;
  await ctx.db.insert(loginChallenges).values({
    id: crypto.randomUUID(),
    userId: user.id,
    tokenHash: hashToken(token),
    kind: needsSetup ? 'setup' : 'verify',
    pendingTotpSecret: secret ? seal(secret, ctx.config.encryptionKey) : null,
    expiresAt: new Date(ctx.now().getTime() + CHALLENGE_TTL),
    createdAt: ctx.now(),
  });
  if (!secret) return { token };
  return { token, qrcode: await totpQrCode(secret, user.email), secret };
}

const EXPIRED_LOGIN = 'Your login attempt has expired. Please log in again.';

/** Second step of login: auth-confirm (first TOTP setup) or login-confirm. */
export async function confirmLogin(
  ctx: AppContext,
  kind: 'setup' | 'verify',
  token: string,
  code: string,
  meta: ClientMeta,
): Promise<SessionPayload> {
  const now = ctx.now();
  const [ch] = await ctx.db
    .select()
    .from(loginChallenges)
    .where(eq(loginChallenges.tokenHash, hashToken(token)));
  if (!ch || ch.usedAt || ch.expiresAt <= now || ch.attempts >= CHALLENGE_MAX_ATTEMPTS) throw unauthorized(EXPIRED_LOGIN);
  const ALREADY_SET_UP =
    'Two-factor authentication is already set up for this account. Enter the code from your authenticator app.';
  if (ch.kind !== kind) {
    throw new AppError(
      HTTP.CONFLICT,
      kind === 'setup' ? ALREADY_SET_UP : 'Two-factor authentication is not set up yet. Scan the QR code first.',
    );
  }
  const user = await findLiveUser(ctx.db, ch.userId);
  if (!user) throw unauthorized(EXPIRED_LOGIN);
  // Another setup challenge finished first: this one must not replace the key now in use.
  if (kind === 'setup' && user.totpSecret) throw new AppError(HTTP.CONFLICT, ALREADY_SET_UP);
  const lim = limiter(ctx);
  const keys = authKeys(ctx, user.email, meta.ip);
  await lim.assertUnder(keys);
  await assertMayLogIn(ctx, user);

  const secret = kind === 'setup' ? unseal(ch.pendingTotpSecret!, ctx.config.encryptionKey) : unseal(user.totpSecret!, ctx.config.encryptionKey);
  const step = await checkTotp(secret, code, kind === 'verify' ? user.totpLastStep : null, now);
  if (step === null) {
    await ctx.db.update(loginChallenges).set({ attempts: ch.attempts + 1 }).where(eq(loginChallenges.id, ch.id));
    for (const k of keys) await lim.hit(k.key);
    throw unauthorized('The authentication code is incorrect or has already been used.');
  }

  const session = await ctx.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(loginChallenges)
      .set({ usedAt: now })
      .where(and(eq(loginChallenges.id, ch.id), isNull(loginChallenges.usedAt)))
      .returning({ id: loginChallenges.id });
    if (!claimed) throw unauthorized(EXPIRED_LOGIN);
    // Record the step only if it is newer than the last accepted one, so a code works once
    // even when two requests race with it.
    const fresh = or(isNull(users.totpLastStep), lt(users.totpLastStep, step));
    const updated = await tx
      .update(users)
      .set({ totpLastStep: step, ...(kind === 'setup' ? { totpSecret: ch.pendingTotpSecret } : {}), updatedAt: now })
      .where(and(eq(users.id, user.id), isNull(users.deletedAt), fresh, kind === 'setup' ? isNull(users.totpSecret) : undefined))
      .returning({ id: users.id });
    if (!updated.length) throw unauthorized('The authentication code is incorrect or has already been used.');
    return createSession(ctx, tx, user.id, meta);
  });
  await lim.clear(keys[0]!.key);
  return sessionPayload(ctx, user.id, session);
}

/** Always the same answer, whether or not the email has an account. */
export async function requestPasswordReset(ctx: AppContext, email: string, meta: ClientMeta) {
  const lim = limiter(ctx);
  await lim.assertUnder([{ key: `reset:ip:${meta.ip}`, max: ctx.config.rateLimit.perAddress }]);
  await lim.hit(`reset:ip:${meta.ip}`);
  const perEmail = await lim.hit(`reset:acct:${email}`);
  const user = await findLiveUserByEmail(ctx.db, email);
  if (user && perEmail <= 3 && !user.deactivatedAt) {
    const token = await createEmailToken(ctx.db, user.id, 'reset_password', RESET_TTL, ctx.now());
    const url = `${ctx.config.appUrl}/onboarding/new-password?token=${token}`;
    await mailSafely(ctx, 'password reset', () => ctx.mailer.send(resetPasswordMail(user.email, user.firstName, url)));
  }
  return {
    code: HTTP.ACCEPTED,
    message: 'If an account exists for this email, we have sent it a link to reset the password.',
  };
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
      .set({ passwordHash, passwordChangedAt: now, emailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, used.userId), isNull(users.deletedAt)))
      .returning({ email: users.email });
    if (!u) throw invalidField('token', 'This link is invalid or has expired. Please request a new one.');
    await revokeUserSessions(tx, used.userId, now);
    return { email: u.email, message: 'Your password has been set. You can now log in.' };
  });
  // Failed attempts against the old password do not lock out the new one.
  await limiter(ctx).clear(`auth:acct:${result.email}`);
  return result;
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
