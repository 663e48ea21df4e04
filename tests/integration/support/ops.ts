import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Config } from '../../../server/config';
import { checkEncryptionKey } from '../../../server/db/key-check';
import { type TestApp, startTestApp } from './app';

/** Where the operator commands work: an embedded database's DATA_DIR, or an empty PostgreSQL database of its own. */
export interface OpsTarget {
  env: Record<string, string>;
  app(overrides?: Partial<Config>): Promise<TestApp>;
  drop(): Promise<void>;
}

export async function emptyTarget(): Promise<OpsTarget> {
  const shared = inject('postgresUrl');
  if (!shared) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-ops-'));
    return {
      env: { DATA_DIR: dataDir },
      app: (overrides) => startTestApp(overrides, { pgliteDir: path.join(dataDir, 'db') }),
      drop: async () => undefined,
    };
  }
  const name = `cw_ops_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: shared });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cw-ops-')) },
    app: (overrides) => startTestApp(overrides, { postgresUrl: url.toString() }),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** An app on the migrated target that has checked its key, as a server does at start (records it on a new database). */
export async function appWithKeyCheck(target: OpsTarget, overrides: Partial<Config>): Promise<TestApp> {
  const t = await target.app(overrides);
  await t.ctx.database.migrate();
  await checkEncryptionKey(t.ctx.database, t.ctx.config.encryptionKey);
  return t;
}

/** `npm run cli -- …` in a process of its own. */
export function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: path.resolve(__dirname, '../../..'),
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
