import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NOTIFICATION_TYPES,
  type NotificationType,
  isStaff,
  mailLocked,
  markReadBody,
  notificationListQuery,
  notificationSettingsBody,
  typesFor,
} from '@shared/contract';
import { type FieldErrors, invalid, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { listOwn, markRead, saveSettings, settingsOf, unreadCount } from './queries';
import { data, e, fails, json, BODY, IDEMPOTENT, QUERY, SIGNED_IN } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { z } from 'zod';

/**
 * The notification centre and its mail settings. Everything here is the caller's own: there is no
 * id of anyone else's to reach, and ids of others' notifications in a mark-read are ignored (they
 * match nothing), so the answer never tells whether such an id exists.
 */
export default async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const common = { onRequest: authenticate(ctx) };
  const tags = ['Notifications'];
  const security = [{ bearer: [] }];

  app.get(
    '/notifications',
    {
      ...common,
      schema: {
        tags,
        security,
        querystring: notificationListQuery,
        operationId: 'listNotifications',
        summary: 'List my notifications, newest first, with the unread count',
        response: {
          200: json(
            R.notificationPage,
            "A page of the caller's notifications, newest first (unread=true: only unread ones), with the unread count.",
          ),
          ...fails(SIGNED_IN, QUERY),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const { rows, total, unread } = await listOwn(ctx.reader(req), req.user!.id, {
        limit: q.per_page,
        offset: offsetOf(q),
        unreadOnly: q.unread === 'true',
      });
      return { ...paged(req, rows, total, q), unread };
    },
  );

  app.post(
    '/notifications/read',
    {
      ...common,
      schema: {
        tags,
        security,
        body: markReadBody,
        operationId: 'markNotificationsRead',
        summary: 'Mark my notifications read (all, or the ids given)',
        response: {
          200: data(
            R.notificationsMarked,
            "Marked read: the caller's notifications with these ids (ids of anyone else's are ignored), or all of them when ids is left out.",
          ),
          ...fails(SIGNED_IN, BODY, IDEMPOTENT),
        },
      },
    },
    async (req) => {
      const marked = await markRead(ctx.db, req.user!.id, req.body.ids, ctx.now());
      return ok({ marked, unread: await unreadCount(ctx.db, req.user!.id) });
    },
  );

  app.get(
    '/account/notification-settings',
    {
      ...common,
      schema: {
        tags,
        security,
        operationId: 'getNotificationSettings',
        summary: 'Get which notifications I am mailed',
        response: {
          200: data(
            z.array(R.apiNotificationSetting),
            'Each notification type the caller can receive, with whether it is mailed (defaults where never chosen).',
          ),
          ...fails(SIGNED_IN),
        },
      },
    },
    async (req) => ok(await settingsOf(ctx.db, req.user!.id, isStaff(req.user!.role))),
  );

  app.put(
    '/account/notification-settings',
    {
      ...common,
      schema: {
        tags,
        security,
        body: notificationSettingsBody,
        operationId: 'updateNotificationSettings',
        summary: 'Choose which notifications I am mailed',
        response: {
          200: data(z.array(R.apiNotificationSetting), 'Saved; the settings as they now are.'),
          ...fails(
            SIGNED_IN,
            BODY,
            IDEMPOTENT,
            e(422, 'A type is unknown (`error["mail.<type>"]`), or a security mail was turned off (they cannot be).'),
          ),
        },
      },
    },
    async (req) => {
      const me = req.user!;
      const allowed = new Set<string>(typesFor(isStaff(me.role)));
      const errors: FieldErrors = {};
      const changes: Array<[NotificationType, boolean]> = [];
      for (const [type, on] of Object.entries(req.body.mail)) {
        if (!allowed.has(type)) errors[`mail.${type}`] = ['Unknown notification type'];
        else if (mailLocked(type as NotificationType) && !on)
          errors[`mail.${type}`] = [
            `${NOTIFICATION_TYPES[type as NotificationType].label} mails are about your account's security and cannot be turned off`,
          ];
        else changes.push([type as NotificationType, on]);
      }
      if (Object.keys(errors).length) throw invalid(errors);
      await saveSettings(ctx.db, me.id, changes, ctx.now());
      return ok(await settingsOf(ctx.db, me.id, isStaff(me.role)));
    },
  );
}
