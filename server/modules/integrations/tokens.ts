import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context';
import { apiClients, apiTokens, companies } from '../../db/schema';
import { hashToken, randomToken, safeEqual, sha256 } from '../../lib/crypto';

export const API_TOKEN_PREFIX = 'cwat_';
const TOKEN_TTL_SECONDS = 900;
const TOUCH_AFTER_MS = 60_000;

/** Client credentials → a short-lived token; null when they don't match live credentials. */
export async function issueToken(ctx: AppContext, clientId: string, clientSecret: string) {
  const [c] = await ctx.db
    .select({ client: apiClients, deactivated: companies.deactivatedAt, state: companies.state })
    .from(apiClients)
    .innerJoin(companies, eq(companies.id, apiClients.companyId))
    .where(and(eq(apiClients.clientId, clientId), isNull(apiClients.revokedAt)));
  // Compare hashes in constant time; an unknown client costs the same as a wrong secret.
  const given = sha256(clientSecret);
  const ok = !!c && safeEqual(given, c.client.secretHash) && !c.deactivated;
  if (!ok) return null;
  const now = ctx.now();
  const token = `${API_TOKEN_PREFIX}${randomToken()}`;
  await ctx.db.insert(apiTokens).values({
    id: crypto.randomUUID(),
    clientId: c.client.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000),
    createdAt: now,
  });
  await ctx.db.update(apiClients).set({ lastUsedAt: now }).where(eq(apiClients.id, c.client.id));
  return { access_token: token, token_type: 'Bearer' as const, expires_in: TOKEN_TTL_SECONDS };
}

/** An API token acts for its company with a Company-Admin's customer rights (the generator's). */
export async function resolveApiToken(ctx: AppContext, token: string): Promise<AuthUser | null> {
  const now = ctx.now();
  const [row] = await ctx.db
    .select({ t: apiTokens, c: apiClients, deactivated: companies.deactivatedAt })
    .from(apiTokens)
    .innerJoin(apiClients, eq(apiClients.id, apiTokens.clientId))
    .innerJoin(companies, eq(companies.id, apiClients.companyId))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(token)),
        isNull(apiTokens.revokedAt),
        gt(apiTokens.expiresAt, now),
        isNull(apiClients.revokedAt),
      ),
    );
  if (!row || row.deactivated) return null;
  if (!row.c.lastUsedAt || now.getTime() - row.c.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    await ctx.db.update(apiClients).set({ lastUsedAt: now }).where(eq(apiClients.id, row.c.id));
  }
  return {
    id: row.c.createdBy,
    email: `api:${row.c.clientId}`,
    role: 'Company-Admin',
    companyId: row.c.companyId,
    sessionId: row.t.id,
    via: 'api',
    clientId: row.c.clientId,
  };
}
