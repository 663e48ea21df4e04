import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CUSTOMER_ROLES,
  STAFF_ROLES,
  additionalLimitBody,
  cardAmountBody,
  cardListQuery,
  cardTransactionsQuery,
  changeStatusBody,
  changeStatusTokenBody,
  createCardBody,
  isStaff,
  reasonBody,
  spendingLimitBody,
} from '@shared/contract';
import { HTTP, notFound, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { walletIdOf } from '../account/presenters';
import { cardForCaller } from './access';
import * as manage from './manage';
import { type CardFilters, cardHistory, cardSums, listCards, masterBalances } from './queries';
import { cursorOf, sendCsv } from '../../lib/csv';
import { CARD_COLUMNS, CARD_TX_COLUMNS } from '../reports/csv-columns';
import * as svc from './service';

const idParams = z.object({ id: z.string().uuid() });

export default async function cardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Cards'];
  const security = [{ bearer: [] }];
  const anyone = authenticate(ctx, { api: true });
  const customer = authenticate(ctx, { roles: CUSTOMER_ROLES, api: true });
  const staff = authenticate(ctx, { roles: STAFF_ROLES });
  const cardsCsv = (reply: FastifyReply, f: CardFilters, asStaff: boolean) =>
    sendCsv(reply, 'cards', CARD_COLUMNS, async (after, limit) => {
      const { rows } = await listCards(ctx.db, f, { limit, offset: 0, after }, asStaff);
      return {
        rows,
        next: cursorOf(
          rows,
          (c) => c.created_at,
          (c) => c.id,
        ),
      };
    });

  app.post(
    '/cards',
    {
      onRequest: customer,
      config: { idempotency: 'in-transaction' },
      schema: { tags, security, body: createCardBody },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await svc.createCard(ctx, req.user!, req.body, req))),
  );

  app.get('/cards/allowance', { onRequest: customer, schema: { tags, security } }, async (req) =>
    ok(await svc.cardAllowance(ctx, req.user!)),
  );

  app.get(
    '/cards',
    { onRequest: staff, schema: { tags, security, querystring: cardListQuery } },
    async (req, reply) => {
      const q = req.query;
      const f: CardFilters = {
        walletId: q.company_id ?? q.individual_id,
        startDate: q.start_date,
        endDate: q.end_date,
        ownerType: q.for,
        purpose: q.purpose,
        type: q.type,
        isActive: q.is_active,
        search: q.search,
        deleted: q.deleted_only ? 'only' : 'include',
        flaggedOnly: q.flagged_only || q.flagged,
        createdBy: q.created_by,
      };
      if (q.format === 'csv') return cardsCsv(reply, f, true);
      const r = await listCards(ctx.db, f, { limit: q.per_page, offset: offsetOf(q) }, true);
      return paged(req, r.rows, r.total, q);
    },
  );

  for (const kind of ['individual', 'company'] as const) {
    app.get(
      `/cards/${kind}/:id`,
      { onRequest: anyone, schema: { tags, security, params: idParams, querystring: cardListQuery } },
      async (req, reply) => {
        const me = req.user!;
        const mine = walletIdOf({ id: me.id, role: me.role, companyId: me.companyId });
        const isRightKind = kind === 'individual' ? me.role === 'Individual' : me.role !== 'Individual';
        if (!isStaff(me.role) && (req.params.id !== mine || !isRightKind)) throw notFound('The wallet');
        const q = req.query;
        const f: CardFilters = {
          walletId: req.params.id,
          startDate: q.start_date,
          endDate: q.end_date,
          purpose: q.purpose,
          type: q.type,
          isActive: q.is_active,
          search: q.search,
          deleted: isStaff(me.role) && q.deleted_only ? 'only' : 'exclude',
        };
        if (q.format === 'csv') return cardsCsv(reply, f, isStaff(me.role));
        const r = await listCards(ctx.db, f, undefined, isStaff(me.role));
        return ok(r.rows);
      },
    );
  }

  app.get('/cards/:id', { onRequest: anyone, schema: { tags, security, params: idParams } }, async (req) => {
    const detail = await svc.cardDetail(ctx, req.user!, req.params.id);
    if (!isStaff(req.user!.role)) return ok(detail);
    const sums = await cardSums(ctx.db, req.params.id);
    return ok({
      ...detail,
      additional_data: {
        spending_limit: detail.card.spending_limit,
        additional_spending_limit: detail.card.additional_spending_limit,
        available: detail.card.available,
        ledger: detail.card.ledger,
        ...sums,
      },
    });
  });

  app.put(
    '/cards/:id',
    { onRequest: customer, schema: { tags, security, params: idParams, body: spendingLimitBody } },
    async (req, reply) =>
      reply.status(HTTP.CREATED).send(ok(await manage.setSpendingLimit(ctx, req.user!, req.params.id, req.body))),
  );

  app.post(
    '/cards/add-funds',
    { onRequest: anyone, config: { idempotency: 'in-transaction' }, schema: { tags, security, body: cardAmountBody } },
    async (req) => ok(await svc.fundCard(ctx, req.user!, req.body, req)),
  );

  app.post(
    '/cards/withdraw-funds',
    { onRequest: anyone, config: { idempotency: 'in-transaction' }, schema: { tags, security, body: cardAmountBody } },
    async (req, reply) => {
      const { status, data } = await svc.withdrawFromCard(ctx, req.user!, req.body, req);
      return reply.status(status).send(ok(data));
    },
  );

  app.post(
    '/cards/add-spend-limit/:id',
    { onRequest: customer, schema: { tags, security, params: idParams, body: additionalLimitBody } },
    async (req) => ok(await manage.addSpendLimit(ctx, req.user!, req.params.id, req.body)),
  );

  app.post(
    '/cards/change-status/:id',
    { onRequest: anyone, schema: { tags, security, params: idParams, body: changeStatusBody } },
    async (req, reply) =>
      reply.status(HTTP.ACCEPTED).send(ok(await manage.changeStatus(ctx, req.user!, req.params.id, req.body.status))),
  );

  app.post(
    '/cards/change-status-token',
    { onRequest: staff, schema: { tags, security, body: changeStatusTokenBody } },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await manage.changeStatusByToken(ctx, req.body))),
  );

  app.delete(
    '/cards/:id',
    { onRequest: anyone, config: { idempotency: 'in-transaction' }, schema: { tags, security, params: idParams } },
    async (req, reply) =>
      reply.status(HTTP.ACCEPTED).send(ok(await svc.deleteCard(ctx, req.user!, req.params.id, req))),
  );

  for (const what of ['flag', 'unflag', 'suspend', 'unsuspend'] as const) {
    app.post(
      `/cards/${what}/:id`,
      { onRequest: staff, schema: { tags, security, params: idParams, body: reasonBody } },
      async (req) => ok(await manage.toggle(ctx, req.params.id, what, req.body.reason)),
    );
  }

  app.get('/wallet/master-balance', { onRequest: staff, schema: { tags, security } }, async () =>
    ok(await masterBalances(ctx.db)),
  );

  app.get(
    '/reports/view-cards-transactions',
    { onRequest: anyone, schema: { tags, security, querystring: cardTransactionsQuery } },
    async (req, reply) => {
      const q = req.query;
      await cardForCaller(ctx, req.user!, q.card);
      const f = { startDate: q.start_date, endDate: q.end_date };
      if (q.format === 'csv') {
        return sendCsv(reply, 'card-transactions', CARD_TX_COLUMNS, async (after, limit) => {
          const { rows } = await cardHistory(ctx.db, q.card, f, { limit, offset: 0, after });
          return {
            rows,
            next: cursorOf(
              rows,
              (t) => t.date_created,
              (t) => t.id,
            ),
          };
        });
      }
      const r = await cardHistory(ctx.db, q.card, f, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );
}
