import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import type { Mailer } from '../../server/lib/mailer';
import { type TestApp, startTestApp } from './support/app';
import { type SentMail, memoryMailer } from './support/http';
import {
  PASSWORD,
  linkFrom,
  logIn,
  mailsTo,
  newIndividual,
  randomIp,
  registerIndividual,
  startFreshWindow,
  uniqueEmail,
} from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Keeps mail like the memory mailer, but each one takes `ms` to send, like a slow SMTP server. */
function slowMailer(sent: SentMail[], ms: number): Mailer {
  const keep = memoryMailer(sent);
  return { send: (mail) => new Promise((done) => setTimeout(done, ms)).then(() => keep.send(mail)) };
}

const NEW_PASSWORD = 'N3w!Passw0rd-2';
const LINK_INVALID = 'This link is invalid or has expired. Please request a new one.';
const MINUTE = 60_000;

/** Asks for a reset link, and waits for the mail that goes out after the answer. */
async function requestReset(email: string, ip = randomIp()) {
  const res = await t.api('POST', '/account/reset', { body: { email }, ip });
  await t.ctx.background.settled();
  return res;
}
const setPassword = (body: Record<string, unknown>) => t.api('POST', '/account/reset-password', { body });
const login = (email: string, password: string) =>
  t.api('POST', '/account/login', { body: { email, password }, ip: randomIp() });
const profile = (token: string) => t.api('GET', '/individuals/profile', { token });

/** Asks for a reset and returns the token from the newest reset mail. */
async function resetToken(email: string): Promise<string> {
  expect((await requestReset(email)).status).toBe(202);
  const link = new URL(linkFrom(t, email, '/onboarding/new-password'));
  return link.searchParams.get('token')!;
}

describe('password reset request', () => {
  it('answers 202 with data.code 202 and the same body whether or not the email exists', async () => {
    const a = await newIndividual(t);
    const nobody = uniqueEmail('nobody');
    const known = await requestReset(a.email);
    const unknown = await requestReset(nobody);
    expect(known.status).toBe(202);
    expect(known.body.data.code).toBe(202);
    expect(known.body.data.message).toEqual(expect.any(String));
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(mailsTo(t, nobody)).toHaveLength(0);

    const mails = mailsTo(t, a.email).filter((m) => m.subject === 'Reset your password');
    expect(mails).toHaveLength(1);
    const link = new URL(linkFrom(t, a.email, '/onboarding/new-password'));
    expect(link.origin).toBe(t.ctx.config.appUrl);
    expect(link.pathname).toBe('/onboarding/new-password');
    expect(link.searchParams.get('token')).toMatch(/^[\w-]{20,}$/);
  });

  it('sends a deactivated account no link, with the same answer', async () => {
    const a = await newIndividual(t);
    await t.ctx.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, a.id));
    const res = await requestReset(a.email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual((await requestReset(uniqueEmail('nobody'))).body);
    expect(mailsTo(t, a.email).filter((m) => m.subject === 'Reset your password')).toHaveLength(0);
  });

  it('sends at most 3 reset mails per email per window', async () => {
    startFreshWindow(t);
    const { email } = await registerIndividual(t);
    const resets = () => mailsTo(t, email).filter((m) => m.subject === 'Reset your password');
    for (let i = 0; i < 5; i++) expect((await requestReset(email)).status).toBe(202);
    expect(resets()).toHaveLength(3);
    t.clock.advance(15 * MINUTE);
    expect((await requestReset(email)).status).toBe(202);
    expect(resets()).toHaveLength(4);
  });

  it('rejects a missing or malformed email with 422', async () => {
    const missing = await t.api('POST', '/account/reset', { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.email[0]).toBe('Email is required');
    const bad = await requestReset('not-an-email');
    expect(bad.status).toBe(422);
    expect(bad.body.error.email[0]).toBe('Enter a valid email address');
  });
});

describe('password reset timing', () => {
  const MAIL_TAKES_MS = 3_000;
  let slow: TestApp;
  beforeAll(async () => {
    slow = await startTestApp({}, { mailer: (sent) => slowMailer(sent, MAIL_TAKES_MS) });
  });
  afterAll(() => slow.close());

  it('answers at once and alike whether or not the email exists: the mail goes out after the answer', async () => {
    const { email } = await registerIndividual(slow);
    await slow.ctx.background.settled();
    const resets = () => mailsTo(slow, email).filter((m) => m.subject === 'Reset your password');
    const timed = async (address: string) => {
      const started = performance.now();
      const res = await slow.api('POST', '/account/reset', { body: { email: address }, ip: randomIp() });
      return { res, ms: performance.now() - started };
    };
    const known = await timed(email);
    const unknown = await timed(uniqueEmail('nobody'));
    expect(known.res.status).toBe(202);
    expect(unknown.res.status).toBe(202);
    expect(known.res.body).toEqual(unknown.res.body);
    // The mail takes 3 s to send; neither answer waited for it (a generous bound for a busy machine).
    expect(known.ms).toBeLessThan(1_000);
    expect(unknown.ms).toBeLessThan(1_000);
    expect(resets()).toHaveLength(0);

    await slow.ctx.background.settled();
    expect(resets()).toHaveLength(1);
  });
});

describe('setting a new password from the link', () => {
  it('sets the password, ends open sessions, and works once only', async () => {
    const a = await newIndividual(t);
    const token = await resetToken(a.email);
    const res = await setPassword({ token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toEqual(expect.any(String));

    expect((await profile(a.token)).status).toBe(401);
    const old = await login(a.email, PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.message).toBe('Invalid email or password.');
    const { session } = await logIn(t, a.email, NEW_PASSWORD, a.secret);
    expect(session.user.id).toBe(a.id);

    const twice = await setPassword({ token, password: 'An0ther!Passw0rd', confirm_password: 'An0ther!Passw0rd' });
    expect(twice.status).toBe(422);
    expect(twice.body.error.token[0]).toBe(LINK_INVALID);
    expect((await login(a.email, 'An0ther!Passw0rd')).status).toBe(401);
  });

  it('expires after 1 hour', async () => {
    const a = await newIndividual(t);
    const token = await resetToken(a.email);
    t.clock.advance(61 * MINUTE);
    const late = await setPassword({ token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(late.status).toBe(422);
    expect(late.body.error.token[0]).toBe(LINK_INVALID);
    expect((await login(a.email, NEW_PASSWORD)).status).toBe(401);
    expect((await login(a.email, PASSWORD)).status).toBe(200);
  });

  it.each([
    ['password', { password: 'short', confirm_password: 'short' }, /at least 8 characters/],
    ['password', { password: 'nouppercase1!', confirm_password: 'nouppercase1!' }, /uppercase/],
    ['password', { password: '', confirm_password: '' }, 'Password is required'],
    ['confirm_password', { confirm_password: 'Different!Passw0rd' }, 'Passwords do not match'],
    ['token', { token: undefined }, 'The link is incomplete'],
    ['token', { token: '' }, 'The link is incomplete'],
    ['token', { token: 'made-up-token' }, LINK_INVALID],
  ])('rejects a bad %s with 422 on that field and leaves the link usable', async (field, extra, message) => {
    const a = await newIndividual(t);
    const token = await resetToken(a.email);
    const res = await setPassword({ token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD, ...extra });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect((await profile(a.token)).status).toBe(200);
    const ok = await setPassword({ token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('discards a 2FA key that was shown at a login but never confirmed: the next login shows a new one', async () => {
    const { email } = await registerIndividual(t);
    const before = await login(email, PASSWORD);
    expect(before.body.data.secret).toEqual(expect.any(String));
    const token = await resetToken(email);
    expect((await setPassword({ token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD })).status).toBe(200);
    const after = await login(email, NEW_PASSWORD);
    expect(after.status).toBe(200);
    expect(after.body.data.secret).toEqual(expect.any(String));
    expect(after.body.data.secret).not.toBe(before.body.data.secret);
  });

  it('does not take a verification link for a reset link, nor use it up', async () => {
    const { email } = await registerIndividual(t, { verify: false });
    const verifyLink = linkFrom(t, email, '/verify-email');
    const token = new URL(verifyLink).searchParams.get('token')!;
    const res = await setPassword({ token, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.body.error.token[0]).toBe(LINK_INVALID);
    const verified = await fetch(verifyLink.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
    expect(verified.headers.get('location')).toMatch(/^\/onboarding\/email-verified\?identity=/);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });
});

describe('changing the password', () => {
  const change = (token: string | undefined, id: string, body: Record<string, unknown>) =>
    t.api('PATCH', `/individuals/change-password/${id}`, { token, body, ip: randomIp() });
  const good = { old_password: PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD };

  it.each([
    ['old_password', { old_password: 'Wr0ng!Password' }, 'The current password is incorrect.'],
    ['old_password', { old_password: '' }, 'Current password is required'],
    ['new_password', { new_password: 'weakpass', confirm_password: 'weakpass' }, /at least 8 characters/],
    ['new_password', { new_password: PASSWORD, confirm_password: PASSWORD }, /different from the current/],
    ['confirm_password', { confirm_password: 'Different!Passw0rd' }, 'Passwords do not match'],
  ])('rejects a bad %s with 422 on that field and changes nothing', async (field, extra, message) => {
    const a = await newIndividual(t);
    const res = await change(a.token, a.id, { ...good, ...extra });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect((await profile(a.token)).status).toBe(200);
    expect((await login(a.email, PASSWORD)).status).toBe(200);
  });

  it("answers 404 for another user's id and leaves that user alone", async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const res = await change(a.token, b.id, good);
    expect(res.status).toBe(404);
    expect((await profile(b.token)).status).toBe(200);
    expect((await login(b.email, PASSWORD)).status).toBe(200);
    expect((await change(a.token, 'not-a-uuid', good)).status).toBe(404);
  });

  it('answers 401 without a session', async () => {
    const a = await newIndividual(t);
    expect((await change(undefined, a.id, good)).status).toBe(401);
    expect((await change('bogus-token', a.id, good)).status).toBe(401);
  });

  it('changes the password and ends every session of the user', async () => {
    const a = await newIndividual(t);
    const second = await logIn(t, a.email, PASSWORD, a.secret);
    const res = await change(a.token, a.id, good);
    expect(res.status).toBe(200);
    expect(res.body.data.message).toEqual(expect.any(String));
    expect((await profile(a.token)).status).toBe(401);
    expect((await profile(second.token)).status).toBe(401);
    expect(mailsTo(t, a.email).some((m) => m.subject === 'Your password was changed')).toBe(true);

    expect((await login(a.email, PASSWORD)).status).toBe(401);
    const { session } = await logIn(t, a.email, NEW_PASSWORD, a.secret);
    expect(session.user.id).toBe(a.id);
  });
});
