import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, notifications, recoveryCodes } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  PASSWORD,
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

const CODE_SHAPE = /^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/;
const BAD_RECOVERY = 'This recovery code is not valid or has already been used.';

async function challenge(email: string, ip = randomIp()) {
  const res = await t.api('POST', '/account/login', { body: { email, password: PASSWORD }, ip });
  expect(res.status).toBe(200);
  return res.body.data as { token: string; qrcode?: string; secret?: string };
}
const recover = (token: string, recovery_code: unknown, ip = randomIp()) =>
  t.api('POST', '/account/login-recover', { body: { token, recovery_code }, ip });
const profile = (token: string) => t.api('GET', '/individuals/profile', { token });

describe('recovery codes', () => {
  it('auth-confirm answers ten codes once, stored only as hashes; later logins do not answer them', async () => {
    const a = await newIndividual(t);
    const codes = a.session.recovery_codes!;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(CODE_SHAPE);
    expect(new Set(codes).size).toBe(10);
    const rows = await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, a.id));
    expect(rows).toHaveLength(10);
    for (const r of rows) for (const c of codes) expect(r.codeHash).not.toContain(c.replace('-', ''));

    t.clock.advance(30_000);
    const ch = await challenge(a.email);
    const again = await t.api('POST', '/account/login-confirm', {
      body: { token: ch.token, code: await totpCode(t, a.secret) },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).not.toHaveProperty('recovery_codes');
  });

  it('a recovery code completes a login once, in any case and with spaces, and says how many are left', async () => {
    const a = await newIndividual(t);
    const [first, second] = a.session.recovery_codes!;
    const ch = await challenge(a.email);
    const res = await recover(ch.token, ` ${first!.toLowerCase().replace('-', ' ')} `);
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe(a.email);
    expect(res.body.data.recovery_codes_left).toBe(9);
    expect((await profile(res.body.data.access_token)).status).toBe(200);

    // Used: refused at the next login, whose challenge stays usable for another code.
    const ch2 = await challenge(a.email);
    const reuse = await recover(ch2.token, first);
    expect(reuse.status).toBe(401);
    expect(reuse.body.message).toBe(BAD_RECOVERY);
    const next = await recover(ch2.token, second);
    expect(next.status).toBe(200);
    expect(next.body.data.recovery_codes_left).toBe(8);
  });

  it('two requests with one code at once: exactly one gets in', async () => {
    const a = await newIndividual(t);
    const code = a.session.recovery_codes![0]!;
    const [c1, c2] = [await challenge(a.email), await challenge(a.email)];
    const results = await Promise.all([recover(c1.token, code), recover(c2.token, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("another user's code is refused, and five wrong codes end the login", async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const ch = await challenge(a.email);
    for (let i = 0; i < 5; i++) {
      const bad = await recover(ch.token, b.session.recovery_codes![i]);
      expect(bad.status).toBe(401);
      expect(bad.body.message).toBe(BAD_RECOVERY);
    }
    const right = await recover(ch.token, a.session.recovery_codes![0]);
    expect(right.status).toBe(401);
    expect(right.body.error).toBe('login_expired');
  });

  it('login-recover refuses bad input per field, and a first login (no 2FA yet) is 409', async () => {
    const a = await newIndividual(t);
    const ch = await challenge(a.email);
    const missing = await t.api('POST', '/account/login-recover', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.token).toEqual(['Login token is required']);
    expect(missing.body.error.recovery_code).toEqual(['Recovery code is required']);
    for (const bad of ['12345', 'ABCDE-2345!', 'x'.repeat(41), 12345]) {
      const res = await recover(ch.token, bad);
      expect(res.status).toBe(422);
      expect(res.body.error.recovery_code).toHaveLength(1);
    }
    const fresh = await registerIndividual(t);
    const setup = await challenge(fresh.email);
    expect(setup.qrcode).toEqual(expect.any(String));
    const early = await recover(setup.token, a.session.recovery_codes![0]);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Two-factor authentication is not set up yet. Scan the QR code first.');
  });

  it('regenerating needs the password and a current code; the old codes stop working, the new ones work', async () => {
    const a = await newIndividual(t);
    t.clock.advance(30_000);
    const wrongPw = await t.api('POST', '/account/recovery-codes', {
      token: a.token,
      body: { password: 'nope', code: await totpCode(t, a.secret) },
    });
    expect(wrongPw.status).toBe(422);
    expect(wrongPw.body.error.password).toEqual(['The password is incorrect.']);
    const wrongCd = await t.api('POST', '/account/recovery-codes', {
      token: a.token,
      body: { password: PASSWORD, code: await wrongCode(t, a.secret) },
    });
    expect(wrongCd.status).toBe(422);
    expect(wrongCd.body.error.code).toHaveLength(1);
    const empty = await t.api('POST', '/account/recovery-codes', { token: a.token, body: {} });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error).sort()).toEqual(['code', 'password']);
    expect(
      (await t.api('POST', '/account/recovery-codes', { body: { password: PASSWORD, code: '123456' } })).status,
    ).toBe(401);

    const res = await t.api('POST', '/account/recovery-codes', {
      token: a.token,
      body: { password: PASSWORD, code: await totpCode(t, a.secret) },
    });
    expect(res.status).toBe(200);
    const fresh: string[] = res.body.data.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => a.session.recovery_codes!.includes(c))).toBe(false);
    // The same TOTP code cannot be used twice.
    const replay = await t.api('POST', '/account/recovery-codes', {
      token: a.token,
      body: { password: PASSWORD, code: await totpCode(t, a.secret) },
    });
    expect(replay.status).toBe(422);

    const ch = await challenge(a.email);
    expect((await recover(ch.token, a.session.recovery_codes![0])).status).toBe(401);
    expect((await recover(ch.token, fresh[0])).status).toBe(200);
  });

  it('with the phone lost, a recovery code stands in for the authenticator code in Profile, once; answers are never stored for replay', async () => {
    const a = await newIndividual(t);
    const status = async () => (await t.api('GET', '/account/two-factor', { token: a.token })).body.data;
    expect(await status()).toEqual({ enabled: true, recovery_codes_left: 10 });
    const [one, two] = a.session.recovery_codes!;
    const headers = { 'idempotency-key': 'same-key-twice' };
    const start = await t.api('POST', '/account/two-factor/enrol', {
      token: a.token,
      headers,
      body: { password: PASSWORD, recovery_code: one },
    });
    expect(start.status).toBe(200);
    expect(await status()).toEqual({ enabled: true, recovery_codes_left: 9 });
    // The same request again is not a replay of the stored answer: the code is used up.
    const again = await t.api('POST', '/account/two-factor/enrol', {
      token: a.token,
      headers,
      body: { password: PASSWORD, recovery_code: one },
    });
    expect(again.status).toBe(422);
    expect(again.body.error.recovery_code).toEqual([BAD_RECOVERY]);
    const done = await t.api('POST', '/account/two-factor/enrol-confirm', {
      token: a.token,
      body: { code: await totpCode(t, start.body.data.secret) },
    });
    expect(done.status).toBe(200);

    const fresh = await t.api('POST', '/account/recovery-codes', {
      token: a.token,
      headers,
      body: { password: PASSWORD, recovery_code: two },
    });
    expect(fresh.status).toBe(200);
    expect(await status()).toEqual({ enabled: true, recovery_codes_left: 10 });
    const missing = await t.api('POST', '/account/recovery-codes', { token: a.token, body: { password: PASSWORD } });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toEqual(['Authentication code is required']);
    expect((await t.api('GET', '/account/two-factor')).status).toBe(401);
  });

  it('a new authenticator replaces the old after a code from it; other sessions end, this one stays', async () => {
    const a = await newIndividual(t);
    t.clock.advance(30_000);
    const other = (
      await t.api('POST', '/account/login-confirm', {
        body: { token: (await challenge(a.email)).token, code: await totpCode(t, a.secret) },
      })
    ).body.data.access_token;
    t.clock.advance(30_000);
    const start = await t.api('POST', '/account/two-factor/enrol', {
      token: a.token,
      body: { password: PASSWORD, code: await totpCode(t, a.secret) },
    });
    expect(start.status).toBe(200);
    const newSecret: string = start.body.data.secret;
    expect(newSecret).not.toBe(a.secret);
    expect(Buffer.from(start.body.data.qrcode, 'base64').toString()).toMatch(/^<svg/);

    const bad = await t.api('POST', '/account/two-factor/enrol-confirm', {
      token: a.token,
      body: { code: await wrongCode(t, newSecret) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toHaveLength(1);
    const done = await t.api('POST', '/account/two-factor/enrol-confirm', {
      token: a.token,
      body: { code: await totpCode(t, newSecret) },
    });
    expect(done.status).toBe(200);
    expect((await profile(a.token)).status).toBe(200);
    expect((await profile(other)).status).toBe(401);
    // Nothing is waiting any more.
    expect(
      (
        await t.api('POST', '/account/two-factor/enrol-confirm', {
          token: a.token,
          body: { code: await totpCode(t, newSecret) },
        })
      ).status,
    ).toBe(409);

    t.clock.advance(30_000);
    const oldKey = await t.api('POST', '/account/login-confirm', {
      body: { token: (await challenge(a.email)).token, code: await totpCode(t, a.secret) },
    });
    expect(oldKey.status).toBe(401);
    const newKey = await t.api('POST', '/account/login-confirm', {
      body: { token: (await challenge(a.email)).token, code: await totpCode(t, newSecret) },
    });
    expect(newKey.status).toBe(200);
  });
});

describe('staff-assisted 2FA reset', () => {
  const reset = (
    token: string,
    userId: string,
    body: unknown = { reason: 'Lost phone; identity checked by video call' },
  ) => t.api('POST', `/account/reset-2fa/${userId}`, { token, body });

  it('ends every session (two here), drops the codes, tells the user once, is audited, and the next login sets 2FA up again', async () => {
    const staff = await newStaff(t, 'Admin');
    const a = await newIndividual(t);
    // A second session of the user (another device), both in use before the reset.
    t.clock.advance(30_000);
    const second = await t.api('POST', '/account/login-confirm', {
      body: { token: (await challenge(a.email)).token, code: await totpCode(t, a.secret) },
    });
    expect(second.status).toBe(200);
    const other: string = second.body.data.access_token;
    expect(other).not.toBe(a.token);
    for (const token of [a.token, other]) expect((await profile(token)).status).toBe(200);
    const res = await reset(staff.token, a.id);
    expect(res.status).toBe(200);
    expect(res.body.data.message).toMatch(/reset/);
    for (const token of [a.token, other]) expect((await profile(token)).status).toBe(401);
    expect(await t.ctx.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, a.id))).toHaveLength(0);

    const told = await t.ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, a.id), eq(notifications.type, 'two_factor_reset')));
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('Lost phone; identity checked by video call');
    expect(told[0]!.mailState).not.toBeNull();
    await t.ctx.background.settled();
    const mail = mailsTo(t, a.email).filter((m) => m.subject === 'Two-factor authentication reset');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain('Lost phone; identity checked by video call');

    const audits = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.reset-2fa'), eq(auditLog.objectId, a.id)));
    expect(audits).toHaveLength(1);
    const audit = audits[0];
    expect(audit).toMatchObject({ actorId: staff.id, objectType: 'user' });
    expect(audit!.details).toMatchObject({ reason: 'Lost phone; identity checked by video call' });

    const ch = await challenge(a.email);
    expect(ch.qrcode).toEqual(expect.any(String));
    expect(ch.secret).not.toBe(a.secret);
    const setup = await t.api('POST', '/account/auth-confirm', {
      body: { token: ch.token, code: await totpCode(t, ch.secret!) },
    });
    expect(setup.status).toBe(200);
    expect(setup.body.data.recovery_codes).toHaveLength(10);

    // Already reset and set up again: a second reset works again, not before.
    const none = await newIndividual(t);
    await reset(staff.token, none.id);
    expect((await reset(staff.token, none.id)).status).toBe(409);
  });

  it('company users are reset like individuals', async () => {
    const staff = await newStaff(t, 'Super-Admin');
    const co = await newCompany(t);
    const member = await newCompanyMember(t, co, 'user');
    expect((await reset(staff.token, member.id)).status).toBe(200);
    expect((await profile(member.token)).status).toBe(401);
    expect((await profile(co.token)).status).toBe(200);
  });

  it('roles: customers cannot, staff not their own, only a Super-Admin resets staff', async () => {
    const admin = await newStaff(t, 'Admin');
    const admin2 = await newStaff(t, 'Admin');
    const sup = await newStaff(t, 'Super-Admin');
    const a = await newIndividual(t);
    const co = await newCompany(t);
    const b = await newIndividual(t);

    expect((await reset(a.token, b.id)).status).toBe(403);
    expect((await reset(co.token, b.id)).status).toBe(403);
    expect((await t.api('POST', `/account/reset-2fa/${b.id}`, { body: { reason: 'x' } })).status).toBe(401);

    const own = await reset(admin.token, admin.id);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('You cannot reset your own two-factor authentication. Ask another administrator.');
    expect((await reset(sup.token, sup.id)).status).toBe(403);

    const other = await reset(admin.token, admin2.id);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe("Only a Super-Admin can reset a staff member's two-factor authentication.");
    expect((await reset(admin.token, sup.id)).status).toBe(403);
    expect((await profile(admin2.token)).status).toBe(200);

    expect((await reset(sup.token, admin2.id)).status).toBe(200);
    expect((await profile(admin2.token)).status).toBe(401);
  });

  it('bad input: reason required and bounded, unknown or malformed user 404', async () => {
    const admin = await newStaff(t, 'Admin');
    const a = await newIndividual(t);
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 12 }, { reason: 'x'.repeat(501) }]) {
      const res = await reset(admin.token, a.id, body);
      expect(res.status).toBe(422);
      expect(res.body.error.reason).toHaveLength(1);
    }
    expect((await profile(a.token)).status).toBe(200);
    expect((await reset(admin.token, crypto.randomUUID())).status).toBe(404);
    expect((await reset(admin.token, 'not-a-uuid')).status).toBe(404);
  });
});
