import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { type Config, childEnv, loadConfig } from '../config';
import { keyCheckValue } from '../db/key-check';
import { acquireEmbeddedLock } from '../db/lock';
import { keysOf } from '../lib/crypto';

/**
 * A backup is one file: a first line naming the format, a line of JSON saying what it holds, then the
 * database itself (PGlite: its data directory as a gzipped tar; PostgreSQL: pg_dump's custom format).
 * Restore reads the header first and refuses a foreign, damaged or mismatched file before writing anything.
 */
const MAGIC = 'CARDWALLET-BACKUP 1';

interface BackupHeader {
  source: 'pglite' | 'postgres';
  payload: 'pglite-datadir-tgz' | 'pg_dump-custom';
  /** the last migration applied in the backed-up database (its tag) */
  schema: string;
  createdAt: string;
  /** the key check of the key its values are sealed under: a restore with another key is refused */
  keyCheck: string;
  bytes: number;
  sha256: string;
}

interface DbFacts {
  schema: string;
  keyCheck: string;
}

class BackupError extends Error {}

const journal = (): Promise<{ entries: { tag: string; when: number }[] }> =>
  readFile(new URL('../db/migrations/meta/_journal.json', import.meta.url), 'utf8').then(JSON.parse);

async function facts(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<DbFacts> {
  const [m] = await query('select max(created_at) as at from drizzle.__drizzle_migrations');
  const [k] = await query('select check_value from key_checks where id = 1');
  if (!m?.at || !k) throw new BackupError('The database is not one of this application (no migrations or key check).');
  const tag = (await journal()).entries.find((e) => e.when === Number(m.at))?.tag;
  return {
    schema: tag ?? `unknown migration of ${new Date(Number(m.at)).toISOString()}`,
    keyCheck: String(k.check_value),
  };
}

// ---- PGlite ----

async function openPglite(dataDir: string, load?: Blob) {
  const [{ PGlite }, { pgliteExtensions }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('../db/client'),
  ]);
  return PGlite.create(dataDir, { extensions: await pgliteExtensions(), ...(load ? { loadDataDir: load } : {}) });
}

const pgliteDir = (config: Config) => path.join(config.dataDir, 'db');
const pgliteHasData = (dir: string) => existsSync(dir) && readdirSync(dir).length > 0;

async function backupPglite(config: Config, file: string): Promise<BackupHeader> {
  const dir = pgliteDir(config);
  if (!pgliteHasData(dir)) throw new BackupError(`There is no embedded database in ${dir}.`);
  const pg = await openPglite(dir);
  try {
    const f = await facts(async (t) => (await pg.query<Record<string, unknown>>(t)).rows);
    const tar = Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
    const header = headerOf('pglite', f, tar.length, createHash('sha256').update(tar).digest('hex'));
    await writeFile(file, Buffer.concat([Buffer.from(headerText(header)), tar]), { mode: 0o600 });
    return header;
  } finally {
    await pg.close();
  }
}

async function restorePglite(config: Config, file: string, at: number, force: boolean): Promise<string> {
  const dir = pgliteDir(config);
  let aside = '';
  if (pgliteHasData(dir)) {
    if (!force) throw new BackupError(`${dir} already holds a database: restore refuses it without --force.`);
    // Moved aside, not deleted: a restore over the wrong directory can be undone.
    aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dir, aside);
  }
  const payload = (await readFile(file)).subarray(at);
  try {
    const pg = await openPglite(dir, new Blob([payload]));
    await pg.query('select 1 from key_checks');
    await pg.close();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    if (aside) renameSync(aside, dir);
    throw new BackupError(`The backup could not be loaded: ${(err as Error).message}`);
  }
  return aside ? ` (the database it replaced is in ${aside})` : '';
}

// ---- PostgreSQL ----

/** pg_dump and pg_restore get the password through the environment, never on a command line others can read. */
function pgTarget(url: string) {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: childEnv(password ? { PGPASSWORD: password } : {}) };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv, stdout?: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    if (stdout) child.stdout!.pipe(stdout, { end: false });
    child.on('error', (e) =>
      reject(
        (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? new BackupError(
              `${tool} was not found on PATH: install PostgreSQL's client tools (the server's major version).`,
            )
          : e,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${tool} failed (${code}): ${err.trim()}`)),
    );
  });
}

async function withPg<T>(
  url: string,
  fn: (q: (t: string) => Promise<Record<string, unknown>[]>) => Promise<T>,
): Promise<T> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(async (t) => (await client.query(t)).rows);
  } finally {
    await client.end();
  }
}

async function backupPostgres(url: string, file: string): Promise<BackupHeader> {
  const f = await withPg(url, facts);
  const { dbname, env } = pgTarget(url);
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  try {
    await run('pg_dump', ['-Fc', '--no-owner', '--no-privileges', `--dbname=${dbname}`], env, out);
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const hash = createHash('sha256');
    await pipeline(createReadStream(partial), hash);
    const header = headerOf('postgres', f, (await stat(partial)).size, hash.digest('hex'));
    await writeFile(file, headerText(header), { mode: 0o600 });
    await pipeline(createReadStream(partial), createWriteStream(file, { flags: 'a' }));
    return header;
  } finally {
    out.destroy();
    rmSync(partial, { force: true });
  }
}

async function restorePostgres(url: string, file: string, at: number, force: boolean): Promise<string> {
  const tables = await withPg(url, (q) =>
    q(`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`),
  );
  if (Number(tables[0]?.n) > 0) {
    if (!force) throw new BackupError('The database already holds tables: restore refuses it without --force.');
    await withPg(url, async (q) => {
      await q('drop schema if exists drizzle cascade');
      await q('drop schema public cascade');
      await q('create schema public');
    });
  }
  const { dbname, env } = pgTarget(url);
  const dump = `${file}.restoring`;
  try {
    await pipeline(createReadStream(file, { start: at }), createWriteStream(dump, { mode: 0o600 }));
    // One transaction: a restore that fails leaves the database as it was.
    await run(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, dump],
      env,
    );
  } finally {
    rmSync(dump, { force: true });
  }
  return '';
}

// ---- the file ----

const headerOf = (source: BackupHeader['source'], f: DbFacts, bytes: number, sha256: string): BackupHeader => ({
  source,
  payload: source === 'pglite' ? 'pglite-datadir-tgz' : 'pg_dump-custom',
  schema: f.schema,
  createdAt: new Date().toISOString(),
  keyCheck: f.keyCheck,
  bytes,
  sha256,
});

const headerText = (h: BackupHeader) => `${MAGIC}\n${JSON.stringify(h)}\n`;

/** The header and where the payload starts; a file that is not a whole backup of ours is refused here. */
async function readBackup(file: string): Promise<{ header: BackupHeader; at: number }> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const fh = await open(file, 'r');
  const head = Buffer.alloc(64 * 1024);
  const { bytesRead } = await fh.read(head, 0, head.length, 0);
  await fh.close();
  const first = head.indexOf(10);
  const second = first < 0 ? -1 : head.indexOf(10, first + 1);
  if (head.subarray(0, first).toString() !== MAGIC || second < 0 || second >= bytesRead)
    throw new BackupError(`${file} is not a Cardwallet backup.`);
  let header: BackupHeader;
  try {
    header = JSON.parse(head.subarray(first + 1, second).toString());
  } catch {
    throw new BackupError(`${file} is not a Cardwallet backup: its header is damaged.`);
  }
  const at = second + 1;
  const size = (await stat(file)).size - at;
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { start: at }), hash);
  if (size !== header.bytes || hash.digest('hex') !== header.sha256)
    throw new BackupError(`${file} is damaged or incomplete: its content does not match its checksum.`);
  return { header, at };
}

async function checkFits(config: Config, header: BackupHeader): Promise<void> {
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  if (header.source !== kind)
    throw new BackupError(
      `This is a backup of ${header.source === 'pglite' ? 'an embedded (PGlite)' : 'a PostgreSQL'} database; this configuration uses ${kind === 'pglite' ? 'the embedded database' : 'PostgreSQL (DATABASE_URL)'}.`,
    );
  const known = (await journal()).entries.map((e) => e.tag);
  if (!known.includes(header.schema))
    throw new BackupError(
      `The backup's schema (${header.schema}) is newer than this version knows: restore it with the version that made it.`,
    );
  if (!keysOf(config.encryptionKey).some((k) => keyCheckValue(k) === header.keyCheck))
    throw new BackupError(
      'The backup was sealed under another key than ENCRYPTION_KEY (or ENCRYPTION_KEY_PREVIOUS): its 2FA secrets, card data and webhook secrets could not be opened. Restore it with the key it was made with.',
    );
}

export async function backupCommand(command: 'backup' | 'restore', args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { force: { type: 'boolean' } } });
  const file = positionals[0];
  if (!file) {
    process.stderr.write(
      `${command} needs a file: npm run cli -- ${command} <file>${command === 'restore' ? ' [--force]' : ''}\n`,
    );
    return 2;
  }
  const config = loadConfig();
  // The embedded database is one process's at a time: not while a server runs on it.
  const release = config.databaseUrl ? () => undefined : acquireEmbeddedLock(config.dataDir);
  try {
    if (command === 'backup') {
      const h = config.databaseUrl ? await backupPostgres(config.databaseUrl, file) : await backupPglite(config, file);
      process.stdout.write(
        `Backup of the ${h.source} database at ${h.schema} written to ${file} (${h.bytes} bytes).\n`,
      );
      return 0;
    }
    const { header, at } = await readBackup(file);
    await checkFits(config, header);
    const note = config.databaseUrl
      ? await restorePostgres(config.databaseUrl, file, at, !!values.force)
      : await restorePglite(config, file, at, !!values.force);
    process.stdout.write(
      `Restored the backup of ${header.createdAt} (${header.schema})${note}. Start the server: it applies any newer migrations.\n`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 1;
  } finally {
    release();
  }
}
