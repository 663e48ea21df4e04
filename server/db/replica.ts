import type { Pool, QueryConfig } from 'pg';
import { SESSION_OPTIONS } from './session-options';

/**
 * A streaming standby (DATABASE_REPLICA_URL) that reads which may be a little behind go to: lists,
 * reports, statistics, statements, CSV exports. A check every second compares how far it has replayed
 * with the primary's WAL; while it answers and is no more than maxLagSeconds behind it is `up`,
 * otherwise reads go to the primary. A query the replica cannot answer (it stopped, it is restarting,
 * a conflict with recovery cancelled it) is asked of the primary instead, so a replica failing under
 * load fails no request.
 */
export interface ReplicaOptions {
  url: string;
  maxLagSeconds: number;
  /** small: the replica carries only the heavy reads */
  poolSize?: number;
  checkMs?: number;
}

type ReplicaState = 'up' | 'lagging' | 'down';

interface ReplicaStatus {
  state: ReplicaState;
  /** seconds behind the primary, as of the last check (null while it does not answer) */
  lagSeconds: number | null;
}

/** D: the app's drizzle database type (client.ts's Db; not imported here, which imports this). */
export interface ReadReplica<D> {
  /** drizzle over the replica; a query it cannot answer is asked of the primary */
  db: D;
  status(): ReplicaStatus;
  /** Whether a read may go to the replica: it is up and has replayed `lsn` (the reader's own last write). */
  covers(lsn: bigint | undefined): boolean;
  /** The primary's current WAL position: a write committed before this call is at or before it. */
  primaryLsn(): Promise<bigint>;
  /** Told when the state changes (up, lagging, down), for the log. */
  onChange(handler: (status: ReplicaStatus, err?: Error) => void): void;
  /** Checks now (tests; the timer checks every second). */
  check(): Promise<ReplicaStatus>;
  close(): Promise<void>;
}

/** "16/B374D848" (PostgreSQL's pg_lsn text) as a number that orders as the WAL does. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!m) throw new Error(`not an LSN: ${text}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * Errors after which the primary is asked instead: the connection failed or ended (no SQLSTATE, class 08),
 * the server is shutting down or starting (class 57), or recovery cancelled the query (40001). Any other
 * error is the query's own and the primary would answer it the same.
 */
function replicaFault(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57') || code === '40001';
}

/** Whether the error means the replica is not there (rather than one query cancelled). */
const unreachable = (err: unknown) => {
  const code = (err as { code?: unknown }).code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || code.startsWith('08') || code.startsWith('57P');
};

// The insert position, not pg_current_wal_lsn() (written so far): with synchronous_commit off a commit returns before
// its WAL is written, and a position before the commit would let the writer's next read miss their write.
const PRIMARY_LSN = 'select pg_current_wal_insert_lsn()::text as lsn';
const REPLAY = 'select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as lsn';
/** A lag sample per second: an hour of them bounds the memory if the replica never catches up. */
const MAX_SAMPLES = 3600;
/** How long close() waits for the standby's connections before it lets the shutdown go on. */
const CLOSE_WAIT_MS = 2_000;

type Transactional = { transaction: (...args: never[]) => Promise<unknown> };

export function openReplica<D extends Transactional>(
  pg: typeof import('pg').default,
  drizzle: (config: { client: unknown; schema: unknown }) => unknown,
  schema: unknown,
  primary: Pool,
  primaryDb: D,
  opts: ReplicaOptions,
): ReadReplica<D> {
  const pool = new pg.Pool({
    connectionString: opts.url,
    options: SESSION_OPTIONS,
    max: opts.poolSize ?? 5,
    // A standby that is gone must not hold a read for the operating system's connect timeout.
    connectionTimeoutMillis: 1_000,
  });
  let changed = (_s: ReplicaStatus, _err?: Error) => {};
  // An idle connection the standby ends (it stopped) is noticed by the next check; it must not end the process.
  pool.on('error', () => undefined);
  // Nor may one it ends while a transaction holds it between two statements (the statement then fails, and is retried).
  pool.on('connect', (c) => c.on('error', () => undefined));

  let state: ReplicaState = 'down';
  let lagSeconds: number | null = null;
  let replayed = -1n;
  /** (when, the primary's position) each time it moved: the lag is the age of the oldest one not yet replayed */
  const samples: Array<{ at: number; lsn: bigint }> = [];

  const set = (next: ReplicaState, lag: number | null, err?: Error) => {
    lagSeconds = lag;
    if (next === state) return;
    state = next;
    changed({ state, lagSeconds }, err);
  };
  const markDown = (err: Error) => {
    replayed = -1n;
    set('down', null, err);
  };

  // What drizzle calls: the replica while it is up, the primary for what it cannot answer. Named a pool so that
  // drizzle takes one connection for a transaction (a statement's read-only snapshot) with connect().
  class ReplicaPool {
    async query(config: QueryConfig, values?: unknown[]) {
      if (state === 'down') return primary.query(config, values);
      try {
        return await pool.query(config, values);
      } catch (err) {
        if (!replicaFault(err)) throw err;
        if (unreachable(err)) markDown(err as Error);
        return primary.query(config, values);
      }
    }
    async connect() {
      if (state === 'down') return primary.connect();
      try {
        return await pool.connect();
      } catch (err) {
        markDown(err as Error);
        return primary.connect();
      }
    }
  }
  const db = drizzle({ client: new ReplicaPool(), schema }) as D;
  // A read-only transaction the replica fails (it stopped mid-way, recovery cancelled it) is run again on the
  // primary: on the replica it could not have written anything (a standby refuses writes, 25006, not retried).
  const inReplica = db.transaction.bind(db);
  db.transaction = (async (fn: never, config: never) => {
    try {
      return await inReplica(fn, config);
    } catch (err) {
      if (!replicaFault(err)) throw err;
      if (unreachable(err)) markDown(err as Error);
      return primaryDb.transaction(fn, config);
    }
  }) as D['transaction'];

  async function primaryLsn(): Promise<bigint> {
    const { rows } = await primary.query({ name: 'cw_primary_lsn', text: PRIMARY_LSN });
    return parseLsn(rows[0].lsn);
  }

  async function check(): Promise<ReplicaStatus> {
    let head: bigint;
    try {
      head = await primaryLsn();
    } catch {
      return { state, lagSeconds }; // the primary's own trouble: readiness reports it
    }
    const now = Date.now();
    if (!samples.length || samples[samples.length - 1]!.lsn < head) samples.push({ at: now, lsn: head });
    if (samples.length > MAX_SAMPLES) samples.shift();
    try {
      const { rows } = await pool.query({ name: 'cw_replay_lsn', text: REPLAY });
      const row = rows[0] as { recovering: boolean; lsn: string | null };
      // A server out of recovery (promoted, or not a standby at all) has its own history: never read it.
      if (!row.recovering || !row.lsn) throw new Error('the replica is not a standby in recovery');
      replayed = parseLsn(row.lsn);
    } catch (err) {
      markDown(err as Error);
      return { state, lagSeconds };
    }
    while (samples.length && samples[0]!.lsn <= replayed) samples.shift();
    const lag = samples.length ? (now - samples[0]!.at) / 1000 : 0;
    set(lag > opts.maxLagSeconds ? 'lagging' : 'up', lag);
    return { state, lagSeconds };
  }

  let timer: NodeJS.Timeout | undefined;
  let checking = false;
  const tick = async () => {
    if (checking) return; // a check waiting on a connect timeout: the next tick is not stacked on it
    checking = true;
    try {
      await check();
    } finally {
      checking = false;
    }
  };
  timer = setInterval(() => void tick(), opts.checkMs ?? 1_000);
  timer.unref();
  void tick();

  return {
    db,
    status: () => ({ state, lagSeconds }),
    covers: (lsn) => state === 'up' && (lsn === undefined || replayed >= lsn),
    primaryLsn,
    onChange(handler) {
      changed = handler;
    },
    check,
    async close() {
      clearInterval(timer);
      timer = undefined;
      // Bounded: pool.end() waits for every checked-out connection, and one stuck on a standby that went away
      // would hold the shutdown (seen in a test that stops the standby mid-run).
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([pool.end(), new Promise((resolve) => (wait = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(wait);
    },
  };
}
