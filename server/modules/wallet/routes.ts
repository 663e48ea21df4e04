import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CUSTOMER_ROLES,
  STAFF_ROLES,
  approveTopupBody,
  momoConfirmBody,
  topupBalanceBody,
  topupConfirmBody,
  topupListQuery,
  transferBody,
} from '@shared/contract';
import { formatMoney } from '@shared/money';
import { HTTP, forbidden, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { isMomoAgent } from '../momo/service';
import { walletForCaller } from './access';
import { transfer } from './transfer';
import { sendTopupsCsv } from './csv';
import { listTopups } from './queries';
import * as svc from './service';

export default async function walletRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Wallet'];
  const security = [{ bearer: [] }];
  const customer = authenticate(ctx, { roles: CUSTOMER_ROLES, api: true });
  const staff = authenticate(ctx, { roles: STAFF_ROLES });

  app.get(
    '/wallet/account-balance/:id',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: { tags, security, params: z.object({ id: z.string().uuid() }) },
    },
    async (req) => ok(formatMoney((await walletForCaller(ctx, req.user!, req.params.id)).balance)),
  );

  app.post(
    '/wallet/topup-balance',
    { onRequest: customer, schema: { tags, security, body: topupBalanceBody } },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await svc.createTopup(ctx, req.user!, req.body))),
  );

  app.get(
    '/wallet/topup/:reference',
    { onRequest: customer, schema: { tags, security, params: z.object({ reference: z.string().max(40) }) } },
    async (req) => ok(await svc.topupInstructions(ctx, req.user!, req.params.reference)),
  );

  app.post(
    '/wallet/topup-confirm',
    { onRequest: customer, schema: { tags, security, body: topupConfirmBody } },
    async (req) => ok(await svc.confirmTopup(ctx, req.user!, req.body)),
  );

  app.post(
    '/wallet/transfer',
    { onRequest: customer, config: { idempotency: 'in-transaction' }, schema: { tags, security, body: transferBody } },
    async (req) => ok(await transfer(ctx, req.user!, req.body, req, ok)),
  );

  app.get(
    '/wallet/list-topups',
    { onRequest: staff, schema: { tags, security, querystring: topupListQuery } },
    async (req, reply) => {
      const q = req.query;
      const f = {
        walletId: q.wallet ?? q.company_id ?? q.individual_id,
        state: q.state,
        method: q.method,
        ownerType: q.for,
        startDate: q.start_date,
        endDate: q.end_date,
      };
      if (q.format === 'csv') return sendTopupsCsv(reply, ctx.db, f);
      const r = await listTopups(ctx.db, f, { limit: q.per_page, offset: offsetOf(q) });
      return { ...paged(req, r.rows, r.total, q), totals: r.totals };
    },
  );

  app.post(
    '/wallet/approve-topup',
    { onRequest: staff, config: { idempotency: 'in-transaction' }, schema: { tags, security, body: approveTopupBody } },
    async (req) => ok(await svc.decideTopup(ctx, req.user!, req.body, req)),
  );

  // Momo agents (customers named in the momo settings) and staff see mobile-money top-ups.
  app.get(
    '/wallet/list-momo-topups',
    { onRequest: authenticate(ctx), schema: { tags, security, querystring: topupListQuery } },
    async (req, reply) => {
      const me = req.user!;
      if (!STAFF_ROLES.includes(me.role as never) && !(await isMomoAgent(ctx.db, me.id)))
        throw forbidden('Only mobile-money agents see these top-ups.');
      const q = req.query;
      const f = {
        method: 'Momo' as const,
        state: q.state,
        startDate: q.start_date,
        endDate: q.end_date,
        walletId: q.wallet,
      };
      if (q.format === 'csv') return sendTopupsCsv(reply, ctx.db, f, 'momo-top-ups');
      const r = await listTopups(ctx.db, f, { limit: q.per_page, offset: offsetOf(q) });
      return { ...paged(req, r.rows, r.total, q), totals: r.totals };
    },
  );

  app.post(
    '/wallet/momo-confirm',
    { onRequest: customer, schema: { tags, security, body: momoConfirmBody } },
    async (req) => ok(await svc.markMomoProcessed(ctx, req.user!, req.body.topup_id)),
  );
}
