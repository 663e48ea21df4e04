import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from './support/ports';
import { type PrivateDatabase, privatePostgres } from './support/private-db';

/**
 * The real entry point, as `npm start` runs it (scripts/start.mjs: the compiled server, rebuilt first if
 * its sources changed; SERVE_SPA=false, so no web app is built): configuration, seeding, health and shutdown.
 */

const running: ChildProcess[] = [];
const groups: number[] = [];
const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  for (const g of groups.splice(0)) if (groupAlive(g)) process.kill(-g, 'SIGKILL');
});

async function start(env: Record<string, string>) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-proc-'));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SERVE_SPA: 'false',
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output}`);
    const ok = await fetch(`${base}/api/v1/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error(`server did not become healthy: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = (email: string, password: string) =>
    fetch(`${base}/api/v1/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    }).then((r) => r.status);
  const stop = () =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return { base, login, stop, output: () => output, dataDir: env.DATA_DIR ?? dataDir };
}

const postgres = inject('postgresUrl');
// A database of this file's own (servers run the issuer worker); every instance on it seals with one key.
let own: PrivateDatabase | null = null;
beforeAll(async () => {
  own = await privatePostgres();
}, 120_000);
afterAll(() => own?.drop());
const dbEnv = (): Record<string, string> => (own ? { DATABASE_URL: own.url, ENCRYPTION_KEY: '07'.repeat(32) } : {});

/** Runs the server where it is expected not to start; resolves with its exit code and error output. */
async function refusedStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      PATH: process.env.PATH,
      SERVE_SPA: 'false',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      RUN_JOBS: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const code = await new Promise((r) => child.once('exit', r));
  return { code, err };
}

describe('the server process', () => {
  it('with SEED=none starts empty, creates the ADMIN_EMAIL Super-Admin, and stops on SIGTERM', async () => {
    const email = `ops.${Date.now()}@example.com`;
    const s = await start({ ...dbEnv(), SEED: 'none', ADMIN_EMAIL: email, ADMIN_PASSWORD: 'Ops!Passw0rd1' });
    expect(await s.login(email, 'Ops!Passw0rd1')).toBe(200);
    if (!postgres) expect(await s.login('ama@example.com', 'Demo!2026pass')).toBe(401);
    expect(s.output()).not.toContain('Demo accounts');
    expect(await s.stop()).toBe(0);
  }, 120_000);

  it.skipIf(!!postgres)(
    'seeds the demo accounts into a new embedded database and prints them',
    async () => {
      const s = await start({});
      for (const email of [
        'super@cardwallet.example',
        'admin@cardwallet.example',
        'ama@example.com',
        'kofi@acme.example.com',
        'efua@acme.example.com',
      ]) {
        expect(await s.login(email, 'Demo!2026pass')).toBe(200);
      }
      expect(s.output()).toContain('Demo accounts (password for all: Demo!2026pass');
      expect(s.output()).toContain('is running at http://localhost:');
      expect(await s.stop()).toBe(0);
    },
    120_000,
  );

  it('ends within 10 seconds of SIGTERM when whatever started it exits at once and nobody reads its output', async () => {
    // A supervisor: starts the server in a process group of its own with piped output it never
    // reads (the pipe fills with request logs), then signals the group and exits at once.
    const supervisor = `
      import { spawn } from 'node:child_process';
      const [port, dataDir, env] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
      const child = spawn(process.execPath, ['scripts/start.mjs'], {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, SEED: 'none', SERVE_SPA: 'false', LOG_LEVEL: 'info', RUN_JOBS: 'false', ...env },
      });
      const health = () => fetch('http://127.0.0.1:' + port + '/api/v1/health').then((r) => r.ok, () => false);
      const until = Date.now() + 100000;
      while (!(await health())) {
        if (Date.now() > until) process.exit(3);
        await new Promise((r) => setTimeout(r, 200));
      }
      for (let i = 0; i < 150; i++) await Promise.all(Array.from({ length: 8 }, health));
      process.stdout.write(JSON.stringify({ pgid: child.pid }));
      process.kill(-child.pid, 'SIGTERM');
      process.exit(0);
    `;
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-proc-'));
    const parent = spawn(
      process.execPath,
      ['--input-type=module', '-e', supervisor, String(port), dataDir, JSON.stringify(dbEnv())],
      {
        cwd: path.resolve(__dirname, '../..'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let said = '';
    parent.stdout!.on('data', (d) => (said += d));
    expect(await new Promise((r) => parent.once('exit', r))).toBe(0);
    const { pgid } = JSON.parse(said) as { pgid: number };
    groups.push(pgid);
    const signalled = Date.now();
    while (groupAlive(pgid) && Date.now() - signalled < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(pgid), 'the server still runs 15 s after SIGTERM').toBe(false);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // A graceful end: the embedded database's lock is released, not left to a killed process.
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 120_000);

  it('refuses to start with a bad configuration and says why', async () => {
    const { code, err } = await refusedStart({
      PORT: 'not-a-port',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cw-proc-')),
    });
    expect(code).toBe(2);
    expect(err).toContain('PORT');
  });

  it('requires ENCRYPTION_KEY with DATABASE_URL outside development', async () => {
    const { code, err } = await refusedStart({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cw-proc-')),
    });
    expect(code).toBe(2);
    expect(err).toContain('ENCRYPTION_KEY is required with DATABASE_URL outside development');
  });

  it.skipIf(!!postgres)(
    'refuses to start on a database whose data was sealed under another key',
    async () => {
      const s = await start({ SEED: 'none', ENCRYPTION_KEY: 'a1'.repeat(32) });
      const dataDir = s.dataDir;
      expect(await s.stop()).toBe(0);
      const { code, err } = await refusedStart({ SEED: 'none', DATA_DIR: dataDir, ENCRYPTION_KEY: 'b2'.repeat(32) });
      expect(code).toBe(2);
      expect(err).toContain('ENCRYPTION_KEY does not match the key this database was first started with');
      // the right key still opens it
      const again = await start({ SEED: 'none', DATA_DIR: dataDir, ENCRYPTION_KEY: 'a1'.repeat(32) });
      expect(await again.stop()).toBe(0);
    },
    120_000,
  );
});
