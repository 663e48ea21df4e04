import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, can, momoSyncBody, momoUsersQuery } from '@shared/contract';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { momoSettingsOf, momoUsers, saveMomoSettings, toMomoDetails } from './service';
import { data, e, fails, json, BODY, IDEMPOTENT, QUERY, SIGNED_IN_OR_API, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { z } from 'zod';

export default async function momoRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Mobile money'];
  const security = [{ bearer: [] }];

  // Every signed-in customer needs the payment details; who gets alerts, only those who manage them
  // and the Auditor, who reads every setting.
  const seesMomoRecipients = (role: string) => can(role, 'momo.manage') || can(role, 'audit.read');
  app.get(
    '/param/momo-details',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: {
        tags,
        security,
        operationId: 'getMomoDetails',
        summary: 'Get where to pay by mobile money',
        response: {
          200: data(
            R.momoDetails,
            'Where to pay by mobile money (alert emails and confirmers only for staff who manage them, and the Auditor).',
          ),
          ...fails(SIGNED_IN_OR_API),
        },
      },
    },
    async (req) => ok(await toMomoDetails(ctx.db, await momoSettingsOf(ctx.db), seesMomoRecipients(req.user!.role))),
  );

  // The confirmation-user picker: customers by name or email, 20 at most.
  app.get(
    '/param/momo-users',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags,
        security,
        querystring: momoUsersQuery,
        operationId: 'searchMomoUsers',
        summary: 'Find customers to name as mobile-money confirmers',
        response: {
          200: data(
            z.array(R.momoUser),
            'Customers matching the search by name or email (20 at most), to name as confirmation users.',
          ),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req) => ok(await momoUsers(ctx.reader(req), { search: req.query.search })),
  );

  app.put(
    '/param/momo-sync',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags,
        security,
        body: momoSyncBody,
        operationId: 'updateMomoSettings',
        summary: 'Change the mobile-money settings',
        response: {
          200: json(z.strictObject({ message: z.string(), data: R.momoDetails }), 'Saved; the settings as stored.'),
          ...fails(STAFF, BODY, IDEMPOTENT, e(422, 'A confirmation user id is not a customer (`error.entity_users`).')),
        },
      },
    },
    async (req) => {
      const saved = await saveMomoSettings(ctx, req.user!.id, req.body);
      return { message: 'Momo settings saved.', data: await toMomoDetails(ctx.db, saved, true) };
    },
  );
}
