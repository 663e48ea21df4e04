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
    { ...common, schema: { tags, security, querystring: notificationListQuery } },
    async (req) => {
      const q = req.query;
      const { rows, total, unread } = await listOwn(ctx.db, req.user!.id, {
        limit: q.per_page,
        offset: offsetOf(q),
        unreadOnly: q.unread === 'true',
      });
      return { ...paged(req, rows, total, q), unread };
    },
  );

  app.post('/notifications/read', { ...common, schema: { tags, security, body: markReadBody } }, async (req) => {
    const marked = await markRead(ctx.db, req.user!.id, req.body.ids, ctx.now());
    return ok({ marked, unread: await unreadCount(ctx.db, req.user!.id) });
  });

  app.get('/account/notification-settings', { ...common, schema: { tags, security } }, async (req) =>
    ok(await settingsOf(ctx.db, req.user!.id, isStaff(req.user!.role))),
  );

  app.put(
    '/account/notification-settings',
    { ...common, schema: { tags, security, body: notificationSettingsBody } },
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
