import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { PASSWORD, linkFrom, logIn, newIndividual, randomIp, registerIndividual, totpCode } from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'N3w!Passw0rd-2';
const EXPIRED = 'Your login attempt has expired. Please log in again.';

const login = (email: string, password = PASSWORD) =>
  t.api('POST', '/account/login', { body: { email, password }, ip: randomIp() });
const confirm = (kind: 'auth-confirm' | 'login-confirm', token: string, code: string) =>
  t.api('POST', `/account/${kind}`, { body: { token, code }, ip: randomIp() });

/** The owner resets the password from the mailed link. */
async function resetPassword(email: string) {
  expect((await t.api('POST', '/account/reset', { body: { email }, ip: randomIp() })).status).toBe(202);
  await t.ctx.background.settled();
  const token = new URL(linkFrom(t, email, '/onboarding/new-password')).searchParams.get('token');
  const res = await t.api('POST', '/account/reset-password', {
    body: { token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
  });
  expect(res.status).toBe(200);
}

describe('a new password ends every login under way', () => {
  it('a reset from the link: the setup challenge opened with the old password, and the key it showed, no longer work', async () => {
    const { email } = await registerIndividual(t);
    // Whoever had the old password logged in first and saw the 2FA key.
    const intruder = (await login(email)).body.data;
    await resetPassword(email);
    const late = await confirm('auth-confirm', intruder.token, await totpCode(t, intruder.secret));
    expect(late.status).toBe(401);
    expect(late.body.message).toBe(EXPIRED);
    // The owner's own first login shows another key, and that one sets 2FA up.
    const owner = await login(email, NEW_PASSWORD);
    expect(owner.body.data.secret).not.toBe(intruder.secret);
    expect(
      (await confirm('auth-confirm', owner.body.data.token, await totpCode(t, owner.body.data.secret))).status,
    ).toBe(200);
  });

  it('a reset from the link: a code step opened with the old password no longer opens a session', async () => {
    const { email } = await registerIndividual(t);
    const { secret } = await logIn(t, email, PASSWORD);
    t.clock.advance(30_000);
    const pending = (await login(email)).body.data;
    await resetPassword(email);
    const late = await confirm('login-confirm', pending.token, await totpCode(t, secret));
    expect(late.status).toBe(401);
    expect(late.body.message).toBe(EXPIRED);
  });

  it('a change of password in the profile: a code step opened before it no longer opens a session', async () => {
    const a = await newIndividual(t);
    t.clock.advance(30_000);
    const pending = (await login(a.email)).body.data;
    const changed = await t.api('PATCH', `/individuals/change-password/${a.id}`, {
      token: a.token,
      body: { old_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    const late = await confirm('login-confirm', pending.token, await totpCode(t, a.secret));
    expect(late.status).toBe(401);
    expect(late.body.message).toBe(EXPIRED);
    t.clock.advance(30_000);
    expect((await logIn(t, a.email, NEW_PASSWORD, a.secret)).session.user.id).toBe(a.id);
  });
});

describe('the 2FA key shown before setup', () => {
  const HOUR = 3600_000;

  it('is shown again for a day; a first login after that shows a new key, and only the new one sets 2FA up', async () => {
    const { email } = await registerIndividual(t);
    const first = (await login(email)).body.data;
    t.clock.advance(23 * HOUR);
    const sameDay = (await login(email)).body.data;
    expect(sameDay.secret).toBe(first.secret);
    t.clock.advance(HOUR + 60_000);
    const nextDay = (await login(email)).body.data;
    expect(nextDay.secret).toEqual(expect.any(String));
    expect(nextDay.secret).not.toBe(first.secret);
    expect(nextDay.qrcode).not.toBe(first.qrcode);
    const stale = await confirm('auth-confirm', nextDay.token, await totpCode(t, first.secret));
    expect(stale.status).toBe(401);
    expect((await confirm('auth-confirm', nextDay.token, await totpCode(t, nextDay.secret))).status).toBe(200);
  });
});
