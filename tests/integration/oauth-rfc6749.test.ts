import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { randomIp } from './support/actors';
import { apiCompany, tokenRequest } from './support/api';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const grant = (c: { clientId: string; secret: string }) => ({
  grant_type: 'client_credentials',
  client_id: c.clientId,
  client_secret: c.secret,
});
const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';
const BASIC_CHALLENGE = /^Basic realm="[^"]+"/;

describe('POST /oauth/token follows RFC 6749', () => {
  it('every answer, a token or an error, carries Cache-Control: no-store and Pragma: no-cache (§5.1)', async () => {
    const { creds } = await apiCompany(t);
    const answers = [
      await tokenRequest(t, grant(creds)),
      await tokenRequest(t, { ...grant(creds), client_secret: 'wrong' }),
      await tokenRequest(t, { ...grant(creds), grant_type: 'password' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 400]);
    for (const r of answers) {
      expect(r.headers.get('cache-control'), String(r.status)).toBe('no-store');
      expect(r.headers.get('pragma'), String(r.status)).toBe('no-cache');
    }
  });

  it('missing or incomplete client authentication is 401 invalid_client with a Basic challenge (§5.2)', async () => {
    const { creds } = await apiCompany(t);
    const bodies = [
      { grant_type: 'client_credentials' },
      { grant_type: 'client_credentials', client_id: creds.clientId },
      { grant_type: 'client_credentials', client_secret: creds.secret },
    ];
    for (const body of bodies) {
      const r = await tokenRequest(t, body);
      expect(r.status, JSON.stringify(body)).toBe(401);
      expect(r.body, JSON.stringify(body)).toEqual({ message: expect.any(String), error: 'invalid_client' });
      expect(r.headers.get('www-authenticate')).toMatch(BASIC_CHALLENGE);
    }
  });

  it('wrong or malformed HTTP Basic credentials are 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const { creds } = await apiCompany(t);
    const headers = [
      basicOf(creds.clientId, 'nope'),
      basicOf(creds.clientId, ''),
      `Basic ${Buffer.from('no-colon-at-all').toString('base64')}`,
      basicOf('%E0%A4%A', creds.secret),
      'Basic !!!not-base64!!!',
      'Basic',
      // What the body's fields may not hold, Basic may not either: a NUL (escaped or raw), a space, too long.
      basicOf('a%00b', 'x'),
      basicOf(creds.clientId, 'x%00y'),
      `Basic ${Buffer.from(`a\u0000b:${creds.secret}`).toString('base64')}`,
      basicOf('cw_a b', creds.secret),
      basicOf('cw_a%20b', creds.secret),
      basicOf(`cw_${'a'.repeat(200)}`, creds.secret),
      basicOf(creds.clientId, `${creds.secret}${'a'.repeat(500)}`),
    ];
    for (const authorization of headers) {
      const r = await t.api('POST', '/oauth/token', {
        headers: { 'content-type': FORM, authorization },
        body: 'grant_type=client_credentials',
        ip: randomIp(),
      });
      expect(r.status, authorization).toBe(401);
      expect(r.body.error, authorization).toBe('invalid_client');
      expect(r.body.message, authorization).toEqual(expect.any(String));
      expect(r.headers.get('www-authenticate'), authorization).toMatch(BASIC_CHALLENGE);
      expect(r.body.access_token).toBeUndefined();
    }
  });

  it('refuses a request that authenticates the client two ways at once: 400 invalid_request (§2.3)', async () => {
    const { creds } = await apiCompany(t);
    const both = (body: Record<string, string>) =>
      t.api('POST', '/oauth/token', {
        headers: { 'content-type': FORM, authorization: basicOf(creds.clientId, creds.secret) },
        body: new URLSearchParams(body).toString(),
        ip: randomIp(),
      });
    const bodies: Record<string, string>[] = [
      grant(creds),
      { grant_type: 'client_credentials', client_secret: creds.secret },
      { grant_type: 'client_credentials', client_id: `cw_${randomUUID()}` },
    ];
    for (const body of bodies) {
      const r = await both(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toBe('invalid_request');
      expect(r.body.access_token).toBeUndefined();
    }
    // Naming the same client in the body is no second method (§3.2.1 allows client_id there).
    expect((await both({ grant_type: 'client_credentials', client_id: creds.clientId })).status).toBe(200);
  });

  it('refuses a form that repeats a parameter: 400 invalid_request (§3.2)', async () => {
    const { creds } = await apiCompany(t);
    const body = `${new URLSearchParams(grant(creds)).toString()}&client_id=${encodeURIComponent(`cw_${randomUUID()}`)}`;
    const r = await t.api('POST', '/oauth/token', { headers: { 'content-type': FORM }, body, ip: randomIp() });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
  });

  it('GET is 405 with Allow: POST', async () => {
    const r = await t.api('GET', '/oauth/token');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toMatch(/\bPOST\b/);
    expect(r.body).toEqual({ message: expect.any(String), error: expect.anything() });
  });
});
