import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ReadReplica, type ReplicaOptions, openReplica } from './replica';
import { SESSION_OPTIONS } from './session-options';
import * as schema from './schema';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** the read replica (DATABASE_REPLICA_URL, PostgreSQL only), or null: everything reads the primary */
  replica: ReadReplica<Db> | null;
  migrate(): Promise<void>;
  /** Ends every connection; resolved once they are closed, not only asked to close. */
  close(): Promise<void>;
  /**
   * Told when the server ends a pooled connection while it is idle (a restart, a failover, an administrator):
   * the pool drops it and opens another on the next query; nothing else is affected.
   */
  onConnectionLost(handler: (err: Error) => void): void;
  /**
   * One statement outside Drizzle, for the hottest paths: a named prepared statement on each
   * server connection (parsed and planned once), a plain query on the embedded database.
   */
  query<T = Record<string, unknown>>(name: string, text: string, params: unknown[]): Promise<T[]>;
  /** LISTEN on a channel: notifications committed by any connection or instance reach `on.message`. */
  listen(channel: string, on: ListenHandlers): Promise<Subscription>;
}

interface ListenHandlers {
  message(payload: string): void;
  /** listening (again): from now on no notification is missed */
  up(): void;
  /** the listening connection is lost: notifications may be missed until the next up() */
  down(): void;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * Channels every pooled connection listens on, so that a change this process commits reaches
 * its listeners before the commit's promise resolves (PostgreSQL sends a session its own
 * notifications before ReadyForQuery); other instances' changes arrive through the listening
 * connection of `listen`.
 */
export const POOL_CHANNELS = ['cw_auth'] as const;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** How long close() waits for the pool's connections to report they are closed. */
const CLOSE_WAIT_MS = 2_000;
/** Arbitrary constant: serialises migrations when several instances start at once. */
const MIGRATION_LOCK = 727274;

export interface OpenOptions {
  url?: string;
  /** directory of the embedded database; ignored with url */
  dataDir?: string;
  /** an already open PGlite (tests load a migrated template into memory) */
  pglite?: PGlite;
  poolSize?: number;
  /** a streaming standby of url's database, for reads that may be a little behind */
  replica?: ReplicaOptions;
}

/**
 * Whether the newest migration in the folder is already applied, by the rule drizzle's migrator
 * applies them (one whose folder timestamp is later than the newest applied one's). A migrated
 * database then starts with one small query instead of the migrator's DDL and transaction.
 */
async function upToDate(newestApplied: () => Promise<unknown>): Promise<boolean> {
  const newest = Math.max(0, ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  try {
    return Number(await newestApplied()) >= newest;
  } catch {
    return false; // no migrations table yet: a new database
  }
}
const NEWEST_APPLIED = 'select max(created_at) as created_at from drizzle.__drizzle_migrations';

/**
 * The extensions every embedded database is opened with: pg_trgm for the lists' contains-search
 * indexes (migration 0016). A data directory that has them must be opened with them again.
 */
export async function pgliteExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

let pgliteWasm: Promise<WebAssembly.Module> | undefined;
/** PGlite's WebAssembly, compiled off the main thread from the moment this is first called (once per process). */
function compilePglite(): Promise<WebAssembly.Module> {
  if (!pgliteWasm) {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    pgliteWasm = WebAssembly.compile(readFileSync(path.join(path.dirname(entry), 'pglite.wasm')));
    // Awaited by its caller; until then a failure must not count as an unhandled rejection.
    pgliteWasm.catch(() => undefined);
  }
  return pgliteWasm;
}

// Each driver is imported only when used: a server loads PGlite or pg, not both.
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const handlers = new Map<string, Set<ListenHandlers>>();
    const pool = new pg.Pool({
      connectionString: opts.url,
      options: SESSION_OPTIONS,
      max: opts.poolSize ?? 10,
      // Awaited before the connection is handed out, so it listens before its first query.
      onConnect: (async (client: import('pg').ClientBase) => {
        client.on('notification', (n) => {
          for (const h of handlers.get(n.channel) ?? []) h.message(n.payload ?? '');
        });
        for (const channel of POOL_CHANNELS) await client.query(`LISTEN ${channel}`);
      }) as (client: import('pg').ClientBase) => void,
    });
    // Without a listener the pool's 'error' (an idle connection the server ended) would end the process.
    let connectionLost = (_err: Error) => {};
    pool.on('error', (err) => connectionLost(err));
    // pool.end() resolves once it has asked each connection to close; close() waits until they have.
    const open = new Set<import('pg').PoolClient>();
    let drained: (() => void) | undefined;
    pool.on('connect', (c) => open.add(c));
    pool.on('remove', (c) => {
      open.delete(c);
      if (!open.size) drained?.();
    });
    // Parse bigint counts as strings is pg's default; we convert explicitly where needed.
    const db = drizzle(pool, { schema }) as unknown as Db;
    const replica = opts.replica ? openReplica(pg, drizzle as never, schema, pool, db, opts.replica) : null;
    return {
      db,
      kind: 'postgres',
      replica,
      onConnectionLost(handler) {
        connectionLost = handler;
      },
      async query(name, text, params) {
        return (await pool.query({ name, text, values: params })).rows;
      },
      async migrate() {
        if (await upToDate(async () => (await pool.query(NEWEST_APPLIED)).rows[0]?.created_at)) return;
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migrate(drizzle(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
          client.release();
        }
      },
      async close() {
        await replica?.close();
        const closed = open.size ? new Promise<void>((resolve) => (drained = resolve)) : undefined;
        await pool.end();
        // Bounded: a socket that never reports its end must not hold a shutdown.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
        clearTimeout(timer);
      },
      async listen(channel, on) {
        if (!(POOL_CHANNELS as readonly string[]).includes(channel)) throw new Error(`add ${channel} to POOL_CHANNELS`);
        const mine = handlers.get(channel) ?? new Set<ListenHandlers>();
        handlers.set(channel, mine.add(on));
        const own = await listenOnServer(pg, opts.url!, channel, on);
        return {
          async close() {
            mine.delete(on);
            await own.close();
          },
        };
      },
    };
  }
  const wasm = opts.pglite ? undefined : compilePglite();
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  let client = opts.pglite;
  if (!client) {
    if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
    client = await PGlite.create(opts.dataDir ?? 'memory://', {
      pgliteWasmModule: await wasm,
      extensions: await pgliteExtensions(),
    });
  }
  const pgl = client;
  // In WebAssembly each row a plan tests against a contains-search (ILIKE) costs about a microsecond, which the
  // planner's default cost of the test does not see: it read every company and tested each (45 ms at 16,667) rather
  // than ask the trigram index (8 ms), and, misjudging how many cards a search matches, walked every card newest first
  // (140 ms) instead. Costed as what it is here, the plan that tests the fewest rows wins.
  await pgl.exec('ALTER FUNCTION texticlike(text, text) COST 1000');
  const db = drizzle(pgl, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    replica: null,
    async query(_name, text, params) {
      return (await pgl.query(text, params)).rows as never[];
    },
    async migrate() {
      if (await upToDate(async () => (await pgl.query<{ created_at: unknown }>(NEWEST_APPLIED)).rows[0]?.created_at))
        return;
      await migrate(drizzle(pgl, { schema }), { migrationsFolder });
    },
    close: () => pgl.close(),
    onConnectionLost() {}, // in-process: no connection to lose
    async listen(channel, on) {
      const unlisten = await pgl.listen(channel, (payload) => on.message(payload));
      on.up();
      return { close: () => unlisten() };
    },
  };
}

const RECONNECT_MS = [250, 1000, 5000, 15_000];

/** A connection of its own (a pooled one would drop its LISTEN when returned), reopened when lost. */
async function listenOnServer(
  pg: typeof import('pg').default,
  url: string,
  channel: string,
  on: ListenHandlers,
): Promise<Subscription> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
  let closed = false;
  let client: import('pg').Client | null = null;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const lost = (c: import('pg').Client) => {
    if (client !== c) return;
    client = null;
    on.down();
    c.end().catch(() => undefined);
    if (!closed) timer = setTimeout(connect, RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]).unref();
  };
  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => on.message(n.payload ?? ''));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (closed || client !== c) return;
      failures = 0;
      on.up();
    } catch {
      lost(c);
    }
  }
  await connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
