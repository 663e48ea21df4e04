import { z } from 'zod';
import { pageQuery } from './fields';
import { NOTIFICATION_TYPES, type NotificationType } from './lists';
import type { apiNotification, apiNotificationSetting, notificationPage } from './responses/notifications';

const NOTIFICATION_TYPE_NAMES = Object.keys(NOTIFICATION_TYPES) as NotificationType[];

/**
 * Money, account and security mails are on unless turned off; security mails cannot be turned off; staff queue mails
 * start off, but a balance alert's is on (its trigger, server/db/sql/monitors.sql, says so too).
 */
export const mailOnByDefault = (t: NotificationType) => NOTIFICATION_TYPES[t].group !== 'staff' || t === 'balance_low';
export const mailLocked = (t: NotificationType) => NOTIFICATION_TYPES[t].group === 'security';
/**
 * The types a person can receive: customers never get the staff queue's; staff have no wallet,
 * cards, verification or API credentials of their own, only their 2FA and the review queue.
 */
const STAFF_TYPES: readonly NotificationType[] = [
  'two_factor_reset',
  'verification_submitted',
  'topup_review',
  'deposit_unassigned',
  'approval_requested',
  'approval_decided',
  'balance_low',
];
export const typesFor = (staff: boolean) =>
  NOTIFICATION_TYPE_NAMES.filter((t) => (staff ? STAFF_TYPES.includes(t) : NOTIFICATION_TYPES[t].group !== 'staff'));

export type ApiNotification = z.infer<typeof apiNotification>;

export type ApiNotificationSetting = z.infer<typeof apiNotificationSetting>;
/** GET /notifications: a page with the unread count. */
export type NotificationPage = z.infer<typeof notificationPage>;

// No `format`: the list is not exported as CSV, so the API must not offer it.
export const notificationListQuery = pageQuery.omit({ format: true }).extend({
  unread: z.enum(['true', 'false'], { error: 'unread must be true or false' }).optional(),
});

const notificationId = z
  .string({ error: 'Each id must be a notification id' })
  .uuid('Each id must be a notification id');

/** No ids: everything of the caller's is marked read. */
export const markReadBody = z.object({
  ids: z
    .array(notificationId, { error: 'ids must be a list of notification ids' })
    .min(1, 'Give at least one id, or leave ids out to mark all')
    .max(100, 'At most 100 ids at a time')
    .optional(),
});

/** `{ mail: { <type>: true|false } }`: only the types given change. */
export const notificationSettingsBody = z.object({
  mail: z.record(z.string(), z.boolean({ error: 'Must be true or false' }), {
    error: 'mail must map notification types to true or false',
  }),
});
