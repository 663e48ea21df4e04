import type { FastifyReply, FastifyRequest } from 'fastify';
import { metrics } from '../lib/metrics';
import type { Database, Db } from './client';
import { formatLsn, parseLsn } from './replica';

/** Carries the reader's last write position to whichever instance answers their next request. */
const READ_AFTER_COOKIE = 'cw_read_after';
/** The same position for clients that keep no cookies: answered on each mutation, sent back at will (a session token). */
const READ_AFTER_HEADER = 'cw-read-after';
const LSN = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;
/** Past the end of any WAL: "read the primary" when the position of a write could not be learnt. */
const UNKNOWN_WRITE = (1n << 64n) - 1n;
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Bounds the per-process memory of writers; the cookie still carries what an evicted one wrote. */
const MAX_WRITERS = 10_000;

function cookieLsn(req: FastifyRequest): bigint | undefined {
  const header = req.headers.cookie;
  if (!header?.includes(READ_AFTER_COOKIE)) return undefined;
  const m = new RegExp(`(?:^|;\\s*)${READ_AFTER_COOKIE}=([0-9A-Fa-f]{1,8}/[0-9A-Fa-f]{1,8})(?:;|$)`).exec(header);
  return m ? parseLsn(m[1]!) : undefined;
}

/**
 * Which database a request's reads go to. `reader(req)` is for lists, reports, statistics, statements and
 * CSV exports: the replica while it is up and has replayed the caller's own last write (read-your-writes),
 * else the primary. Everything else (money, sign-in, access checks, anything that decides or writes) keeps
 * using ctx.db, the primary.
 *
 * The caller's last write is known two ways: a cookie set on the answer to each of their mutations (the
 * primary's WAL position just after it committed; a browser sends it to whichever instance answers next),
 * the same position in the CW-Read-After header of that answer, which a client that keeps no cookies (an API
 * integration) may send back on its reads, and, for those that do not, a map in this process by session.
 */
export class ReadRouting {
  private readonly writers = new Map<string, { lsn: bigint; until: number }>();
  private readonly cookieSeconds: number;
  private readonly secure: boolean;

  constructor(
    private readonly database: Database,
    opts: { maxLagSeconds: number; secure: boolean },
  ) {
    // Once it expires the replica, if up, is at most maxLagSeconds behind: the write is long replayed.
    this.cookieSeconds = Math.ceil(opts.maxLagSeconds) + 60;
    this.secure = opts.secure;
  }

  get enabled(): boolean {
    return this.database.replica !== null;
  }

  reader(req: FastifyRequest): Db {
    const replica = this.database.replica;
    if (!replica) return this.database.db;
    if (replica.covers(this.lastWrite(req))) {
      metrics.replicaRead('replica');
      return replica.db;
    }
    metrics.replicaRead('primary');
    return this.database.db;
  }

  private lastWrite(req: FastifyRequest): bigint | undefined {
    let lsn = cookieLsn(req);
    const sent = req.headers[READ_AFTER_HEADER];
    if (typeof sent === 'string' && LSN.test(sent)) {
      const h = parseLsn(sent);
      if (lsn === undefined || h > lsn) lsn = h;
    }
    const session = req.user?.sessionId;
    const mine = session ? this.writers.get(session) : undefined;
    if (mine && mine.until > Date.now() && (lsn === undefined || mine.lsn > lsn)) lsn = mine.lsn;
    return lsn;
  }

  /** After a mutation by a signed-in caller: where the primary's WAL is now, for their next reads. */
  async wrote(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const replica = this.database.replica;
    if (!replica || !MUTATIONS.has(req.method) || !req.user || reply.statusCode >= 400) return;
    const lsn = await replica.primaryLsn().catch(() => UNKNOWN_WRITE);
    const until = Date.now() + this.cookieSeconds * 1000;
    if (this.writers.size >= MAX_WRITERS) this.forgetExpired();
    this.writers.set(req.user.sessionId, { lsn, until });
    const attributes = `Path=/api; Max-Age=${this.cookieSeconds}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
    const cookie = `${READ_AFTER_COOKIE}=${formatLsn(lsn)}; ${attributes}`;
    reply.header(READ_AFTER_HEADER, formatLsn(lsn));
    const existing = reply.getHeader('set-cookie');
    reply.header('set-cookie', existing === undefined ? cookie : [...[existing].flat().map(String), cookie]);
  }

  private forgetExpired() {
    const now = Date.now();
    for (const [k, v] of this.writers) if (v.until <= now) this.writers.delete(k);
    if (this.writers.size >= MAX_WRITERS) this.writers.clear();
  }
}

/**
 * The context for a list service that takes ctx and only reads (listAdmins, listFees...): the same, with
 * ctx.db = ctx.reader(req). Never for a service that writes or decides: a standby refuses writes.
 */
export const readingCtx = <C extends { db: Db; reader(req: FastifyRequest): Db }>(ctx: C, req: FastifyRequest): C => ({
  ...ctx,
  db: ctx.reader(req),
});
