import { z } from 'zod';
import { NOTIFICATION_TYPES, type NotificationType } from '../lists';
import { id, paged, timestamp } from './blocks';

const notificationType = z.enum(Object.keys(NOTIFICATION_TYPES) as [NotificationType, ...NotificationType[]]);

export const apiNotification = z
  .strictObject({
    id,
    type: notificationType,
    title: z.string(),
    body: z.string().describe('One or more lines of plain text'),
    link: z
      .string()
      .nullable()
      .describe("The screen it is about, as a path of the recipient's app (e.g. /portal/prepaid-cards/{id})"),
    read_at: timestamp.nullable().describe('When it was opened or marked read; null while unread'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiNotification' });

export const notificationPage = paged(apiNotification).extend({
  unread: z.number().int().describe("How many of the caller's notifications are unread, on every page"),
});

export const notificationsMarked = z.strictObject({
  marked: z.number().int().describe('How many were unread and are now read'),
  unread: z.number().int().describe('How many remain unread'),
});

export const apiNotificationSetting = z
  .strictObject({
    type: notificationType,
    label: z.string(),
    group: z.enum(['money', 'account', 'security', 'staff']),
    mail: z.boolean().describe('Whether a mail goes out for this type'),
    locked: z.boolean().describe('Security mails are always sent: mail cannot be turned off'),
  })
  .meta({ id: 'ApiNotificationSetting' });
