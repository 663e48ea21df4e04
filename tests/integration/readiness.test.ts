import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { describeOnPostgres } from './support/postgres-only';
import { killAll, startServer } from './support/process';

const JOURNAL = path.resolve(__dirname, '../../server/db/migrations/meta/_journal.json');
const migrationCount = () => (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: unknown[] }).entries.length;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /api/v1/ready', () => {
  it('is 200 while the database answers and has every migration of this version', async () => {
    const res = await t.api('GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ status: 'ready', database: t.ctx.database.kind, migrations: migrationCount() });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is 503 when the database fails or does not answer within 2 s; /health stays the liveness check', async () => {
    const database = t.ctx.database;
    const query = database.query;
    try {
      database.query = () => Promise.reject(new Error('connection refused'));
      const failed = await t.api('GET', '/ready');
      expect(failed.status).toBe(503);
      expect(failed.body.message).toBe('The database is not reachable.');

      database.query = () => new Promise(() => undefined);
      const started = Date.now();
      const hung = await t.api('GET', '/ready');
      expect(hung.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      database.query = query;
    }
    expect((await t.api('GET', '/ready')).status).toBe(200);
  });

  it('is 503 while draining, and /health is still 200', async () => {
    t.app.readiness.draining = true;
    try {
      const res = await t.api('GET', '/ready');
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/shutting down/);
      expect((await t.api('GET', '/health')).status).toBe(200);
    } finally {
      t.app.readiness.draining = false;
    }
  });
});

describe('GET /api/v1/ready on a database whose migrations are behind', () => {
  let priv: PrivateDatabase | null = null;
  let s: TestApp;
  beforeAll(async () => {
    priv = await privatePostgres();
    s = await startTestApp({}, priv ? { postgresUrl: priv.url } : { ownPglite: true });
  });
  afterAll(async () => {
    await s.close();
    await priv?.drop();
  });

  it('is 503 when the newest migration of the journal is not applied, 200 once it is', async () => {
    const q = (text: string) => s.ctx.database.query<Record<string, unknown>>('', text, []);
    const [newest] = await q(
      'select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
    );
    await q(`delete from drizzle.__drizzle_migrations where id = ${Number(newest!.id)}`);
    try {
      const res = await s.api('GET', '/ready');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(
        `The database's migrations are behind this version: ${migrationCount() - 1} of ${migrationCount()} applied.`,
      );
    } finally {
      await q(
        `insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${Number(newest!.id)}, '${String(newest!.hash)}', ${Number(newest!.created_at)})`,
      );
    }
    expect((await s.api('GET', '/ready')).status).toBe(200);
  });
});

describeOnPostgres('GET /api/v1/ready when the PostgreSQL database goes away', () => {
  it('is 503, as /health, once its database is dropped under it (every connection ended)', async () => {
    const priv = (await privatePostgres())!;
    const s = await startTestApp({}, { postgresUrl: priv.url });
    try {
      expect((await s.api('GET', '/ready')).status).toBe(200);
      await priv.drop();
      const res = await s.api('GET', '/ready');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('The database is not reachable.');
      expect((await s.api('GET', '/health')).status).toBe(503);
    } finally {
      await s.close();
    }
  });
});

describe('a server process on SIGTERM', () => {
  let priv: PrivateDatabase | null = null;
  beforeAll(async () => {
    priv = await privatePostgres();
  });
  afterEach(killAll);
  afterAll(() => priv?.drop());

  /** A login whose body arrives in two parts `gapMs` apart: in flight all that time. */
  function slowRequest(base: string, gapMs: number) {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'not-the-password-1' });
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${base}/api/v1/account/login`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), gapMs);
    });
  }

  it('answers /ready 503 from the moment SIGTERM arrives, while a slow request in flight completes', async () => {
    const env: Record<string, string> = priv
      ? { DATABASE_URL: priv.url, SEED: 'none' }
      : { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cw-ready-')), SEED: 'none' };
    const s = await startServer({ ...env, SHUTDOWN_DRAIN_SECONDS: '2' });
    expect((await fetch(`${s.base}/api/v1/ready`)).status).toBe(200);

    const slow = slowRequest(s.base, 3_000);
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const ready = await fetch(`${s.base}/api/v1/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { message: string }).message).toMatch(/shutting down/);
    // Still serving meanwhile: the load balancer has not noticed yet.
    expect((await fetch(`${s.base}/api/v1/health`)).status).toBe(200);

    const answered = await slow;
    expect(Date.now() - signalled).toBeGreaterThan(2_000);
    expect(answered.status).toBe(401);
    expect(JSON.parse(answered.body).message).toBeTruthy();
    expect(await s.exited()).toBe(0);
  }, 120_000);
});
