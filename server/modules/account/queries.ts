import { and, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { companies, emailTokens, loginChallenges, sessions, users } from '../../db/schema';
import { hashToken, randomToken } from '../../lib/crypto';

export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;

export async function findLiveUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email.trim().toLowerCase()), isNull(users.deletedAt)));
  return u;
}

export async function findLiveUser(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)));
  return u;
}

export async function findCompany(db: DbOrTx, id: string | null): Promise<CompanyRow | null> {
  if (!id) return null;
  const [c] = await db.select().from(companies).where(eq(companies.id, id));
  return c ?? null;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password' | 'invite' | 'staff_invite';

export async function createEmailToken(
  db: DbOrTx,
  userId: string,
  purpose: EmailTokenPurpose,
  ttlMs: number,
  now: Date,
): Promise<string> {
  const token = randomToken();
  await db.insert(emailTokens).values({
    id: crypto.randomUUID(),
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + ttlMs),
    createdAt: now,
  });
  return token;
}

/** Marks a mailed token used, once: returns its row only to the one caller that consumed it. */
export async function consumeEmailToken(
  db: DbOrTx,
  token: string,
  purposes: EmailTokenPurpose[],
  now: Date,
): Promise<{ userId: string; purpose: EmailTokenPurpose } | null> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        inArray(emailTokens.purpose, purposes),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailTokens.userId, purpose: emailTokens.purpose });
  if (!row) return null;
  return { userId: row.userId, purpose: row.purpose as EmailTokenPurpose };
}

/**
 * The email of a verification link opened before and not yet expired, whose account is verified and live: the
 * second click of a link (a mail scanner may have made the first) is told so rather than refused.
 */
export async function emailOfUsedVerification(db: DbOrTx, token: string, now: Date): Promise<string | null> {
  const [row] = await db
    .select({ email: users.email })
    .from(emailTokens)
    .innerJoin(users, eq(users.id, emailTokens.userId))
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, 'verify_email'),
        isNotNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
        isNotNull(users.emailVerifiedAt),
        isNull(users.deletedAt),
      ),
    );
  return row?.email ?? null;
}

/** Ends the user's sessions and the logins under way (challenges waiting for a code), e.g. at a new password. */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  await db
    .update(loginChallenges)
    .set({ usedAt: now })
    .where(and(eq(loginChallenges.userId, userId), isNull(loginChallenges.usedAt)));
}
