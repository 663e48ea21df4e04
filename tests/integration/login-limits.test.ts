import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import {
  PASSWORD,
  logIn,
  newIndividual,
  randomIp,
  registerIndividual,
  startFreshWindow,
  uniqueEmail,
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

/** A verified Individual who has completed a first login, so 2FA is set up. */
async function withTwoFactor() {
  const { email } = await registerIndividual(t);
  const { secret, token } = await logIn(t, email, PASSWORD);
  return { email, secret, token };
}

describe('wrong passwords and rate limits', () => {
  it('a wrong password and an unknown email get the same 401', async () => {
    const { email } = await registerIndividual(t);
    const wrong = await login(email, 'Wr0ng!Password');
    const unknown = await login(uniqueEmail('nobody'), 'Wr0ng!Password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password.', error: 'Invalid email or password.' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('five wrong passwords from one address lock the account there until the window passes; the owner elsewhere gets in', async () => {
    startFreshWindow(t);
    const { email } = await registerIndividual(t);
    const attacker = randomIp();
    for (let i = 0; i < 5; i++) expect((await login(email, `Wr0ng!Pass${i}`, attacker)).status).toBe(401);
    const locked = await login(email, PASSWORD, attacker);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/too many failed attempts/i);
    const retry = Number(locked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);

    // Someone who only knows the email cannot keep its owner out.
    const owner = await login(email, PASSWORD, randomIp());
    expect(owner.status).toBe(200);
    expect(owner.body.data.token).toEqual(expect.any(String));

    t.clock.advance(15 * MINUTE);
    expect((await login(email, PASSWORD, attacker)).status).toBe(200);
  });

  it('wrong passwords from many addresses lock the account only at 100 within an hour (ASVS 2.2.1), then let the owner in again', async () => {
    startFreshWindow(t, t.ctx.config.rateLimit.accountWindowSeconds);
    const { email } = await registerIndividual(t);
    for (let i = 0; i < 60; i++) expect((await login(email, `Wr0ng!Pass${i}`)).status, `failure ${i + 1}`).toBe(401);
    t.clock.advance(45 * MINUTE);
    for (let i = 60; i < 99; i++) expect((await login(email, `Wr0ng!Pass${i}`)).status, `failure ${i + 1}`).toBe(401);
    // 99 failures in 45 minutes, each from its own address: the owner still gets in.
    expect((await login(email, PASSWORD)).status).toBe(200);
    expect((await login(email, 'Wr0ng!Pass99')).status).toBe(401);

    // The hundredth: now nobody gets in, from any address, until the hour has passed.
    const locked = await login(email, PASSWORD);
    expect(locked.status).toBe(429);
    const retry = Number(locked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(10 * 60);
    expect(retry).toBeLessThanOrEqual(40 * 60);
    expect((await login(email, PASSWORD)).status).toBe(429);
    t.clock.advance(retry * 1000);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('fifty failures from one address lock that address for every account, and no other address', async () => {
    startFreshWindow(t);
    const { email } = await registerIndividual(t);
    const ip = randomIp();
    for (let i = 0; i < 50; i++) {
      expect((await login(uniqueEmail('guess'), 'Wr0ng!Password', ip)).status).toBe(401);
    }
    const blocked = await login(email, PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(email, PASSWORD, randomIp())).status).toBe(200);

    t.clock.advance(15 * MINUTE);
    expect((await login(email, PASSWORD, ip)).status).toBe(200);
  });

  it('wrong codes count against the account, even across fresh password logins', async () => {
    startFreshWindow(t);
    const { email, secret } = await withTwoFactor();
    t.clock.advance(30_000);
    const one = await login(email);
    for (let i = 0; i < 3; i++)
      expect((await confirm('login-confirm', one.body.data.token, await wrongCode(t, secret))).status).toBe(401);
    const two = await login(email);
    expect(two.status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await confirm('login-confirm', two.body.data.token, await wrongCode(t, secret))).status).toBe(401);
    // Five wrong codes in this window: the right password no longer opens a new challenge.
    expect((await login(email)).status).toBe(429);
  });

  it('a completed login clears the account failure count', async () => {
    startFreshWindow(t);
    const { email, secret } = await withTwoFactor();
    for (let i = 0; i < 4; i++) expect((await login(email, 'Wr0ng!Password')).status).toBe(401);
    await logIn(t, email, PASSWORD, secret);
    for (let i = 0; i < 4; i++) expect((await login(email, 'Wr0ng!Password')).status).toBe(401);
    expect((await login(email)).status).toBe(200);
  });
});

describe('guesses sent all at once', () => {
  const burst = <T>(n: number, send: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((m, s) => {
      m[s] = (m[s] ?? 0) + 1;
      return m;
    }, {});

  it('twenty wrong passwords in parallel from one address: five are checked, the rest are 429; the owner elsewhere gets in', async () => {
    startFreshWindow(t);
    const { email } = await registerIndividual(t);
    const attacker = randomIp();
    const answers = await burst(20, (i) => login(email, `Wr0ng!Pass${i}`, attacker));
    expect(tally(answers.map((r) => r.status))).toEqual({ 401: 5, 429: 15 });
    expect((await login(email, PASSWORD, attacker)).status).toBe(429);
    expect((await login(email, PASSWORD, randomIp())).status).toBe(200);
  });

  it('twenty wrong codes in parallel: at most five are checked, and then even the right code waits', async () => {
    startFreshWindow(t);
    const { email, secret } = await withTwoFactor();
    t.clock.advance(30_000);
    const ip = randomIp();
    const { token } = (await login(email, PASSWORD, ip)).body.data;
    const bad = await wrongCode(t, secret);
    const answers = await burst(20, () => confirm('login-confirm', token, bad, ip));
    // Checked: told the code is wrong. The rest: 429, or 401 expired once the challenge has had its five.
    expect(answers.filter((r) => r.status === 401 && r.body.message === BAD_CODE)).toHaveLength(5);
    expect(
      answers.every((r) => r.status === 429 || (r.status === 401 && [BAD_CODE, EXPIRED].includes(r.body.message))),
    ).toBe(true);
    expect((await login(email, PASSWORD, randomIp())).status).toBe(429);
  });

  it('twenty wrong current passwords in parallel on the change-password form: five are checked, the rest are 429', async () => {
    startFreshWindow(t);
    const a = await newIndividual(t);
    const ip = randomIp();
    const answers = await burst(20, (i) =>
      t.api('PATCH', `/individuals/change-password/${a.id}`, {
        token: a.token,
        ip,
        body: { old_password: `Wr0ng!Pass${i}`, new_password: 'N3w!Passw0rd-2', confirm_password: 'N3w!Passw0rd-2' },
      }),
    );
    expect(tally(answers.map((r) => r.status))).toEqual({ 422: 5, 429: 15 });
  });
});
