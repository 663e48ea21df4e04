import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { users } from './identity';

/**
 * One row per recipient and event, written in the transaction of the event itself. The row is also
 * the mail's outbox: `mail_state` 'pending' is sent by a worker (once, with retries), null means no mail.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** the screen it is about, as a path of the recipient's app */
    link: text('link'),
    /** what happened, once: the same event never notifies the same person twice */
    eventKey: text('event_key').notNull(),
    readAt: ts('read_at'),
    /** null: no mail; 'pending' | 'sent' | 'failed' */
    mailState: text('mail_state'),
    mailAttempts: integer('mail_attempts').notNull().default(0),
    mailNextAttemptAt: ts('mail_next_attempt_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_event_unique').on(t.userId, t.eventKey),
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`read_at is null`),
    index('notifications_mail_due_idx').on(t.mailNextAttemptAt).where(sql`mail_state = 'pending'`),
    // a kick's claim finds its events' mail directly, however much other mail waits
    index('notifications_mail_pending_event_idx').on(t.eventKey).where(sql`mail_state = 'pending'`),
  ],
);

/** A user's choice of mail per notification type; no row means the type's default. */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    mail: boolean('mail').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

/** Single-use 2FA recovery codes, hashed; a new set replaces the old (their rows are deleted). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId), uniqueIndex('recovery_codes_hash_unique').on(t.codeHash)],
);
