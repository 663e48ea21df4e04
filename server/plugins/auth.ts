import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OPERATION_PERMISSIONS, type Role, type StaffRole, can, isStaff, permissionsOf } from '@shared/contract';
import type { AppContext } from '../context';
import { sessions } from '../db/schema';
import { hashToken } from '../lib/crypto';
import { forbidden, unauthorized } from '../lib/http';
import { API_TOKEN_PREFIX, resolveApiToken } from '../modules/integrations/tokens';
import type { SessionRow } from '../modules/account/session-cache';
import { replayOf } from '../modules/approvals/replay';

const TOUCH_AFTER_MS = 60_000;
const INVALID_TOKEN = 'Bearer error="invalid_token"';

export interface AuthOptions {
  roles?: readonly Role[];
  /** let anonymous callers through with req.user = null */
  optional?: boolean;
  /** accept OAuth access tokens of company API clients (they act as their company's admin) */
  api?: boolean;
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

/**
 * Every staff request and every customer's first in a minute reads its session, so one named statement outside
 * Drizzle: parsed and planned once per connection, no query building per request.
 */
const SESSION_LOOKUP = `select s.id as "sessionId", s.expires_at as "expiresAt", s.last_seen_at as "lastSeenAt",
  u.id as "userId", u.email, u.role, u.company_id as "companyId",
  (u.deactivated_at is not null or u.deleted_at is not null or c.deactivated_at is not null) as blocked
  from sessions s join users u on u.id = s.user_id left join companies c on c.id = u.company_id
  where s.token_hash = $1 and s.revoked_at is null`;

interface SessionLookup {
  sessionId: string;
  expiresAt: Date | string;
  lastSeenAt: Date | string;
  userId: string;
  email: string;
  role: string;
  companyId: string | null;
  blocked: boolean;
}

/**
 * Resolves a session token to its user, or null when it is unknown, ended or expired. A customer's
 * session checked within the last minute is answered from memory (SessionCache says why that is
 * safe); otherwise the database decides and the session is touched.
 */
async function resolveSession(ctx: AppContext, token: string): Promise<SessionRow | null> {
  const now = ctx.now();
  const hash = hashToken(token);
  const hit = ctx.sessions.get(hash);
  if (hit) {
    const sinceTouch = now.getTime() - hit.lastSeenAt.getTime();
    if (hit.expiresAt > now && sinceTouch >= 0 && sinceTouch <= TOUCH_AFTER_MS) return hit;
    ctx.sessions.drop(hash);
  }
  const epoch = ctx.sessions.epoch();
  const [read] = await ctx.database.query<SessionLookup>('cw_session_lookup', SESSION_LOOKUP, [hash]);
  const row = read && {
    ...read,
    expiresAt: new Date(read.expiresAt),
    lastSeenAt: new Date(read.lastSeenAt),
  };
  if (!row) return null;
  const idleLimit = row.lastSeenAt.getTime() + ctx.config.sessions.idleMinutes * 60_000;
  if (row.expiresAt <= now || idleLimit <= now.getTime() || row.blocked) {
    await ctx.db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, row.sessionId));
    return null;
  }
  const found: SessionRow = {
    sessionId: row.sessionId,
    expiresAt: row.expiresAt,
    lastSeenAt: row.lastSeenAt,
    userId: row.userId,
    email: row.email,
    role: row.role,
    companyId: row.companyId,
  };
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await ctx.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
    found.lastSeenAt = now;
  }
  // Staff sessions are always read from the database: ending or deactivating a staff member must hold at
  // their very next request on every instance, not once another instance's notification has arrived.
  if (!isStaff(found.role)) ctx.sessions.put(hash, found, epoch);
  return found;
}

/**
 * Whether a staff member may call this operation, as OPERATION_PERMISSIONS says: a 403 naming what is
 * missing, before any work. An operation the table does not list is refused (plugins/permissions.ts's startup
 * check keeps that from happening).
 */
function mayStaffCall(role: StaffRole | string, operationId: string | undefined): void {
  const rule = operationId ? OPERATION_PERMISSIONS[operationId] : undefined;
  if (rule === 'self' || rule === 'staff' || rule === 'public') return;
  if (rule === undefined || rule === 'customers') throw forbidden('This is not available to staff.');
  const needed = permissionsOf(rule);
  if (!needed.some((p) => can(role, p)))
    throw forbidden(`Your role (${role}) does not allow this: it needs the permission ${needed.join(' or ')}.`);
}

/** Marks authenticate()'s hooks with their options, so plugins/permissions.ts can check every route at startup. */
export const AUTH_OPTIONS = Symbol('authenticate options');

/**
 * An onRequest hook: who is calling, and may they call this route at all. A staff caller also needs
 * what OPERATION_PERMISSIONS asks of the route's operation, checked here before any work.
 */
export function authenticate(ctx: AppContext, opts: AuthOptions = {}) {
  const hook = async function authHook(req: FastifyRequest, _reply: FastifyReply) {
    // An approved request performed in-process acts as its maker (modules/approvals/replay.ts), whose role must
    // still allow it.
    const replay = replayOf(req);
    if (replay) {
      req.user = replay.user;
      req.approval = replay.approval;
      if (opts.roles && !opts.roles.includes(replay.user.role)) throw forbidden();
      if (isStaff(replay.user.role)) mayStaffCall(replay.user.role, req.routeOptions.schema?.operationId);
      return;
    }
    const token = bearer(req);
    if (!token) {
      if (opts.optional) return;
      throw unauthorized();
    }
    if (token.startsWith(API_TOKEN_PREFIX)) {
      if (!opts.api) throw forbidden('This endpoint is not available to API clients.');
      const client = await resolveApiToken(ctx, token);
      if (!client) throw unauthorized('The access token is invalid or has expired.', INVALID_TOKEN);
      req.user = client;
      if (opts.roles && !opts.roles.includes(client.role)) throw forbidden();
      return;
    }
    const row = await resolveSession(ctx, token);
    if (!row) {
      if (opts.optional) return;
      throw unauthorized('Your session has ended. Please log in again.', INVALID_TOKEN);
    }
    req.user = {
      id: row.userId,
      email: row.email,
      role: row.role as Role,
      companyId: row.companyId,
      sessionId: row.sessionId,
      via: 'session',
    };
    if (opts.roles && !opts.roles.includes(req.user.role)) throw forbidden();
    if (isStaff(req.user.role)) mayStaffCall(req.user.role, req.routeOptions.schema?.operationId);
  };
  return Object.assign(hook, { [AUTH_OPTIONS]: opts });
}
