import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { LOGIN_EXPIRED, LOGIN_MESSAGES, type LoginChallenge, type SessionPayload } from '@shared/contract';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { loginChallenges, users } from '../../db/schema';
import { hashToken, randomToken, seal, unseal } from '../../lib/crypto';
import { AppError, HTTP, unauthorized } from '../../lib/http';
import { verifyPassword } from '../../lib/passwords';
import { FailureLimiter, type Limit, guessLimits } from '../../lib/rate-limit';
import { checkTotp, newTotpSecret, totpQrCode } from '../../lib/totp';
import { type UserRow, findLiveUser, findLiveUserByEmail } from './queries';
import { type ClientMeta, assertMayLogIn } from './service';
import { BAD_RECOVERY_CODE, issueRecoveryCodes, spendRecoveryCode, unusedRecoveryCodes } from './recovery-codes';
import { createSession, sessionPayload } from './sessions';

/**
 * The two-step login: the password opens a challenge; a TOTP code (setting 2FA up at first) or a
 * recovery code ends it in a session.
 */

const CHALLENGE_TTL = 10 * 60_000;
const CHALLENGE_MAX_ATTEMPTS = 5;
const PENDING_TOTP_TTL = 24 * 3600_000;

export function limiter(ctx: AppContext) {
  return new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
}

/** Wrong passwords and codes count alike; wrong codes also count on their own, tightly (see codesPerAccount). */
export const codeLimit = (ctx: AppContext, account: string): Limit => ({
  key: `auth:codes:${account}`,
  max: ctx.config.rateLimit.codesPerAccount,
});
const authLimits = (ctx: AppContext, account: string, ip: string): Limit[] => [
  ...guessLimits(ctx.config.rateLimit, 'auth', account, ip),
  codeLimit(ctx, account),
];
const passwordLimits = (ctx: AppContext, account: string, ip: string) =>
  guessLimits(ctx.config.rateLimit, 'auth', account, ip);

export async function login(
  ctx: AppContext,
  email: string,
  password: string,
  meta: ClientMeta,
): Promise<LoginChallenge> {
  // Counted before the password is checked (so parallel guesses cannot pass one check together);
  // too many wrong codes also stop new challenges, though a password attempt is no code.
  const attempt = await limiter(ctx).attempt(passwordLimits(ctx, email, meta.ip), [codeLimit(ctx, email)]);
  const user = await findLiveUserByEmail(ctx.db, email);
  if (!(await verifyPassword(user?.passwordHash, password)) || !user) throw unauthorized('Invalid email or password.');
  await attempt.takeBack();
  await assertMayLogIn(ctx, user);
  // The account's failure count is cleared only when the whole login succeeds (confirmLogin):
  // clearing it here would let anyone holding the password guess TOTP codes without limit.

  const token = randomToken();
  const sealed = user.totpSecret ? null : await pendingTotpKey(ctx, user);
  await ctx.db.insert(loginChallenges).values({
    id: crypto.randomUUID(),
    userId: user.id,
    tokenHash: hashToken(token),
    kind: sealed ? 'setup' : 'verify',
    pendingTotpSecret: sealed,
    expiresAt: new Date(ctx.now().getTime() + CHALLENGE_TTL),
    createdAt: ctx.now(),
  });
  if (!sealed) return { token };
  const secret = unseal(sealed, ctx.config.encryptionKey);
  return { token, qrcode: await totpQrCode(secret, user.email), secret };
}

/**
 * The (sealed) key a first login shows: the one shown before until a code confirms it, so the entry
 * already scanned into the authenticator keeps working after a mistyped code or an expired challenge.
 * A key older than a day is replaced: whoever saw it at some earlier login must not know the key the
 * owner scans later.
 */
async function pendingTotpKey(ctx: AppContext, user: UserRow): Promise<string> {
  const now = ctx.now();
  const made = user.pendingTotpCreatedAt?.getTime();
  if (user.pendingTotpSecret && made !== undefined && now.getTime() - made < PENDING_TOTP_TTL)
    return user.pendingTotpSecret;
  const fresh = seal(newTotpSecret(), ctx.config.encryptionKey);
  const seen = user.pendingTotpSecret
    ? eq(users.pendingTotpSecret, user.pendingTotpSecret)
    : isNull(users.pendingTotpSecret);
  const [stored] = await ctx.db
    .update(users)
    .set({ pendingTotpSecret: fresh, pendingTotpCreatedAt: now })
    .where(and(eq(users.id, user.id), seen))
    .returning({ key: users.pendingTotpSecret });
  if (stored) return fresh;
  // Two first logins at once: both show the key stored first.
  const [row] = await ctx.db.select({ key: users.pendingTotpSecret }).from(users).where(eq(users.id, user.id));
  return row?.key ?? fresh;
}

/** The attempt is over (expired, used, replaced): the login screen goes back to the password, told by `error`. */
const loginExpired = () =>
  new AppError(HTTP.UNAUTHORIZED, LOGIN_MESSAGES.expired, LOGIN_EXPIRED, { 'www-authenticate': 'Bearer' });

/**
 * The challenge a second step names, and its user, if it may still end in a session: not expired,
 * used or tried too often, of the expected kind, its user live and allowed in.
 */
async function openChallenge(ctx: AppContext, kind: 'setup' | 'verify', token: string) {
  const now = ctx.now();
  const [ch] = await ctx.db
    .select()
    .from(loginChallenges)
    .where(eq(loginChallenges.tokenHash, hashToken(token)));
  if (!ch || ch.usedAt || ch.expiresAt <= now || ch.attempts >= CHALLENGE_MAX_ATTEMPTS) {
    // A login ended by a deactivation says so, not merely that it expired.
    const owner = ch?.usedAt ? await findLiveUser(ctx.db, ch.userId) : undefined;
    if (owner) await assertMayLogIn(ctx, owner);
    throw loginExpired();
  }
  const ALREADY_SET_UP =
    'Two-factor authentication is already set up for this account. Enter the code from your authenticator app.';
  if (ch.kind !== kind) {
    throw new AppError(
      HTTP.CONFLICT,
      kind === 'setup' ? ALREADY_SET_UP : 'Two-factor authentication is not set up yet. Scan the QR code first.',
    );
  }
  const user = await findLiveUser(ctx.db, ch.userId);
  if (!user) throw loginExpired();
  // Another setup challenge finished first: this one must not replace the key now in use.
  if (kind === 'setup' && user.totpSecret) throw new AppError(HTTP.CONFLICT, ALREADY_SET_UP);
  // A new password ends the logins opened with the old one by marking them used (revokeUserSessions, in
  // the password's transaction: no comparison of clocks), and a setup challenge shows a key only while
  // it is still the one waiting for confirmation.
  if (kind === 'setup' && ch.pendingTotpSecret !== user.pendingTotpSecret) throw loginExpired();
  await assertMayLogIn(ctx, user);
  return { ch, user };
}

/** A wrong second factor: counted on the challenge, which ends after a few. */
async function countWrongCode(ctx: AppContext, challengeId: string) {
  await ctx.db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(eq(loginChallenges.id, challengeId));
}

/** Marks the challenge used inside the session's transaction; false if another request used it first. */
async function claimChallenge(tx: Tx, challengeId: string, now: Date): Promise<void> {
  const [claimed] = await tx
    .update(loginChallenges)
    .set({ usedAt: now })
    .where(and(eq(loginChallenges.id, challengeId), isNull(loginChallenges.usedAt)))
    .returning({ id: loginChallenges.id });
  if (!claimed) throw loginExpired();
}

/** The limits a second step counts against, and forgiving them once the owner got in. */
async function secondStepLimits(ctx: AppContext, email: string, ip: string) {
  const lim = limiter(ctx);
  const limits = authLimits(ctx, email, ip);
  const attempt = await lim.attempt(limits);
  return {
    async succeeded() {
      // The account-wide count stays, or an attacker's budget would refill at each of the owner's logins.
      await attempt.takeBack();
      await lim.clear(limits[0]!.key);
      await lim.clear(`auth:codes:${email}`);
    },
  };
}

/** Second step of login: auth-confirm (first TOTP setup) or login-confirm. */
export async function confirmLogin(
  ctx: AppContext,
  kind: 'setup' | 'verify',
  token: string,
  code: string,
  meta: ClientMeta,
): Promise<SessionPayload> {
  const now = ctx.now();
  const { ch, user } = await openChallenge(ctx, kind, token);
  const limits = await secondStepLimits(ctx, user.email, meta.ip);

  const secret =
    kind === 'setup'
      ? unseal(ch.pendingTotpSecret!, ctx.config.encryptionKey)
      : unseal(user.totpSecret!, ctx.config.encryptionKey);
  const step = await checkTotp(secret, code, kind === 'verify' ? user.totpLastStep : null, now);
  if (step === null) {
    await countWrongCode(ctx, ch.id);
    throw unauthorized(LOGIN_MESSAGES.badCode);
  }

  const session = await ctx.db.transaction(async (tx) => {
    await claimChallenge(tx, ch.id, now);
    // Record the step only if it is newer than the last accepted one, so a code works once
    // even when two requests race with it.
    const fresh = or(isNull(users.totpLastStep), lt(users.totpLastStep, step));
    const updated = await tx
      .update(users)
      .set({
        totpLastStep: step,
        ...(kind === 'setup'
          ? { totpSecret: ch.pendingTotpSecret, pendingTotpSecret: null, pendingTotpCreatedAt: null }
          : {}),
        updatedAt: now,
      })
      .where(
        and(
          eq(users.id, user.id),
          isNull(users.deletedAt),
          fresh,
          kind === 'setup'
            ? and(isNull(users.totpSecret), eq(users.pendingTotpSecret, ch.pendingTotpSecret!))
            : undefined,
        ),
      )
      .returning({ id: users.id });
    if (!updated.length) throw unauthorized(LOGIN_MESSAGES.badCode);
    // 2FA just set up: the way back if the phone is lost, shown this once.
    const codes = kind === 'setup' ? await issueRecoveryCodes(tx, ctx.config.encryptionKey, user.id, now) : undefined;
    return { session: await createSession(ctx, tx, user.id, meta), codes };
  });
  // The owner got in from here: forgive this address's failures and the wrong codes.
  await limits.succeeded();
  const payload = await sessionPayload(ctx, user.id, session.session);
  return session.codes ? { ...payload, recovery_codes: session.codes } : payload;
}

/**
 * login-recover: the second step with a recovery code in place of the authenticator. The code is
 * used up in the session's transaction, so two requests with it never both get in.
 */
export async function loginWithRecoveryCode(
  ctx: AppContext,
  token: string,
  code: string,
  meta: ClientMeta,
): Promise<SessionPayload> {
  const now = ctx.now();
  const { ch, user } = await openChallenge(ctx, 'verify', token);
  const limits = await secondStepLimits(ctx, user.email, meta.ip);
  const wrong = unauthorized(BAD_RECOVERY_CODE);
  let session: { session: { token: string; expiresAt: Date }; left: number };
  try {
    session = await ctx.db.transaction(async (tx) => {
      await claimChallenge(tx, ch.id, now);
      const used = await spendRecoveryCode(tx, ctx.config.encryptionKey, user.id, code, now);
      // Thrown, not returned: the challenge's claim rolls back with it.
      if (!used) throw wrong;
      return { session: await createSession(ctx, tx, user.id, meta), left: await unusedRecoveryCodes(tx, user.id) };
    });
  } catch (e) {
    if (e === wrong) await countWrongCode(ctx, ch.id);
    throw e;
  }
  await limits.succeeded();
  return { ...(await sessionPayload(ctx, user.id, session.session)), recovery_codes_left: session.left };
}
