import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newIndividual } from './support/actors';
import { type TestApp, startTestApp } from './support/app';

/**
 * Long paths answer in the one error shape: a path parameter over 100 characters names nothing (404,
 * whichever method), a path of thousands of characters is a 414; with the web app served, whose
 * catch-all once turned the first into a 405 and the second into a 403.
 */

let t: TestApp;
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cw-spa-long-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><body></body></html>');
  t = await startTestApp({}, { spaRoot: root });
});
afterAll(() => t.close());

const LONG_ID = 'a'.repeat(101);
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

async function send(method: string, url: string, token?: string) {
  const res = await fetch(`${t.url}${url}`, {
    method,
    headers: {
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: method === 'GET' ? undefined : '{}',
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

const oneShape = { message: expect.any(String), error: expect.any(String) };

describe('a path parameter longer than 100 characters', () => {
  for (const method of METHODS) {
    it(`${method} is a 404 in the one error shape, on a path that takes it and on one that does not`, async () => {
      for (const url of [
        `/api/v1/cards/${LONG_ID}`,
        `/api/v1/third-party/clients/${LONG_ID}`,
        `/api/v1/fees/${LONG_ID}`,
        `/api/v1/company/users/${LONG_ID}/${LONG_ID}`,
      ]) {
        const res = await send(method, url);
        expect(res.status, `${method} ${url.slice(0, 40)}`).toBe(404);
        expect(res.body).toEqual(oneShape);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      }
    });
  }

  it('holds for every documented path with a parameter, each method', async () => {
    const paths = ((await (await fetch(`${t.url}/api/docs/json`)).json()) as { paths: Record<string, unknown> }).paths;
    const wrong: string[] = [];
    const templates = Object.keys(paths).filter((p) => p.includes('{'));
    expect(templates.length).toBeGreaterThan(15);
    for (const template of templates) {
      const url = template.replace(/\{[^}]+\}/g, LONG_ID);
      for (const method of METHODS) {
        const res = await send(method, url);
        if (res.status !== 404) wrong.push(`${method} ${template}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('is a 404 for a signed-in customer too (nothing is looked up)', async () => {
    const a = await newIndividual(t);
    for (const method of METHODS) {
      const res = await send(method, `/api/v1/cards/${LONG_ID}`, a.token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(oneShape);
    }
  });

  it('one of 100 characters is still routed: the route asks for a session first', async () => {
    const res = await send('GET', `/api/v1/cards/${'a'.repeat(100)}`);
    expect(res.status).toBe(401);
  });
});

describe('a path of about 4,000 characters', () => {
  for (const method of METHODS) {
    it(`${method} is a 414 in the one error shape, inside and outside the API`, async () => {
      for (const url of [
        `/api/v1/cards/${'b'.repeat(4000)}`,
        `/api/v1/${'c/'.repeat(2000)}`,
        `/${'d'.repeat(4000)}`,
        `/admin/${'e/'.repeat(2000)}`,
      ]) {
        const res = await send(method, url);
        expect(res.status, `${method} ${url.slice(0, 40)}`).toBe(414);
        expect(res.body).toEqual({ message: 'The path is longer than 2048 characters.', error: expect.any(String) });
      }
    });
  }
});

describe('what stays as it was', () => {
  it('a wrong method on a normal path is still a 405 with Allow', async () => {
    const res = await send('GET', `/api/v1/third-party/clients/0b7e1b2c-3f3a-4c55-9a53-6d0f8f3b9a11`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE');
  });

  it('a screen of the web app with a long last part is still the app', async () => {
    const res = await fetch(`${t.url}/admin/${'f'.repeat(150)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});
