import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { notifications, users } from '../../db/schema';
import { notificationMail } from '../../mail/templates';

/** Wait before try n+1 after a failed send; after the last one the mail is given up ('failed'). */
export const MAIL_RETRY_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
/** A claimed mail is someone's for this long: a worker that died mid-send hands it back after it. */
export const MAIL_LEASE_MS = 2 * 60_000;
/** A mail whose lease ends sooner than this is left for the job: sent now, it might also be sent by the next holder. */
const LEASE_MARGIN_MS = 15_000;

/** A mail claimed for this instance to send (attempt `attempts`), until `leaseEnds`. */
export type Claimed = {
  id: string;
  type: string;
  title: string;
  body: string;
  link: string | null;
  attempts: number;
  email: string;
  firstName: string;
  leaseEnds: string | Date;
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
      mailNextAttemptAt: new Date(now.getTime() + MAIL_LEASE_MS),
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
      leaseEnds: notifications.mailNextAttemptAt,
    }) as Promise<Claimed[]>;
}

type Outcome = { id: string; attempts: number; state: 'pending' | 'sent' | 'failed'; next: string | null };

/** Sends one claimed mail; answers its outcome: sent, due again later, or failed for good. */
async function attempt(ctx: AppContext, n: Claimed): Promise<Outcome> {
  let error: unknown = null;
  try {
    await ctx.mailer.send(
      notificationMail(n.email, n.firstName, { ...n, url: n.link ? `${ctx.config.appUrl}${n.link}` : null }),
    );
  } catch (err) {
    error = err;
  }
  const last = n.attempts > MAIL_RETRY_MS.length;
  if (error)
    ctx.log.warn({ err: error, notification: n.id, attempt: n.attempts, gaveUp: last }, 'notification mail failed');
  const outcome = { id: n.id, attempts: n.attempts };
  if (error === null) return { ...outcome, state: 'sent', next: null };
  if (last) return { ...outcome, state: 'failed', next: null };
  return {
    ...outcome,
    state: 'pending',
    next: new Date(ctx.now().getTime() + MAIL_RETRY_MS[n.attempts - 1]!).toISOString(),
  };
}

// Only the holder records it (the attempt it claimed), without waiting for the disk: a database crash can lose only
// this record, and the mail then goes again after its lease, as after an instance's crash between send and record; the
// transfers' commits stop waiting on it. A function (migration 0029), so that it is planned once per connection.
const RECORD = 'select cw_mail_outcomes($1::uuid[], $2::text[], $3::timestamptz[], $4::int[])';

/**
 * Writes outcomes as soon as they are known, those known together in one statement: a slow or stuck
 * send must not leave the mail sent before it unrecorded past the lease (it would go again), and a
 * fast mailer must not cost a commit per mail.
 */
class Outcomes {
  private readonly known: Outcome[] = [];
  private writing: Promise<void> | null = null;
  failed: unknown = null;

  constructor(private readonly ctx: AppContext) {}

  add(o: Outcome) {
    this.known.push(o);
    if (!this.writing) this.writing = this.write();
  }

  /** Writes until nothing is left, and clears `writing` in the same step that finds nothing left. */
  private async write() {
    // `writing` is set before this goes on: finished at once, it would be cleared before it was set
    await Promise.resolve();
    try {
      while (this.known.length && !this.failed) {
        const o = this.known.splice(0);
        await this.ctx.database.query('mail_outcomes', RECORD, [
          o.map((x) => x.id),
          o.map((x) => x.state),
          o.map((x) => x.next),
          o.map((x) => x.attempts),
        ]);
      }
    } catch (err) {
      this.failed = err;
    } finally {
      this.writing = null;
    }
  }

  /** Resolves once every outcome added is written; rejects if one could not be. */
  async written() {
    while (this.writing) await this.writing;
    if (this.failed) throw this.failed;
  }
}

/**
 * Sends mail claimed for this instance, in order, and records each outcome. One whose lease is about to end is
 * left to whoever claims it next; if the database fails to record an outcome, the rest stay claimed and go after
 * their lease.
 */
export async function sendClaimed(ctx: AppContext, claimed: Claimed[]): Promise<void> {
  const outcomes = new Outcomes(ctx);
  for (const n of claimed) {
    if (outcomes.failed) break;
    if (new Date(n.leaseEnds).getTime() - ctx.now().getTime() < LEASE_MARGIN_MS) continue;
    outcomes.add(await attempt(ctx, n));
  }
  await outcomes.written();
}

/** Sends what is due (optionally only some events' or people's); answers how many it tried. */
export async function sendDueMail(
  ctx: AppContext,
  only: { eventKeys?: string[]; userIds?: string[]; limit?: number } = {},
): Promise<number> {
  let tried = 0;
  for (;;) {
    const batch = await claim(ctx, only.limit ?? 20, only);
    await sendClaimed(ctx, batch);
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
