import { and, eq, isNull, lt, ne, or } from 'drizzle-orm';
import { can, isStaff } from '@shared/contract';
import type { AppContext } from '../../context';
import { auditLog, sessions, users } from '../../db/schema';
import { seal, unseal } from '../../lib/crypto';
import { HTTP, conflict, forbidden, invalidField, notFound } from '../../lib/http';
import { verifyPassword } from '../../lib/passwords';
import { guessLimits } from '../../lib/rate-limit';
import { checkTotp, newTotpSecret, totpQrCode } from '../../lib/totp';
import type { AuthUser } from '../../context';
import { mailSoon, notify } from '../notifications/service';
import { codeLimit, limiter } from './login';
import { findLiveUser, revokeUserSessions } from './queries';
import {
  BAD_RECOVERY_CODE,
  dropRecoveryCodes,
  issueRecoveryCodes,
  unusedRecoveryCodes,
  spendRecoveryCode,
} from './recovery-codes';

/** Profile's 2FA actions (new recovery codes, a new authenticator) and the staff-assisted reset. */

const ENROL_TTL = 3600_000;
const BAD_CODE = 'This code is not valid. Enter the current code from your authenticator app.';

type FactorCheck = { password?: string; code?: string; recovery_code?: string };

/**
 * The password and a current code of the signed-in user (or, their phone lost, a recovery code,
 * used up here), all counted against the login limits. Errors are 422 on the field: a 401 here
 * would read as "signed out" to the apps.
 */
async function checkBothFactors(ctx: AppContext, userId: string, body: FactorCheck, ip: string) {
  const user = await findLiveUser(ctx.db, userId);
  if (!user) throw notFound('The user');
  if (!user.totpSecret) throw conflict('Two-factor authentication is not set up for this account.');
  const attempt = await limiter(ctx).attempt([
    ...guessLimits(ctx.config.rateLimit, 'auth', user.email, ip),
    codeLimit(ctx, user.email),
  ]);
  if (!(await verifyPassword(user.passwordHash, body.password ?? '')))
    throw invalidField('password', 'The password is incorrect.');
  if (body.code === undefined) {
    if (!(await spendRecoveryCode(ctx.db, ctx.config.encryptionKey, user.id, body.recovery_code!, ctx.now()))) {
      throw invalidField('recovery_code', BAD_RECOVERY_CODE);
    }
    await attempt.takeBack();
    return user;
  }
  const step = await checkTotp(
    unseal(user.totpSecret, ctx.config.encryptionKey),
    body.code,
    user.totpLastStep,
    ctx.now(),
  );
  if (step === null) throw invalidField('code', BAD_CODE);
  // The step is recorded so the same code cannot be replayed (here or at a login).
  const [taken] = await ctx.db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  if (!taken) throw invalidField('code', BAD_CODE);
  await attempt.takeBack();
  return user;
}

export async function twoFactorStatus(ctx: AppContext, me: AuthUser) {
  const user = await findLiveUser(ctx.db, me.id);
  if (!user) throw notFound('The user');
  return { enabled: !!user.totpSecret, recovery_codes_left: await unusedRecoveryCodes(ctx.db, me.id) };
}

export async function regenerateRecoveryCodes(ctx: AppContext, me: AuthUser, body: FactorCheck, ip: string) {
  await checkBothFactors(ctx, me.id, body, ip);
  const codes = await ctx.db.transaction((tx) => issueRecoveryCodes(tx, ctx.config.encryptionKey, me.id, ctx.now()));
  return { recovery_codes: codes, message: 'New recovery codes are ready. The old ones no longer work.' };
}

/** First step of moving to a new authenticator: a new key, kept aside until a code from it confirms it. */
export async function startEnrolment(ctx: AppContext, me: AuthUser, body: FactorCheck, ip: string) {
  const user = await checkBothFactors(ctx, me.id, body, ip);
  const secret = newTotpSecret();
  await ctx.db
    .update(users)
    .set({ pendingTotpSecret: seal(secret, ctx.config.encryptionKey), pendingTotpCreatedAt: ctx.now() })
    .where(eq(users.id, user.id));
  return { qrcode: await totpQrCode(secret, user.email), secret };
}

/** The new authenticator's code: it replaces the old one, and every other session of the user ends. */
export async function confirmEnrolment(ctx: AppContext, me: AuthUser, code: string) {
  const now = ctx.now();
  const user = await findLiveUser(ctx.db, me.id);
  if (!user) throw notFound('The user');
  const made = user.pendingTotpCreatedAt?.getTime();
  if (!user.totpSecret || !user.pendingTotpSecret || made === undefined || now.getTime() - made > ENROL_TTL) {
    throw conflict('Start again: set up the new authenticator from your profile.');
  }
  const step = await checkTotp(unseal(user.pendingTotpSecret, ctx.config.encryptionKey), code, null, now);
  if (step === null) throw invalidField('code', 'This code is not valid. Enter the code the new authenticator shows.');
  await ctx.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(users)
      .set({
        totpSecret: user.pendingTotpSecret,
        pendingTotpSecret: null,
        pendingTotpCreatedAt: null,
        totpLastStep: step,
        updatedAt: now,
      })
      .where(and(eq(users.id, user.id), eq(users.pendingTotpSecret, user.pendingTotpSecret!)))
      .returning({ id: users.id });
    if (!moved) throw conflict('Start again: set up the new authenticator from your profile.');
    if (me.sessionId) {
      await tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), ne(sessions.id, me.sessionId)));
    }
  });
  return { message: 'Your new authenticator app is set up. Codes from the old one no longer work.' };
}

/**
 * Staff reset a user's 2FA: key, pending key and recovery codes go, every session and open login
 * ends, and the user is told (a security notification, always mailed), all in one transaction.
 */
export async function resetTwoFactor(
  ctx: AppContext,
  me: AuthUser,
  userId: string,
  reason: string,
  req: { ip: string; requestId: string; approved?: boolean },
) {
  if (userId === me.id)
    throw forbidden('You cannot reset your own two-factor authentication. Ask another administrator.');
  const user = await findLiveUser(ctx.db, userId);
  if (!user) throw notFound('The user');
  if (isStaff(user.role) && !can(me.role, 'staff.manage')) {
    throw forbidden("Only a Super-Admin can reset a staff member's two-factor authentication.");
  }
  // A role that may only ask (Support) never resets alone: its request waits for a second person's approval.
  if (!can(me.role, 'two_factor.reset') && !req.approved)
    throw forbidden('Your role may only ask for a second-factor reset, which someone who may reset approves.');
  if (!user.totpSecret) throw conflict('This user has not set up two-factor authentication yet.');
  const now = ctx.now();
  const eventKey = `two-factor-reset:${crypto.randomUUID()}`;
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        totpSecret: null,
        pendingTotpSecret: null,
        pendingTotpCreatedAt: null,
        totpLastStep: null,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await dropRecoveryCodes(tx, user.id);
    await revokeUserSessions(tx, user.id, now);
    // In the reset's own transaction (the audit plugin's row comes after the answer and may fail).
    await tx.insert(auditLog).values({
      id: crypto.randomUUID(),
      actorId: me.id,
      actorEmail: me.email,
      actorRole: me.role,
      action: 'user.reset-2fa',
      objectType: 'user',
      objectId: user.id,
      details: { reason, email: user.email, route: 'POST /account/reset-2fa/:userId' },
      status: HTTP.OK,
      ip: req.ip,
      requestId: req.requestId,
      createdAt: now,
    });
    await notify(
      tx,
      [user.id],
      {
        type: 'two_factor_reset',
        title: 'Two-factor authentication reset',
        body: `Our support team reset the two-factor authentication of your account (reason: ${reason}). At your next login you will scan a new QR code with your authenticator app. If you did not ask for this, contact support at once.`,
        link: isStaff(user.role) ? '/admin' : '/portal',
        eventKey,
      },
      now,
    );
  });
  mailSoon(ctx, [eventKey]);
  // Locked out by wrong codes before asking for help: the reset lets them in again.
  const limits = limiter(ctx);
  await limits.clear(codeLimit(ctx, user.email).key);
  await limits.clear(`auth:acct:${user.email}`);
  return { message: 'Two-factor authentication has been reset. The user will set it up again at their next login.' };
}
