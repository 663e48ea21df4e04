import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { momoSyncBody, momoUsersQuery } from '@shared/contract';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { momoSettingsOf, momoUsers, saveMomoSettings, toMomoDetails } from './service';

export default async function momoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Mobile money'];
  const security = [{ bearer: [] }];

  // Every signed-in customer needs the payment details; only a Super-Admin sees who gets alerts.
  app.get(
    '/param/momo-details',
    { onRequest: authenticate(ctx, { api: true }), schema: { tags, security } },
    async (req) => ok(await toMomoDetails(ctx.db, await momoSettingsOf(ctx.db), req.user!.role === 'Super-Admin')),
  );

  // The confirmation-user picker: customers by name or email, 20 at most.
  app.get(
    '/param/momo-users',
    {
      onRequest: authenticate(ctx, { roles: ['Super-Admin'] }),
      schema: { tags, security, querystring: momoUsersQuery },
    },
    async (req) => ok(await momoUsers(ctx.db, { search: req.query.search })),
  );

  app.put(
    '/param/momo-sync',
    { onRequest: authenticate(ctx, { roles: ['Super-Admin'] }), schema: { tags, security, body: momoSyncBody } },
    async (req) => {
      const saved = await saveMomoSettings(ctx, req.user!.id, req.body);
      return { message: 'Momo settings saved.', data: await toMomoDetails(ctx.db, saved, true) };
    },
  );
}
