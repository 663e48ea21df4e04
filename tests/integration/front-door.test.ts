import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';

/** The web app's front door: the address `npm start` prints, deep links reloaded, and stale assets. */

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-Cur3ntH4.js"></script></body></html>';

let t: TestApp;
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cw-spa-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), INDEX);
  writeFileSync(path.join(root, 'assets', 'index-Cur3ntH4.js'), 'console.log("app")');
  writeFileSync(path.join(root, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await startTestApp({}, { spaRoot: root });
});
afterAll(() => t.close());

const get = (p: string, method = 'GET') => fetch(`${t.url}${p}`, { method, redirect: 'manual' });

function expectSecurityHeaders(h: Headers) {
  expect(h.get('content-security-policy')).toContain("script-src 'self'");
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('no-referrer');
}

describe('the web app', () => {
  it.each([
    '/',
    '/login',
    '/login?email=ama%40example.com',
    '/onboarding/signup?product=YQ',
    '/portal',
    '/portal/cards',
    '/portal/',
    '/admin/cards/0b7e1b2c-3f3a-4c55-9a53-6d0f8f3b9a11',
  ])('GET %s serves the app (a reload of any of its screens), never cached', async (p) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
    expectSecurityHeaders(res.headers);
  });

  it('HEAD / answers like GET /, without a body', async () => {
    const res = await get('/', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('serves a hashed asset cached for a year, and a top-level file', async () => {
    const asset = await get('/assets/index-Cur3ntH4.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app")');
    expect((await get('/logo.svg')).status).toBe(200);
  });

  it.each(['/assets/index-XXXX.js', '/assets/index-0ldH4sh.css', '/assets/', '/favicon.ico', '/portal/report.csv'])(
    'answers a missing file %s with a plain 404, not the app (an old tab after a deploy fails clearly)',
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ message: expect.any(String), error: expect.any(String) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectSecurityHeaders(res.headers);
    },
  );

  it('keeps unknown API paths a JSON 404, not the app', async () => {
    const res = await get('/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: expect.any(String), error: expect.any(String) });
  });
});
