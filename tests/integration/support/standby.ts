import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL primary and a streaming standby of its own, in a temporary directory on two free ports: the
 * machine's server allows no replication connections and its configuration is not ours to change. initdb and
 * postgres refuse to run as root, so as root (CI) they run as the `postgres` user in directories it owns.
 */
export interface Standby {
  primaryUrl: string;
  replicaUrl: string;
  /** a statement as superuser on the standby (pg_wal_replay_pause() and the like) */
  onStandby(sql: string): Promise<unknown[]>;
  stopStandby(mode?: 'fast' | 'immediate'): Promise<void>;
  startStandby(): Promise<void>;
  /** Stops both servers at once and removes their directories; safe to call twice. */
  destroy(): Promise<void>;
}

/** Why this machine cannot make one (the test then says so and skips), or null. */
export function standbyUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'])
    if (!existsSync(path.join(BIN, tool))) return `${BIN}/${tool} is missing (PostgreSQL 15's server binaries)`;
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
    return 'running as root without runuser to start PostgreSQL as the postgres user';
  return null;
}

const asRoot = process.getuid?.() === 0;
const pgUser = () => {
  const { uid, gid } = os.userInfo({ encoding: 'utf8' });
  if (!asRoot) return { uid, gid };
  const ids = (flag: string) => Number.parseInt(execFileSync('id', [flag, 'postgres']).toString(), 10);
  return { uid: ids('-u'), gid: ids('-g') };
};

async function tool(name: string, args: string[]) {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, name), ...args]]
    : [path.join(BIN, name), args];
  return run(cmd, argv, { timeout: 60_000 });
}

const settings = (port: number, sockets: string) =>
  [
    '',
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${sockets}'`,
    'wal_level = replica',
    'max_wal_senders = 4',
    'hot_standby = on',
    'max_connections = 40',
    'shared_buffers = 16MB',
    // A test cluster: losing it in a crash loses nothing.
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    'wal_receiver_status_interval = 1s',
    '',
  ].join('\n');

async function waitForConnections(url: string, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.query('select 1');
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await c.end().catch(() => undefined);
    }
  }
}

export async function makeStandby(database: string, prepare: (primaryUrl: string) => Promise<void>): Promise<Standby> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'cw-standby-'));
  const { uid, gid } = pgUser();
  if (asRoot) chownSync(base, uid, gid);
  const primaryDir = path.join(base, 'primary');
  const standbyDir = path.join(base, 'standby');
  const [p1, p2] = [await freePort(), await freePort()];
  const started: string[] = [];
  const pgCtl = (dir: string, ...args: string[]) => tool('pg_ctl', ['-D', dir, ...args]);
  const destroy = async () => {
    await Promise.all(started.splice(0).map((dir) => pgCtl(dir, '-m', 'immediate', 'stop').catch(() => undefined)));
    rmSync(base, { recursive: true, force: true });
  };
  try {
    await tool('initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    // initdb's pg_hba.conf with --auth=trust already lets 127.0.0.1 replicate.
    appendFileSync(path.join(primaryDir, 'postgresql.conf'), settings(p1, base));
    await pgCtl(primaryDir, '-w', '-l', path.join(base, 'primary.log'), 'start');
    started.push(primaryDir);
    const admin = `postgres://postgres@127.0.0.1:${p1}/postgres`;
    await waitForConnections(admin);
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`create database ${database}`);
    await c.end();
    const primaryUrl = `postgres://postgres@127.0.0.1:${p1}/${database}`;
    await prepare(primaryUrl);
    await tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(p1),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    // The copy has the primary's settings; later lines win.
    appendFileSync(path.join(standbyDir, 'postgresql.conf'), settings(p2, base));
    const replicaUrl = `postgres://postgres@127.0.0.1:${p2}/${database}`;
    const startStandby = async () => {
      await pgCtl(standbyDir, '-w', '-l', path.join(base, 'standby.log'), 'start');
      if (!started.includes(standbyDir)) started.push(standbyDir);
      await waitForConnections(replicaUrl);
    };
    await startStandby();
    return {
      primaryUrl,
      replicaUrl,
      async onStandby(sql) {
        const s = new pg.Client({ connectionString: replicaUrl });
        await s.connect();
        try {
          return (await s.query(sql)).rows;
        } finally {
          await s.end();
        }
      },
      async stopStandby(mode = 'fast') {
        await pgCtl(standbyDir, '-m', mode, '-w', 'stop');
        started.splice(started.indexOf(standbyDir), 1);
      },
      startStandby,
      destroy,
    };
  } catch (err) {
    await destroy();
    throw err;
  }
}
