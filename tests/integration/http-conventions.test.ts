import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { newIndividual, randomIp } from './support/actors';

/** HTTP as integrators' clients expect it: 405 with Allow, OPTIONS, 401 challenges, 415. */

let t: TestApp;
let paths: Record<string, Record<string, unknown>>;
beforeAll(async () => {
  t = await startTestApp();
  paths = ((await (await fetch(`${t.url}/api/docs/json`)).json()) as { paths: typeof paths }).paths;
});
afterAll(() => t.close());

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ID = '0b7e1b2c-3f3a-4c55-9a53-6d0f8f3b9a11';
const allowOf = (h: Headers) =>
  new Set(
    (h.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean),
  );

/** Every documented path with its ids filled in, and the methods any documented route takes there. */
function documented() {
  const templates = Object.entries(paths).map(([p, ops]) => ({
    pattern: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
    url: p.replace(/\{[^}]+\}/g, ID),
  }));
  return templates.map(({ url }) => {
    const allowed = new Set(templates.filter((x) => x.pattern.test(url)).flatMap((x) => x.methods));
    if (allowed.has('GET')) allowed.add('HEAD');
    return { url, allowed };
  });
}

function expectConventions(res: Response) {
  expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-request-id')).toBeTruthy();
}

describe('a method the path does not take', () => {
  it('POST /health is a 405 with Allow: GET, HEAD in the one error shape', async () => {
    const res = await t.api('POST', '/health', { body: {} });
    expect(res.status).toBe(405);
    expect(allowOf(res.headers)).toEqual(new Set(['GET', 'HEAD']));
    expect(res.body).toEqual({ message: expect.stringContaining('GET'), error: expect.any(String) });
    expectConventions(await fetch(`${t.url}/api/v1/health`, { method: 'DELETE' }));
  });

  it('GET /oauth/token (POST only) is a 405 with Allow: POST', async () => {
    const res = await t.api('GET', '/oauth/token');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('a path with an id takes its route methods only: GET /third-party/clients/{id} is a 405 with Allow: DELETE', async () => {
    const res = await t.api('GET', `/third-party/clients/${ID}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE');
  });

  it('is answered before authentication (no token needed to learn the methods)', async () => {
    const res = await t.api('PUT', '/third-party/clients');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('holds for every documented path: each other method is a 405 listing exactly the path’s methods', async () => {
    const wrong: string[] = [];
    for (const { url, allowed } of documented()) {
      for (const method of METHODS.filter((m) => !allowed.has(m))) {
        const res = await fetch(`${t.url}${url}`, { method });
        const allow = allowOf(res.headers);
        if (res.status !== 405 || [...allowed].some((m) => !allow.has(m)) || allow.size !== allowed.size) {
          wrong.push(`${method} ${url}: ${res.status} Allow: ${res.headers.get('allow')}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('an unknown path stays a 404 for every method', async () => {
    for (const method of METHODS) {
      const res = await t.api(method, '/no/such/path');
      expect(res.status).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
    }
  });
});

describe('OPTIONS', () => {
  it('answers 204 with Allow on an existing path, with the security headers', async () => {
    const res = await fetch(`${t.url}/api/v1/account/login`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(allowOf(res.headers)).toEqual(new Set(['POST', 'OPTIONS']));
    expect(await res.text()).toBe('');
    expectConventions(res);
  });

  it('answers every documented path with its methods', async () => {
    const wrong: string[] = [];
    for (const { url, allowed } of documented()) {
      const res = await fetch(`${t.url}${url}`, { method: 'OPTIONS' });
      const allow = allowOf(res.headers);
      allowed.add('OPTIONS');
      if (res.status !== 204 || allow.size !== allowed.size || [...allowed].some((m) => !allow.has(m))) {
        wrong.push(`OPTIONS ${url}: ${res.status} Allow: ${res.headers.get('allow')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('is a 404 on an unknown path', async () => {
    const res = await t.api('OPTIONS', '/no/such/path');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });
});

describe('401 answers', () => {
  it('carry WWW-Authenticate: Bearer when no token is sent', async () => {
    const res = await t.api('GET', '/individuals/profile');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    ['an unknown session token', 'not-a-real-session-token'],
    ['an unknown API access token', 'cwat_not-a-real-access-token'],
  ])('carry WWW-Authenticate: Bearer error="invalid_token" for %s', async (_what, token) => {
    const res = await t.api('GET', '/individuals/profile', { token });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('carry a challenge on a failed login too', async () => {
    const res = await t.api('POST', '/account/login', {
      body: { email: 'nobody@example.com', password: 'Wrong!Passw0rd' },
      ip: randomIp(),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('a body the API does not take', () => {
  it.each(['text/plain', 'text/plain; charset=utf-8', 'application/xml'])(
    '%s is a 415 in the one error shape',
    async (type) => {
      const res = await t.api('POST', '/account/login', {
        body: JSON.stringify({ email: 'ama@example.com', password: 'x' }),
        headers: { 'content-type': type },
        ip: randomIp(),
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({
        message: 'This content type is not supported.',
        error: 'This content type is not supported.',
      });
    },
  );

  it('is a 415 for a signed-in caller as well', async () => {
    const me = await newIndividual(t);
    const res = await t.api('PATCH', `/individuals/change-password/${me.id}`, {
      token: me.token,
      body: 'old_password=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });
});
