import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { notifications, users } from '../../db/schema';
import { notificationMail } from '../../mail/templates';

/** Wait before try n+1 after a failed send; after the last one the mail is given up ('failed'). */
export const MAIL_RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
/** A claimed mail is someone's for this long: a worker that died mid-send hands it back after it. */
const LEASE_MS = 2 * 60_000;

type Claimed = {
  id: string;
  type: string;
  title: string;
  body: string;
  link: string | null;
  attempts: number;
  email: string;
  firstName: string;
};

/**
 * Takes due mail with FOR UPDATE SKIP LOCKED and moves its next attempt past a lease, in one
 * statement: several instances (or the job and a kick at once) never take the same row.
 * `eventKeys` / `userIds` narrow it to certain events or people (a kick after a commit, tests).
 */
async function claim(
  ctx: AppContext,
  limit: number,
  only: { eventKeys?: string[]; userIds?: string[] },
): Promise<Claimed[]> {
  const now = ctx.now();
  const due = ctx.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.mailState, 'pending'),
        lte(notifications.mailNextAttemptAt, now),
        only.eventKeys ? inArray(notifications.eventKey, only.eventKeys) : undefined,
        only.userIds ? inArray(notifications.userId, only.userIds) : undefined,
      ),
    )
    .orderBy(asc(notifications.mailNextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return ctx.db
    .update(notifications)
    .set({
      mailAttempts: sql`${notifications.mailAttempts} + 1`,
      mailNextAttemptAt: new Date(now.getTime() + LEASE_MS),
    })
    .from(users)
    .where(and(inArray(notifications.id, due), eq(users.id, notifications.userId)))
    .returning({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      attempts: notifications.mailAttempts,
      email: users.email,
      firstName: users.firstName,
    });
}

/** Sends one claimed mail and records the outcome: sent, due again later, or failed for good. */
async function attempt(ctx: AppContext, n: Claimed): Promise<void> {
  let error: unknown = null;
  try {
    await ctx.mailer.send(
      notificationMail(n.email, n.firstName, { ...n, url: n.link ? `${ctx.config.appUrl}${n.link}` : null }),
    );
  } catch (err) {
    error = err;
  }
  const now = ctx.now();
  const last = n.attempts > MAIL_RETRY_MS.length;
  const set =
    error === null
      ? { mailState: 'sent', mailNextAttemptAt: null }
      : last
        ? { mailState: 'failed', mailNextAttemptAt: null }
        : { mailNextAttemptAt: new Date(now.getTime() + MAIL_RETRY_MS[n.attempts - 1]!) };
  // Only the holder records it: a lease that ran out may have passed the row on.
  await ctx.db
    .update(notifications)
    .set(set)
    .where(
      and(
        eq(notifications.id, n.id),
        eq(notifications.mailState, 'pending'),
        eq(notifications.mailAttempts, n.attempts),
      ),
    );
  if (error)
    ctx.log.warn({ err: error, notification: n.id, attempt: n.attempts, gaveUp: last }, 'notification mail failed');
}

/** Sends what is due (optionally only some events' or people's); answers how many it tried. */
export async function sendDueMail(
  ctx: AppContext,
  only: { eventKeys?: string[]; userIds?: string[]; limit?: number } = {},
): Promise<number> {
  let tried = 0;
  for (;;) {
    const batch = await claim(ctx, only.limit ?? 20, only);
    // Each outcome is recorded as soon as it is known: a slow or stuck send must not leave the mail sent before
    // it unrecorded past the lease (they would go again).
    for (const n of batch) await attempt(ctx, n);
    tried += batch.length;
    if (batch.length < (only.limit ?? 20)) return tried;
  }
}

/** No mail for what is already pending (the demo history, replayed at first start, is not news). */
export async function forgetPendingMail(db: Db): Promise<void> {
  await db
    .update(notifications)
    .set({ mailState: null, mailNextAttemptAt: null })
    .where(eq(notifications.mailState, 'pending'));
}
