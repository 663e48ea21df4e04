import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, balanceAtQuery, balanceMonitorBody, idParams } from '@shared/contract';
import * as R from '@shared/contract/responses';
import { HTTP, ok } from '../../lib/http';
import { BODY, IDEMPOTENT, PATH, QUERY, SIGNED_IN_OR_API, STAFF, data, e, fails, text } from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import { cardBalance } from './at';
import { addMonitor, listMonitors, removeMonitor } from './monitors';

/**
 * Issue 36: a card's balance now or at an instant (the wallet's is wallet/routes.ts's), and the balance alerts,
 * Finance's and the Super-Admin's (OPERATION_PERMISSIONS: balances.monitor).
 */
export default async function balanceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Balance alerts'];
  const security = [{ bearer: [] }];
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });

  app.get(
    '/cards/:id/account-balance',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: {
        tags: ['Cards'],
        security,
        params: idParams,
        querystring: balanceAtQuery,
        operationId: 'getCardBalance',
        summary: "Get a card's balance, now or at an instant",
        description:
          'With `at` (ISO 8601, e.g. 2026-06-30T23:59:59Z), the balances after the last postings at or before it, from the ledger: 0 before the first. A future `at` is refused.',
        response: {
          200: data(R.apiCardBalance, "The card's available, held and ledger balance."),
          ...fails(SIGNED_IN_OR_API, PATH, QUERY, e(404, 'The card was not found or is not yours.')),
        },
      },
    },
    async (req) => ok(await cardBalance(ctx, req.user!, req.params.id, req.query.at)),
  );

  app.get(
    '/balance-monitors',
    {
      onRequest,
      schema: {
        tags,
        security,
        operationId: 'listBalanceMonitors',
        summary: 'List the balance alerts',
        response: {
          200: data(z.array(R.apiBalanceMonitor), 'Every balance alert, newest first, with its balance and state.'),
          ...fails(STAFF),
        },
      },
    },
    async () => ok(await listMonitors(ctx)),
  );

  app.post(
    '/balance-monitors',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: balanceMonitorBody,
        operationId: 'createBalanceMonitor',
        summary: 'Add a balance alert',
        description:
          'Alerts once (a balance_low notification and mail to every Super-Admin and Finance member, a balance.low event in the audit trail) when a posting takes the balance below `below`; armed again once the balance is back at or above it.',
        response: {
          201: data(R.apiBalanceMonitor, 'Added. Already below its threshold, it starts as `below` without alerting.'),
          ...fails(
            STAFF,
            BODY,
            IDEMPOTENT,
            e(409, 'The account already has a balance alert.'),
            e(422, 'No wallet has this id.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await addMonitor(ctx, req.user!, req.body))),
  );

  app.delete(
    '/balance-monitors/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'deleteBalanceMonitor',
        summary: 'Delete a balance alert',
        response: {
          200: text('Deleted.', 'Balance alert deleted.'),
          ...fails(STAFF, PATH, IDEMPOTENT, e(404, 'The balance alert was not found.')),
        },
      },
    },
    async (req) => {
      await removeMonitor(ctx, req.params.id);
      return ok('Balance alert deleted.');
    },
  );
}
