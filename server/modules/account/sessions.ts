import { and, eq, isNull } from 'drizzle-orm';
import type { SessionPayload } from '@shared/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { hashToken, randomToken } from '../../lib/crypto';
import { notFound } from '../../lib/http';
import { userEntities } from './entities';
import { toApiCompany, toApiUser } from './presenters';
import { findCompany, findLiveUser } from './queries';
import { latestVerification } from '../verification/service';

export async function createSession(
  ctx: AppContext,
  db: DbOrTx,
  userId: string,
  meta: { ip?: string; userAgent?: string },
): Promise<{ token: string; expiresAt: Date }> {
  const now = ctx.now();
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + ctx.config.sessions.absoluteHours * 3600_000);
  await db.insert(sessions).values({
    id: crypto.randomUUID(),
    userId,
    tokenHash: hashToken(token),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  // A session is made only by a completed sign-in: the access review's "last sign-in".
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, userId));
  return { token, expiresAt };
}

export async function endSession(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** The signed-in user and their company, as /individuals/profile and login answer them. */
export async function profileOf(ctx: AppContext, userId: string) {
  const user = await findLiveUser(ctx.db, userId);
  if (!user) throw notFound('The user');
  const company = await findCompany(ctx.db, user.companyId);
  const api = toApiUser(user, company, await userEntities(ctx, user.id));
  return { user: api, company: toApiCompany(company), verification: await latestVerification(ctx, api.wallet_id) };
}

export async function sessionPayload(
  ctx: AppContext,
  userId: string,
  session: { token: string; expiresAt: Date },
): Promise<SessionPayload> {
  const profile = await profileOf(ctx, userId);
  return { access_token: session.token, expires_at: session.expiresAt.toISOString(), ...profile };
}
