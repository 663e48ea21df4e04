import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../shared/contract';
import type { AppContext } from '../context';
import { companies, sessions, users } from '../db/schema';
import { hashToken } from '../lib/crypto';
import { forbidden, unauthorized } from '../lib/http';
import { API_TOKEN_PREFIX, resolveApiToken } from '../modules/integrations/tokens';

const TOUCH_AFTER_MS = 60_000;

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

/** Resolves a session token to its user, or null when it is unknown, ended or expired. */
export async function resolveSession(ctx: AppContext, token: string) {
  const now = ctx.now();
  const [row] = await ctx.db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      userId: users.id,
      email: users.email,
      role: users.role,
      companyId: users.companyId,
      userDeactivatedAt: users.deactivatedAt,
      userDeletedAt: users.deletedAt,
      companyDeactivatedAt: companies.deactivatedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)));
  if (!row) return null;
  const idleLimit = row.lastSeenAt.getTime() + ctx.config.sessions.idleMinutes * 60_000;
  const blocked = row.userDeactivatedAt || row.userDeletedAt || row.companyDeactivatedAt;
  if (row.expiresAt <= now || idleLimit <= now.getTime() || blocked) {
    await ctx.db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, row.sessionId));
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await ctx.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  return row;
}

/** An onRequest hook: who is calling, and may they call this route at all. */
export function authenticate(ctx: AppContext, opts: AuthOptions = {}) {
  return async function authHook(req: FastifyRequest, _reply: FastifyReply) {
    const token = bearer(req);
    if (!token) {
      if (opts.optional) return;
      throw unauthorized();
    }
    if (token.startsWith(API_TOKEN_PREFIX)) {
      if (!opts.api) throw forbidden('This endpoint is not available to API clients.');
      const client = await resolveApiToken(ctx, token);
      if (!client) throw unauthorized('The access token is invalid or has expired.');
      req.user = client;
      if (opts.roles && !opts.roles.includes(client.role)) throw forbidden();
      return;
    }
    const row = await resolveSession(ctx, token);
    if (!row) {
      if (opts.optional) return;
      throw unauthorized('Your session has ended. Please log in again.');
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
  };
}
