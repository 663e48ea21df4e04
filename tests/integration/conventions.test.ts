import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpdeskMessages } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  PASSWORD,
  linkFrom,
  mailsTo,
  newIndividual,
  randomIp,
  startFreshWindow,
  totpCode,
  uniqueEmail,
} from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('API conventions', () => {
  it('GET /health answers 200 with data.status ok', async () => {
    const res = await t.api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok', database: t.ctx.database.kind } });
  });

  it.each(['GET', 'POST', 'DELETE'])('answers an unknown %s route with a JSON 404', async (method) => {
    const res = await t.api(method, '/no/such/route?x=1', method === 'POST' ? { body: {} } : {});
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });

  it.each([
    ['a success', '/health', 200],
    ['a 401', '/individuals/profile', 401],
    ['a 404', '/nothing-here', 404],
  ])('puts the security headers on %s', async (_what, path, status) => {
    const res = await t.api('GET', path, { headers: { 'x-request-id': 'chosen-by-client' } });
    expect(res.status).toBe(status);
    const h = res.headers;
    const csp = h.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('x-frame-options') !== null || csp.includes("frame-ancestors 'none'")).toBe(true);
    expect(h.get('referrer-policy')).toBe('no-referrer');
    expect(h.get('cache-control')).toBe('no-store');
    expect(h.get('x-request-id')).toMatch(UUID);
  });

  it('gives every request its own request id', async () => {
    const a = await t.api('GET', '/health');
    const b = await t.api('GET', '/health');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('publishes an OpenAPI document that lists the login call', async () => {
    const res = await fetch(`${t.url}/api/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/v1/account/login']).toHaveProperty('post');
    expect(doc.paths['/api/v1/account/reset']).toHaveProperty('post');
    expect(doc.paths['/api/v1/company/users/{companyId}']).toHaveProperty('get');
  });
});

describe('POST /account/helpdesk', () => {
  const message = (extra: Record<string, unknown> = {}) => ({
    name: 'Kofi Annan',
    email: uniqueEmail('help'),
    subject: 'Card declined',
    message: 'My card was declined at the supermarket.',
    ...extra,
  });

  it('stores the message and mails it to support with reply-to the sender (201)', async () => {
    const body = message();
    const res = await t.api('POST', '/account/helpdesk', { body, ip: randomIp() });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ id: expect.stringMatching(UUID), message: 'Message sent' });
    const mail = mailsTo(t, t.ctx.config.supportEmail).find((m) => m.replyTo === body.email);
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('[Help Desk] Card declined');
    expect(mail!.text).toContain('My card was declined at the supermarket.');
    expect(mail!.text).toContain(body.email);
    expect(mailsTo(t, body.email)).toHaveLength(0);
    const [row] = await t.ctx.db.select().from(helpdeskMessages).where(eq(helpdeskMessages.id, res.body.data.id));
    expect(row).toMatchObject({ email: body.email, userId: null, deliveredAt: expect.any(Date) });
  });

  it('links a signed-in sender to the message', async () => {
    const a = await newIndividual(t);
    const res = await t.api('POST', '/account/helpdesk', {
      body: message({ email: a.email }),
      token: a.token,
      ip: randomIp(),
    });
    expect(res.status).toBe(201);
    const [row] = await t.ctx.db.select().from(helpdeskMessages).where(eq(helpdeskMessages.id, res.body.data.id));
    expect(row!.userId).toBe(a.id);
  });

  it.each([
    ['name', 'Name is required'],
    ['email', 'Email is required'],
    ['subject', 'Subject is required'],
    ['message', 'Message is required'],
  ])('rejects a missing %s with 422 and sends nothing', async (field, text) => {
    const body = message({ [field]: undefined });
    const before = mailsTo(t, t.ctx.config.supportEmail).length;
    const res = await t.api('POST', '/account/helpdesk', { body, ip: randomIp() });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toBe(text);
    const blank = await t.api('POST', '/account/helpdesk', { body: message({ [field]: '   ' }), ip: randomIp() });
    expect(blank.status).toBe(422);
    expect(blank.body.error[field][0]).toEqual(field === 'email' ? expect.any(String) : text);
    expect(mailsTo(t, t.ctx.config.supportEmail)).toHaveLength(before);
  });

  it('accepts 10 messages from one address in a window, then answers 429', async () => {
    startFreshWindow(t);
    const ip = randomIp();
    for (let i = 0; i < 10; i++) {
      expect((await t.api('POST', '/account/helpdesk', { body: message(), ip })).status).toBe(201);
    }
    const limited = await t.api('POST', '/account/helpdesk', { body: message(), ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.api('POST', '/account/helpdesk', { body: message(), ip: randomIp() })).status).toBe(201);
  });
});

describe('logs', () => {
  it('never carry passwords, codes, tokens or mailed links', async () => {
    const email = uniqueEmail('logs');
    const ip = randomIp();
    const newPassword = 'L0gged?Never-9';
    const secrets: Record<string, string> = { password: PASSWORD, newPassword };

    const reg = await t.api('POST', '/account/individuals/register', {
      ip,
      body: {
        first_name: 'Efua',
        last_name: 'Sutherland',
        email,
        password: PASSWORD,
        confirm_password: PASSWORD,
        phone_number: '+233241112233',
      },
    });
    expect(reg.status).toBe(201);
    const verifyLink = linkFrom(t, email, '/verify-email');
    secrets.verifyToken = new URL(verifyLink).searchParams.get('token')!;
    await fetch(verifyLink.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });

    // A failed attempt with the password in the body, then the real login.
    await t.api('POST', '/account/individuals/register', {
      ip,
      body: { email, password: PASSWORD, confirm_password: newPassword },
    });
    const login = await t.api('POST', '/account/login', { body: { email, password: PASSWORD }, ip });
    expect(login.status).toBe(200);
    secrets.loginToken = login.body.data.token;
    secrets.totpSecret = login.body.data.secret;
    secrets.code = await totpCode(t, login.body.data.secret);
    const confirm = await t.api('POST', '/account/auth-confirm', {
      body: { token: secrets.loginToken, code: secrets.code },
      ip,
    });
    expect(confirm.status).toBe(200);
    secrets.accessToken = confirm.body.data.access_token;

    const change = await t.api('PATCH', `/individuals/change-password/${confirm.body.data.user.id}`, {
      token: secrets.accessToken,
      ip,
      body: { old_password: PASSWORD, new_password: newPassword, confirm_password: newPassword },
    });
    expect(change.status).toBe(200);
    expect((await t.api('GET', '/individuals/profile', { token: secrets.accessToken })).status).toBe(401);

    const reset = await t.api('POST', '/account/reset', { body: { email }, ip });
    expect(reset.status).toBe(202);
    await t.ctx.background.settled();
    secrets.resetToken = new URL(linkFrom(t, email, '/onboarding/new-password')).searchParams.get('token')!;

    const logs = t.logs.join('\n');
    // The log does record these requests, so the check below is not vacuous.
    expect(logs).toContain('/api/v1/account/auth-confirm');
    expect(logs).toContain('/api/v1/account/verify-email?token=[redacted]');
    for (const [what, value] of Object.entries(secrets)) {
      expect(value.length, what).toBeGreaterThan(5);
      expect(logs.includes(value), `${what} appears in the logs`).toBe(false);
    }
  });
});
