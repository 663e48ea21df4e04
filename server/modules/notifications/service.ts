import { type SQL, sql } from 'drizzle-orm';
import { type NotificationType, STAFF_ROLES, mailOnByDefault, mailLocked } from '@shared/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { type Claimed, sendClaimed, sendDueMail } from './mail';

export interface NotificationEvent {
  type: NotificationType;
  title: string;
  body: string;
  /** the recipient app's path of the screen it is about */
  link?: string | null;
  /** what happened, unique per event (e.g. `topup:<id>:approved`): notifying twice is a no-op */
  eventKey: string;
}

/**
 * Who hears about an event:
 * - user ids (a person's own event),
 * - `{ owner }`: a wallet's or card's owner, i.e. the Individual (owner id = their user id) or every
 *   user of the company (owner id = company id); `companyAdmins` narrows a company to its admins
 *   (KYB and API settings are theirs alone),
 * - `{ staff: true }`: every staff member.
 * Only live people hear: not deleted, not deactivated, and not invited-but-never-joined (no password).
 */
export type Audience = string[] | { owner: string; companyAdmins?: boolean } | { staff: true };

function audienceWhere(a: Audience): SQL {
  if (Array.isArray(a))
    return sql`u.id in (${sql.join(
      a.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`;
  if ('staff' in a)
    return sql`u.role in (${sql.join(
      STAFF_ROLES.map((r) => sql`${r}`),
      sql`, `,
    )})`;
  const admins = a.companyAdmins ? sql` and u.role = 'Company-Admin'` : sql``;
  return sql`((u.id = ${a.owner}::uuid and u.company_id is null) or (u.company_id = ${a.owner}::uuid${admins}))`;
}

/**
 * Writes one notification per recipient inside the caller's transaction (so it exists exactly when
 * the event does), each marked for mail when the recipient wants mail of this type. One statement:
 * the audience, their mail choices and the insert are resolved by the database in one round trip.
 * Answers the number written (0 when the event was already notified: its key is unique per person).
 */
export async function notify(tx: DbOrTx, audience: Audience, e: NotificationEvent, now: Date): Promise<number> {
  if (Array.isArray(audience) && !audience.length) return 0;
  const locked = mailLocked(e.type);
  const mail = locked ? sql`true` : sql`coalesce(s.mail, ${mailOnByDefault(e.type)})`;
  const rows = await tx.execute(sql`
    insert into notifications (id, user_id, type, title, body, link, event_key, mail_state, mail_next_attempt_at, created_at)
    select gen_random_uuid(), u.id, ${e.type}, ${e.title}, ${e.body}, ${e.link ?? null}, ${e.eventKey},
      case when ${mail} then 'pending' end, case when ${mail} then ${now}::timestamptz end, ${now}::timestamptz
    from users u
    left join notification_settings s on s.user_id = u.id and s.type = ${e.type}
    where ${audienceWhere(audience)} and u.deleted_at is null and u.deactivated_at is null and u.password_hash is not null
    on conflict (user_id, event_key) do nothing
    returning id`);
  return Array.isArray(rows) ? rows.length : ((rows as { rows?: unknown[] }).rows?.length ?? 0);
}

/** Events to mail per app, and whether a kick is already on its way. */
const kicks = new WeakMap<AppContext, { keys: Set<string>; running: boolean }>();
/** Events per claim: a bound on the statement's list, not on how many are sent. */
const KICK_CHUNK = 200;

/**
 * Sends the mail of these events now, after the transaction that wrote them has committed, without
 * holding up the answer; the mail job retries whatever this does not manage. Events told while a
 * kick is sending join the next one, so under load many share a claim instead of one each.
 */
export function mailSoon(ctx: AppContext, eventKeys: string[]): void {
  if (!eventKeys.length) return;
  let kick = kicks.get(ctx);
  if (!kick) kicks.set(ctx, (kick = { keys: new Set(), running: false }));
  for (const k of eventKeys) kick.keys.add(k);
  if (kick.running) return;
  kick.running = true;
  const k = kick;
  ctx.background.run('notification mail', async () => {
    try {
      while (k.keys.size) {
        const keys = [...k.keys];
        k.keys.clear();
        for (let i = 0; i < keys.length; i += KICK_CHUNK)
          await sendDueMail(ctx, { eventKeys: keys.slice(i, i + KICK_CHUNK) });
      }
    } finally {
      k.running = false;
    }
  });
}

/** Mail claimed for this instance when its notifications were written, per app, and whether a sender is on it. */
const claimedQueues = new WeakMap<AppContext, { mails: Claimed[]; running: boolean }>();

/**
 * Sends mail that the transaction writing it already claimed for this instance (a transfer's receivers'), after
 * that transaction committed, without holding up the answer. Mail handed over while some is being sent joins the
 * next round, so outcomes known together are recorded together; what this does not send, the mail job sends once
 * the lease has run out.
 */
export function mailClaimed(ctx: AppContext, mails: Claimed[]): void {
  if (!mails.length) return;
  let q = claimedQueues.get(ctx);
  if (!q) claimedQueues.set(ctx, (q = { mails: [], running: false }));
  q.mails.push(...mails);
  if (q.running) return;
  q.running = true;
  const queue = q;
  ctx.background.run('notification mail', async () => {
    try {
      while (queue.mails.length) await sendClaimed(ctx, queue.mails.splice(0));
    } finally {
      queue.running = false;
    }
  });
}
