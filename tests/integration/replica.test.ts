import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { formatLsn, parseLsn, type ReplicaOptions } from '../../server/db/replica';
import { type Actor, PASSWORD, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { describeOnPostgres } from './support/postgres-only';
import { type Standby, makeStandby, standbyUnavailable } from './support/standby';
import { walletOf } from './support/wallet';

/**
 * A read replica against a real streaming standby this file makes (support/standby.ts): lists read it, a
 * decision reads the primary, the writer reads their own write at once (on this instance by session, on
 * another by the cookie), a replica lagging past the limit or stopped mid-run sends reads to the primary
 * without failing one, and reads return to it once it is back.
 */
const MAX_LAG = 4;
const unavailable = standbyUnavailable();
let sb: Standby | null = null;
let t: TestApp;
let t2: TestApp;
let customer: Actor;

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const replicaOf = (app: TestApp) => app.ctx.database.replica!;

/** Until each app's replica is up and has replayed everything the primary has written so far. */
async function caughtUp() {
  const lsn = await replicaOf(t).primaryLsn();
  for (const app of [t, t2]) await until('the replica caught up', () => replicaOf(app).covers(lsn));
}

async function onPrimary(sql: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: sb!.primaryUrl });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** A notification written straight on the primary (as another process's work would be). */
async function notifyOnPrimary(title: string): Promise<string> {
  const [row] = await onPrimary(
    `insert into notifications (id, user_id, type, title, body, event_key) values ($1, $2, 'transfer_received', $3, 'body', $4) returning id`,
    [randomUUID(), customer.id, title, randomUUID()],
  );
  return row.id;
}

const titles = async (app: TestApp, headers: Record<string, string> = {}) => {
  const res = await app.api('GET', '/notifications?per_page=50', { token: customer.token, headers });
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ title: string; read_at: string | null }>).map(
    (n) => `${n.title}${n.read_at ? ' (read)' : ''}`,
  );
};

async function replicaReads(app: TestApp): Promise<number> {
  const text = await (await fetch(`${app.url}/metrics`)).text();
  return Number(/^cw_replica_reads_total\{target="replica"\} (\S+)$/m.exec(text)?.[1] ?? 0);
}

beforeAll(async () => {
  if (!inject('postgresUrl')) return;
  if (unavailable) {
    console.info(`PostgreSQL standby not available, replica test skipped: ${unavailable}`);
    return;
  }
  sb = await makeStandby('cw_replica', async (url) => {
    const d = await openDatabase({ url, poolSize: 2 });
    await d.migrate();
    await d.close();
  });
  const replica: ReplicaOptions = { url: sb.replicaUrl, maxLagSeconds: MAX_LAG };
  const config = { replica: { url: sb.replicaUrl, maxLagSeconds: MAX_LAG } };
  t = await startTestApp(config, { postgresUrl: sb.primaryUrl, replica });
  t2 = await startTestApp(config, { postgresUrl: sb.primaryUrl, replica });
  customer = await newIndividual(t);
}, 90_000);

/** Waits for `step` at most `ms`, saying so when it did not end: a hung close must not keep the clusters running. */
async function bounded(name: string, step: Promise<unknown> | undefined, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  if ((await Promise.race([step, late])) === 'late') console.warn(`replica test teardown: ${name} took over ${ms} ms`);
  clearTimeout(timer);
}

// Once in CI (2026-11-29) closing took over 120 s after every test had passed; which step is not known yet.
afterAll(async () => {
  await bounded('closing the two apps', Promise.all([t?.close(), t2?.close()]), 20_000);
  await bounded('stopping the clusters', sb?.destroy(), 30_000);
}, 60_000);

describe('replica settings', () => {
  it('DATABASE_REPLICA_URL needs a PostgreSQL primary, and is not the primary itself', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cw-replica-config-'));
    const base = { NODE_ENV: 'test', DATA_DIR: dir, ENCRYPTION_KEY: 'a'.repeat(64) };
    expect(() => loadConfig({ ...base, DATABASE_REPLICA_URL: 'postgres://r/db' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...base, DATABASE_URL: 'postgres://p/db', DATABASE_REPLICA_URL: 'postgres://p/db' }),
    ).toThrow(/not DATABASE_URL itself/);
    expect(() => loadConfig({ ...base, DATABASE_URL: 'postgres://p/db', DATABASE_REPLICA_URL: 'mysql://r' })).toThrow(
      /DATABASE_REPLICA_URL/,
    );
    const c = loadConfig({ ...base, DATABASE_URL: 'postgres://p/db', DATABASE_REPLICA_URL: 'postgres://r/db' });
    expect(c.replica).toEqual({ url: 'postgres://r/db', maxLagSeconds: 5 });
  });

  it('WAL positions order as numbers and print as PostgreSQL does', () => {
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('0/10') < parseLsn('1/0')).toBe(true);
    expect(formatLsn(parseLsn('16/B374D848'))).toBe('16/B374D848');
  });
});

describeOnPostgres('a read replica (a streaming standby of our own)', () => {
  it.skipIf(!!unavailable)(
    'lists, statistics and exports read the replica; money and sign-in the primary',
    async () => {
      const staff = await newStaff(t, 'Super-Admin');
      await caughtUp();
      const readsOf = async (call: () => Promise<{ status: number }>) => {
        const before = await replicaReads(t2);
        expect((await call()).status).toBe(200);
        return (await replicaReads(t2)) - before;
      };
      const get = (path: string, token: string) => () => t2.api('GET', path, { token });
      for (const path of [
        '/reports/view-statistics',
        '/disputes',
        '/disputes?format=csv',
        '/statements',
        '/individuals',
        '/wallet/list-topups?format=csv',
      ])
        expect(await readsOf(get(path, staff.token)), path).toBeGreaterThan(0);
      // A balance (it decides what may be spent) and a sign-in read the primary.
      expect(await readsOf(get(`/wallet/account-balance/${customer.id}`, customer.token))).toBe(0);
      expect(
        await readsOf(() =>
          t2.api('POST', '/account/login', { body: { email: customer.email, password: PASSWORD }, ip: customer.ip }),
        ),
      ).toBe(0);
    },
  );

  it.skipIf(!!unavailable)(
    'lists read the replica, decisions the primary; the writer reads their own write',
    async () => {
      await caughtUp();
      await sb!.onStandby('select pg_wal_replay_pause()');
      await until('replay paused', async () => {
        const [r] = (await sb!.onStandby('select pg_get_wal_replay_pause_state() as s')) as Array<{ s: string }>;
        return r!.s === 'paused';
      });
      const id = await notifyOnPrimary('written on the primary');
      // The list is the standby's, replayed up to before the write.
      expect(await titles(t)).not.toContain('written on the primary');
      // Marking it read decides on the primary, which has it.
      const marked = await t.api('POST', '/notifications/read', { token: customer.token, body: { ids: [id] } });
      expect(marked.status).toBe(200);
      expect(marked.body.data.marked).toBe(1);
      const cookie = marked.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^cw_read_after=[0-9A-F]+\/[0-9A-F]+; Path=\/api; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
      // The writer's next screen on this instance: their own write, though the standby is still paused.
      expect(await titles(t)).toContain('written on the primary (read)');
      // On another instance: with the cookie their browser sends, the same; without it, the standby's list.
      const sent = { cookie: cookie.split(';')[0]! };
      expect(await titles(t2, sent)).toContain('written on the primary (read)');
      expect(await titles(t2)).not.toContain('written on the primary');
      // An API client that keeps no cookies sends the position back in a header instead.
      const position = marked.headers.get('cw-read-after') ?? '';
      expect(position).toBe(/^cw_read_after=([^;]+)/.exec(cookie)![1]);
      expect(await titles(t2, { 'cw-read-after': position })).toContain('written on the primary (read)');
      expect(await titles(t2, { 'cw-read-after': 'not a position' })).not.toContain('written on the primary');
      expect(replicaOf(t2).status().state).toBe('up');
    },
  );

  it.skipIf(!!unavailable)('lagging past the limit: reads go to the primary, the instance stays ready', async () => {
    // Replay is still paused since the last test; the primary has moved on.
    await until('lagging', () => replicaOf(t2).status().state === 'lagging', (MAX_LAG + 5) * 1000);
    expect(await titles(t2)).toContain('written on the primary (read)');
    const ready = await t2.api('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.replica.state).toBe('lagging');
    expect(ready.body.data.replica.lag_seconds).toBeGreaterThan(MAX_LAG);
    const metrics = await (await fetch(`${t2.url}/metrics`)).text();
    expect(metrics).toMatch(/^cw_replica_up 0$/m);
    expect(Number(/^cw_replica_lag_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(MAX_LAG);
    expect(metrics).toMatch(/^cw_replica_reads_total\{target="primary"\} \d+$/m);

    await sb!.onStandby('select pg_wal_replay_resume()');
    await until('up again', () => replicaOf(t2).status().state === 'up');
    const before = await replicaReads(t2);
    expect(await titles(t2)).toContain('written on the primary (read)'); // replayed, read from the replica
    expect(await replicaReads(t2)).toBe(before + 1);
  });

  it.skipIf(!!unavailable)('the standby stopped mid-run: no request fails; reads return once it is back', async () => {
    await caughtUp();
    const wallet = walletOf(customer);
    const today = new Date().toISOString().slice(0, 10);
    const reads = [
      '/notifications',
      `/reports/view-wallet-transactions?wallet=${wallet}`,
      `/reports/view-wallet-transactions?wallet=${wallet}&format=csv`,
      `/reports/wallet-statement?wallet=${wallet}&start_date=${today}&end_date=${today}`,
    ];
    const statuses: number[] = [];
    let stopped = false;
    const worker = async (n: number) => {
      for (let i = n; !stopped; i++) {
        const res = await fetch(`${t.url}/api/v1${reads[i % reads.length]}`, {
          headers: { authorization: `Bearer ${customer.token}` },
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    };
    const workers = [0, 1, 2].map(worker);
    await new Promise((r) => setTimeout(r, 500));
    const beforeStop = statuses.length;
    await sb!.stopStandby('fast');
    await new Promise((r) => setTimeout(r, 1_500));
    stopped = true;
    await Promise.all(workers);
    expect(beforeStop).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(beforeStop);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(replicaOf(t).status().state).toBe('down');
    const ready = await t.api('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.replica).toEqual({ state: 'down', lag_seconds: null });

    await sb!.startStandby();
    await until('up after the restart', () => replicaOf(t).status().state === 'up');
    const before = await replicaReads(t);
    expect(await titles(t)).toContain('written on the primary (read)');
    expect(await replicaReads(t)).toBe(before + 1);
  });
});
