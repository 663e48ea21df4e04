import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../db/client';
import { AppError, HTTP } from '../../lib/http';

/** Whether this instance should be sent traffic: set once SIGTERM arrives (server.ts), never unset. */
export class Readiness {
  draining = false;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

const JOURNAL = fileURLToPath(new URL('../../db/migrations/meta/_journal.json', import.meta.url));
/** A database that takes longer than this to answer `select` is as good as down for a load balancer. */
const DATABASE_MS = 2_000;

let journal: { count: number; newest: number } | undefined;
/** The migrations this code expects, from drizzle's journal (read once: it ships with the code). */
function expected() {
  if (!journal) {
    const entries = (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: Array<{ when: number }> }).entries;
    journal = { count: entries.length, newest: Math.max(0, ...entries.map((e) => e.when)) };
  }
  return journal;
}

const APPLIED = `select count(*)::int as count, max(created_at)::text as newest from drizzle.__drizzle_migrations`;

const notReady = (message: string) =>
  new AppError(HTTP.SERVICE_UNAVAILABLE, message, message, { 'cache-control': 'no-store' });

/**
 * Ready: not draining, the database answers within 2 s, and every migration of the journal is applied
 * (drizzle's rule: as many rows, the newest at least the journal's newest). A database ahead of the code
 * (a newer version migrated it during a rolling deploy) is ready: migrations only add.
 */
export async function checkReady(readiness: Readiness, database: Database) {
  if (readiness.draining) throw notReady('The instance is shutting down: requests in flight finish, send no new ones.');
  let timer: NodeJS.Timeout | undefined;
  let applied: { count: number; newest: string | null } | undefined;
  try {
    const late = new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), DATABASE_MS);
    });
    [applied] = await Promise.race([
      database.query<{ count: number; newest: string | null }>('cw_ready_migrations', APPLIED, []),
      late,
    ]);
  } catch {
    throw notReady('The database is not reachable.');
  } finally {
    clearTimeout(timer);
  }
  const want = expected();
  const have = { count: Number(applied?.count ?? 0), newest: Number(applied?.newest ?? 0) };
  if (have.count < want.count || have.newest < want.newest)
    throw notReady(`The database's migrations are behind this version: ${have.count} of ${want.count} applied.`);
  // The replica is never a reason to be unready: without it reads go to the primary.
  const replica = database.replica?.status();
  return {
    status: 'ready' as const,
    database: database.kind,
    migrations: have.count,
    ...(replica ? { replica: { state: replica.state, lag_seconds: replica.lagSeconds } } : {}),
  };
}
