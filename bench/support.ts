/**
 * What the benchmarks share: the real app on a fresh database of its own, listening on a real
 * port (built like tests/integration/support/app.ts, without vitest), a memory sampler and a
 * few helpers. Nothing here is imported by the product.
 *
 * Database: PGlite in a temporary directory on disk (as `npm start` runs it), or, when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL names a PostgreSQL server, a scratch database
 * `cw_bench_*` created on that server, migrated, and dropped at the end. The database named in
 * the URL itself is never written to. DATABASE_URL (the app's own database) is deliberately not
 * used: a benchmark writes a million rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { type Database, openDatabase } from '../server/db/client';
import type { TestApp } from '../tests/integration/support/app';
import { type SentMail, memoryMailer, serveApp } from '../tests/integration/support/http';

export interface BenchApp extends TestApp {
  database: Database;
  /** 'PGlite (on disk)' or 'PostgreSQL 16.4 (scratch database cw_bench_…)' */
  label: string;
  /** the scratch database's URL on PostgreSQL; null on PGlite */
  databaseUrl: string | null;
}

/** A whole number from the environment (underscores allowed: 1_000_000), or the default. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name]?.trim().replace(/_/g, '');
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive whole number, not ${process.env[name]}`);
  return n;
}

/** The PostgreSQL server benchmarks may create scratch databases on, or '' for PGlite. */
export const scratchServer = () =>
  (process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim()) ?? '';

/** A fresh database `cw_bench_*` on the server at `base`; drop() removes it. */
export async function scratchPostgres(
  base: string,
): Promise<{ url: string; drop: () => Promise<void>; version: string }> {
  const name = `cw_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    version: `PostgreSQL ${version} (scratch database ${name})`,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The app as production builds it (NODE_ENV=production, no jobs, no SPA), on a fresh, migrated database. */
export async function startBenchApp(): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-bench-'));
  const server = scratchServer();
  // BENCH_REUSE_DATABASE: a database kept by an earlier run (BENCH_KEEP_DATABASE=1), already loaded; never dropped.
  const reuse = process.env.BENCH_REUSE_DATABASE?.trim();
  const scratch = reuse
    ? { url: reuse, version: `PostgreSQL (reused database ${new URL(reuse).pathname.slice(1)})`, drop: async () => {} }
    : server
      ? await scratchPostgres(server)
      : null;
  const database = scratch
    ? await openDatabase({ url: scratch.url, poolSize: 10 })
    : await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await database.migrate();
  const label = scratch
    ? scratch.version
    : `PGlite ${await pgliteVersion(database)} (on disk, ${path.join(dataDir, 'db')})`;

  const config = loadConfig(
    {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      SERVE_SPA: 'false',
      RUN_JOBS: 'false',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'info',
      // production requires one; this is the public BIP39 test phrase's account key ("abandon … about")
      CHAIN: 'trongrid',
      TRON_XPUB:
        'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd',
    },
    { encryptionKey: Buffer.alloc(32, 7) },
  );
  const mails: SentMail[] = [];
  // Request logs are written (as in production) but go nowhere.
  const logStream = new Writable({ write: (_chunk, _enc, cb) => cb() });
  const { app, url, clock, api } = await serveApp({ config, database, mailer: memoryMailer(mails), logStream });
  return {
    url,
    app,
    ctx: app.ctx,
    database,
    label,
    databaseUrl: scratch?.url ?? null,
    mails,
    logs: [],
    clock,
    api,
    async close() {
      await app.close();
      // pg's pool.end() resolves before its sockets are closed, so the forced drop below may end
      // a backend under a closing client; that error must not crash the benchmark at teardown.
      if (scratch) (clientOf(database) as unknown as pg.Pool).on('error', () => undefined);
      await database.close();
      // BENCH_KEEP_DATABASE=1 leaves the scratch database, or PGlite's directory, for profiling by hand (remove it after).
      if (process.env.BENCH_KEEP_DATABASE === '1') {
        process.stdout.write(`  kept the database: ${scratch?.url ?? path.join(dataDir, 'db')}\n`);
        return;
      }
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function pgliteVersion(database: Database): Promise<string> {
  const rows = await rowsOf<{ server_version: string }>(database, 'show server_version');
  return `(PostgreSQL ${rows[0]?.server_version ?? '?'})`;
}

/** The driver under Drizzle: a PGlite or a pg.Pool, both answering query(text, params) with { rows }. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export const clientOf = (database: Database) => (database.db as unknown as { $client: Queryable }).$client;

export async function rowsOf<T>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
  return (await clientOf(database).query(text, params)).rows as T[];
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
}

/** Samples the process's RSS every `everyMs` from a worker thread, which keeps ticking while the main thread is busy. */
const RSS_WORKER = `
  const { parentPort, workerData } = require('node:worker_threads');
  let peak = process.memoryUsage.rss();
  let samples = 1;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); samples++; }, workerData.everyMs);
  parentPort.on('message', () => { clearInterval(timer); parentPort.postMessage({ peak: Math.max(peak, process.memoryUsage.rss()), samples: samples + 1 }); });
  parentPort.postMessage('ready');
`;

/**
 * Samples process memory from now until stop(). Server, client and (with PGlite) the database
 * all live in this one process, so RSS covers all three. PGlite runs its queries on the main
 * thread and blocks it meanwhile, so RSS is sampled by a worker thread every `everyMs`; the
 * main thread's heap can only be read when it is free: every `everyMs` and at every `tick()`
 * (call it per chunk received).
 */
export async function sampleMemory(everyMs = 100) {
  const worker = new Worker(RSS_WORKER, { eval: true, workerData: { everyMs } });
  await new Promise((resolve) => worker.once('message', resolve));
  const take = (): MemorySample => {
    const m = process.memoryUsage();
    return { rss: m.rss, heapUsed: m.heapUsed, external: m.external + m.arrayBuffers };
  };
  const baseline = take();
  const peak = { ...baseline };
  let heapSamples = 1;
  const tick = () => {
    const s = take();
    heapSamples++;
    peak.rss = Math.max(peak.rss, s.rss);
    peak.heapUsed = Math.max(peak.heapUsed, s.heapUsed);
    peak.external = Math.max(peak.external, s.external);
  };
  const timer = setInterval(tick, everyMs);
  return {
    tick,
    async stop() {
      clearInterval(timer);
      tick();
      const fromWorker = await new Promise<{ peak: number; samples: number }>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage('stop');
      });
      await worker.terminate();
      peak.rss = Math.max(peak.rss, fromWorker.peak);
      return { baseline, peak, heapSamples, rssSamples: fromWorker.samples };
    },
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Runs `step(from, to)` over 1..n in batches, showing progress (on a terminal in place, in a log
 * every 30 s); returns the milliseconds taken.
 */
export async function inBatches(
  n: number,
  size: number,
  what: string,
  step: (from: number, to: number) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  let shown = started;
  for (let from = 1; from <= n; from += size) {
    const to = Math.min(n, from + size - 1);
    await step(from, to);
    const now = performance.now();
    const line = `  ${what}: ${int(to)} / ${int(n)} (${int((to / (now - started)) * 1000)} rows/s)`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line}   `);
    else if (now - shown >= 30_000 && to < n) {
      process.stdout.write(`${line}\n`);
      shown = now;
    }
  }
  const ms = performance.now() - started;
  process.stdout.write(
    `${process.stdout.isTTY ? '\r' : ''}  ${what}: ${int(n)} in ${secs(ms)} (${int((n / ms) * 1000)} rows/s)        \n`,
  );
  return ms;
}

/**
 * A bulk load of synthetic history, in batches that each leave the balances behind until the
 * end: the ledger's commit-time guards are off for it (this database is the benchmark's own),
 * and back on before anything is measured. `load` must leave every balance at its last entry.
 */
export async function withoutLedgerGuards<T>(
  exec: (text: string) => Promise<unknown>,
  load: () => Promise<T>,
): Promise<T> {
  const guards = [
    ['ledger_entries', 'ledger_entries_guard'],
    ['ledger_accounts', 'ledger_accounts_balance_guard'],
  ];
  for (const [table, trigger] of guards) await exec(`alter table ${table} disable trigger ${trigger}`);
  try {
    return await load();
  } finally {
    for (const [table, trigger] of guards) await exec(`alter table ${table} enable trigger ${trigger}`);
  }
}
