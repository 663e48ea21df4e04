import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, loginChallenges, sessions, users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  PASSWORD,
  logIn,
  mailsTo,
  newCompany,
  newCompanyMember,
  newIndividual,
  newStaff,
  randomIp,
  registerIndividual,
  totpCode,
  wrongCode,
} from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MINUTE = 60_000;
const BAD_CODE = 'The authentication code is incorrect or has already been used.';
const EXPIRED = 'Your login attempt has expired. Please log in again.';

const login = (email: string, password = PASSWORD, ip = randomIp()) =>
  t.api('POST', '/account/login', { body: { email, password }, ip });
const confirm = (kind: 'auth-confirm' | 'login-confirm', token: string, code: string, ip = randomIp()) =>
  t.api('POST', `/account/${kind}`, { body: { token, code }, ip });
const profile = (token: string) => t.api('GET', '/individuals/profile', { token });

/** A verified Individual who has completed a first login, so 2FA is set up. */
async function withTwoFactor() {
  const { email } = await registerIndividual(t);
  const { secret, token } = await logIn(t, email, PASSWORD);
  return { email, secret, token };
}

describe('two-step login', () => {
  it('first login answers a challenge, an SVG QR code and the base32 key; auth-confirm opens a session', async () => {
    const { email } = await registerIndividual(t);
    const res = await login(email);
    expect(res.status).toBe(200);
    const { token, qrcode, secret } = res.body.data;
    expect(token).toEqual(expect.any(String));
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    const svg = Buffer.from(qrcode, 'base64').toString('utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);

    // The challenge is not a session.
    expect((await profile(token)).status).toBe(401);

    const ok = await confirm('auth-confirm', token, await totpCode(t, secret));
    expect(ok.status).toBe(200);
    expect(ok.body.data.access_token).toEqual(expect.any(String));
    expect(ok.body.data.access_token).not.toBe(token);
    expect(ok.body.data.user).toMatchObject({ email, role: 'Individual', first_name: 'Abena' });
    expect(ok.body.data.company).toBeNull();
    const me = await profile(ok.body.data.access_token);
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(email);

    // The challenge was used up.
    t.clock.advance(30_000);
    const again = await confirm('auth-confirm', token, await totpCode(t, secret));
    expect(again.status).toBe(401);
    expect(again.body.message).toBe(EXPIRED);
  });

  it('a later login shows no QR code, needs login-confirm, and accepts a code once only', async () => {
    const { email } = await registerIndividual(t);
    const first = await login(email);
    const secret = first.body.data.secret;
    const code = await totpCode(t, secret);
    expect((await confirm('auth-confirm', first.body.data.token, code)).status).toBe(200);

    const second = await login(email);
    expect(second.status).toBe(200);
    expect(second.body.data.token).toEqual(expect.any(String));
    expect(second.body.data).not.toHaveProperty('qrcode');
    expect(second.body.data).not.toHaveProperty('secret');

    // Same time step, same code: refused.
    const replay = await confirm('login-confirm', second.body.data.token, code);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe(BAD_CODE);

    t.clock.advance(30_000);
    const fresh = await confirm('login-confirm', second.body.data.token, await totpCode(t, secret));
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.user.email).toBe(email);
  });

  it('a wrong code is 401 and the challenge dies after five wrong codes', async () => {
    const { email } = await registerIndividual(t);
    const res = await login(email);
    const { token, secret } = res.body.data;
    for (let i = 0; i < 5; i++) {
      const bad = await confirm('auth-confirm', token, await wrongCode(t, secret));
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ message: BAD_CODE, error: BAD_CODE });
    }
    const right = await confirm('auth-confirm', token, await totpCode(t, secret));
    expect(right.status).toBe(401);
    expect(right.body).toEqual({ message: EXPIRED, error: 'login_expired' });
  });

  it('a mistyped setup code keeps the key: the next login shows the same QR and key, and the key scanned first works', async () => {
    const { email } = await registerIndividual(t);
    const first = await login(email);
    const { token, secret, qrcode } = first.body.data;
    const pendingKey = async () =>
      (await t.ctx.db.select({ key: users.pendingTotpSecret }).from(users).where(eq(users.email, email)))[0]!.key;
    expect(await pendingKey()).toEqual(expect.any(String));
    expect(await pendingKey()).not.toContain(secret);
    for (let i = 0; i < 2; i++)
      expect((await confirm('auth-confirm', token, await wrongCode(t, secret))).status).toBe(401);
    // The person gives up on this attempt; it expires.
    t.clock.advance(11 * MINUTE);
    expect((await confirm('auth-confirm', token, await totpCode(t, secret))).status).toBe(401);

    const again = await login(email);
    expect(again.status).toBe(200);
    expect(again.body.data.secret).toBe(secret);
    expect(again.body.data.qrcode).toBe(qrcode);
    expect(again.body.data.token).not.toBe(token);
    const ok = await confirm('auth-confirm', again.body.data.token, await totpCode(t, secret));
    expect(ok.status).toBe(200);
    expect(await pendingKey()).toBeNull();

    // Set up: later logins ask for a code from that same key and show no key.
    t.clock.advance(30_000);
    const later = await login(email);
    expect(later.body.data).not.toHaveProperty('secret');
    expect((await confirm('login-confirm', later.body.data.token, await totpCode(t, secret))).status).toBe(200);
  });

  it('auth-confirm with a login-confirm challenge is 409, and the other way round', async () => {
    const { email, secret } = await withTwoFactor();
    const verify = await login(email);
    t.clock.advance(30_000);
    const wrongKind = await confirm('auth-confirm', verify.body.data.token, await totpCode(t, secret));
    expect(wrongKind.status).toBe(409);
    // The challenge is still good for the right endpoint.
    expect((await confirm('login-confirm', verify.body.data.token, await totpCode(t, secret))).status).toBe(200);

    const { email: newcomer } = await registerIndividual(t);
    const setup = await login(newcomer);
    const early = await confirm('login-confirm', setup.body.data.token, await totpCode(t, setup.body.data.secret));
    expect(early.status).toBe(409);
  });

  it('a challenge expires after 10 minutes', async () => {
    const { email } = await registerIndividual(t);
    const res = await login(email);
    t.clock.advance(11 * MINUTE);
    const late = await confirm('auth-confirm', res.body.data.token, await totpCode(t, res.body.data.secret));
    expect(late.status).toBe(401);
    // A code the login screen can tell apart from a wrong code without reading the English text.
    expect(late.body).toEqual({ message: EXPIRED, error: 'login_expired' });
  });

  it('a second setup challenge cannot replace a two-factor key that is already set up', async () => {
    const { email } = await registerIndividual(t);
    const a = await login(email);
    const b = await login(email);
    // Until one is confirmed, every first login shows the same key.
    expect(b.body.data.secret).toBe(a.body.data.secret);
    expect((await confirm('auth-confirm', a.body.data.token, await totpCode(t, a.body.data.secret))).status).toBe(200);
    t.clock.advance(30_000);
    const hijack = await confirm('auth-confirm', b.body.data.token, await totpCode(t, b.body.data.secret));
    expect(hijack.status).toBe(409);
    // The key scanned first still works.
    const { session } = await logIn(t, email, PASSWORD, a.body.data.secret);
    expect(session.user.email).toBe(email);
  });
});

describe('who may log in', () => {
  it('an unverified account is 403 and the verification mail is resent at most every 5 minutes', async () => {
    const { email } = await registerIndividual(t, { verify: false });
    expect(mailsTo(t, email)).toHaveLength(1);
    expect((await login(email, 'Wr0ng!Password')).status).toBe(401);
    const denied = await login(email);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/verify your email/i);
    expect(mailsTo(t, email)).toHaveLength(1);

    t.clock.advance(6 * MINUTE);
    expect((await login(email)).status).toBe(403);
    expect(mailsTo(t, email)).toHaveLength(2);
    expect((await login(email)).status).toBe(403);
    expect(mailsTo(t, email)).toHaveLength(2);
  });

  it('a deactivated user cannot log in and their open session ends at once', async () => {
    const a = await newIndividual(t);
    expect((await profile(a.token)).status).toBe(200);
    await t.ctx.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, a.id));
    expect((await profile(a.token)).status).toBe(401);
    const res = await login(a.email);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/deactivated/i);
  });

  it('a deactivated company blocks every one of its users', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    await t.ctx.db.update(companies).set({ deactivatedAt: t.clock.now() }).where(eq(companies.id, admin.companyId!));
    expect((await profile(admin.token)).status).toBe(401);
    expect((await profile(member.token)).status).toBe(401);
    expect((await login(admin.email)).status).toBe(403);
    expect((await login(member.email)).status).toBe(403);
  });

  it.each(['Admin', 'Super-Admin'] as const)('staff (%s) log in with their role and no wallet', async (role) => {
    const staff = await newStaff(t, role);
    expect(staff.session.user).toMatchObject({ role, email: staff.email, wallet_id: null, company_id: null });
    expect(staff.session.company).toBeNull();
    expect((await profile(staff.token)).body.data.user.role).toBe(role);
  });
});

describe('sessions', () => {
  it('logout ends this session only', async () => {
    const a = await newIndividual(t);
    const other = await logIn(t, a.email, PASSWORD, a.secret);
    const out = await t.api('DELETE', '/account/logout', { token: a.token });
    expect(out.status).toBe(200);
    expect(out.body.data.message).toEqual(expect.any(String));
    expect((await profile(a.token)).status).toBe(401);
    expect((await t.api('DELETE', '/account/logout', { token: a.token })).status).toBe(401);
    expect((await profile(other.token)).status).toBe(200);
  });

  it('a session idle for more than 30 minutes ends; using it keeps it alive', async () => {
    const a = await newIndividual(t);
    t.clock.advance(29 * MINUTE);
    expect((await profile(a.token)).status).toBe(200);
    t.clock.advance(29 * MINUTE);
    expect((await profile(a.token)).status).toBe(200);
    t.clock.advance(31 * MINUTE);
    const gone = await profile(a.token);
    expect(gone.status).toBe(401);
    expect(gone.body.message).toMatch(/session has ended/i);
  });

  it('a session ends 12 hours after login however busy it is', async () => {
    const a = await newIndividual(t);
    for (let elapsed = 20; elapsed < 12 * 60; elapsed += 20) {
      t.clock.advance(20 * MINUTE);
      expect((await profile(a.token)).status, `after ${elapsed} minutes`).toBe(200);
    }
    t.clock.advance(20 * MINUTE);
    expect((await profile(a.token)).status).toBe(401);
  });

  it('refuses a missing, malformed or unknown bearer token', async () => {
    expect((await t.api('GET', '/individuals/profile')).status).toBe(401);
    expect((await t.api('GET', '/individuals/profile', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await profile('not-a-real-token')).status).toBe(401);
  });

  it('stores session and challenge tokens only as hashes', async () => {
    const { email } = await registerIndividual(t);
    const challenge = await login(email);
    const ok = await confirm('auth-confirm', challenge.body.data.token, await totpCode(t, challenge.body.data.secret));
    const userId = ok.body.data.user.id;
    const rows = await t.ctx.db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.tokenHash).not.toContain(ok.body.data.access_token);
    const ch = await t.ctx.db
      .select({ tokenHash: loginChallenges.tokenHash, secret: loginChallenges.pendingTotpSecret })
      .from(loginChallenges)
      .where(eq(loginChallenges.userId, userId));
    expect(ch).toHaveLength(1);
    expect(ch[0]!.tokenHash).not.toContain(challenge.body.data.token);
    expect(ch[0]!.secret).not.toContain(challenge.body.data.secret);
    const [u] = await t.ctx.db.select({ totp: users.totpSecret }).from(users).where(eq(users.id, userId));
    expect(u!.totp).not.toContain(challenge.body.data.secret);
  });
});
