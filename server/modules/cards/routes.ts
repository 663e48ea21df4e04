import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CUSTOMER_ROLES,
  cardListQuery,
  cardTransactionsQuery,
  createCardBody,
  idParams,
  isStaff,
} from '@shared/contract';
import { HTTP, notFound, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { walletIdOf } from '../account/presenters';
import { cardForCaller } from './access';
import { type CardFilters, cardHistory, listCards } from './queries';
import { cardSums } from './sums';
import { cursorOf, sendCsv } from '../../lib/csv';
import { CARD_TX_COLUMNS } from '../reports/csv-columns';
import { sendCardsCsv } from './csv';
import { staffCardRoutes } from './staff-routes';
import { cardControlRoutes } from './control-routes';
import * as svc from './service';
import {
  data,
  e,
  fails,
  json,
  BODY,
  CUSTOMER_OR_API,
  IDEMPOTENT,
  PATH,
  QUERY,
  SIGNED_IN_OR_API,
  STAFF_RIGHT,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';

export default async function cardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Cards'];
  const security = [{ bearer: [] }];
  const anyone = authenticate(ctx, { api: true });
  const customer = authenticate(ctx, { roles: CUSTOMER_ROLES, api: true });

  app.post(
    '/cards',
    {
      onRequest: customer,
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: createCardBody,
        operationId: 'createCard',
        summary: 'Issue and load a virtual card',
        response: {
          201: data(R.apiCardDetail, 'The card is issued and loaded: with its full number, CVV and billing address.'),
          ...fails(
            CUSTOMER_OR_API,
            BODY,
            IDEMPOTENT,
            e(404, 'Your wallet was not found.'),
            e(
              422,
              'Below the minimum load (3.00), insufficient balance with fees, the nickname is taken, or the limit for unverified accounts (5 cards) is reached.',
            ),
            e(503, 'The card issuer did not complete the operation; nothing was charged.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await svc.createCard(ctx, req.user!, req.body, req))),
  );

  app.get(
    '/cards/allowance',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        operationId: 'getCardAllowance',
        summary: 'How many more cards the wallet may have',
        response: {
          200: data(
            R.apiCardAllowance,
            "How many more cards the caller's wallet may have: unverified accounts may have 5 in all.",
          ),
          ...fails(CUSTOMER_OR_API),
        },
      },
    },
    async (req) => ok(await svc.cardAllowance(ctx, req.user!)),
  );

  const walletLists = {
    individual: {
      operationId: 'listIndividualCards',
      summary: "List an Individual's cards",
      ok: "The wallet's cards, newest first (all of them, not paged).",
      notYours: "The wallet is not the caller's own individual wallet.",
    },
    company: {
      operationId: 'listCompanyCards',
      summary: "List a company's cards",
      ok: "The company wallet's cards, newest first (all of them, not paged).",
      notYours: "The wallet is not the caller's company wallet.",
    },
  };
  for (const kind of ['individual', 'company'] as const) {
    const { operationId, summary, ok: done, notYours } = walletLists[kind];
    app.get(
      `/cards/${kind}/:id`,
      {
        onRequest: anyone,
        schema: {
          tags,
          security,
          params: idParams,
          querystring: cardListQuery,
          operationId,
          summary,
          response: {
            200: data(z.array(R.apiCard), done),
            ...fails(SIGNED_IN_OR_API, PATH, QUERY, e(404, notYours)),
          },
        },
      },
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
        if (q.format === 'csv') return sendCardsCsv(ctx.reader(req), reply, f, isStaff(me.role));
        const r = await listCards(ctx.reader(req), f, undefined, isStaff(me.role));
        return ok(r.rows);
      },
    );
  }

  app.get(
    '/cards/:id',
    {
      onRequest: anyone,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'getCard',
        summary: 'Get a card',
        response: {
          200: data(
            R.apiCardDetail,
            "The card. Its owner gets the full number and CVV; staff get the card's sums (`additional_data`).",
          ),
          ...fails(SIGNED_IN_OR_API, PATH, e(404, 'The card was not found or is not yours.')),
        },
      },
    },
    async (req) => {
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
    },
  );

  // Registered in place, so the OpenAPI document keeps its order of paths.
  cardControlRoutes(fastify);

  app.delete(
    '/cards/:id',
    {
      onRequest: anyone,
      ...approvalGate(ctx, 'card.delete'),
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'deleteCard',
        summary: 'Delete a card',
        response: {
          202: heldOr(
            data(
              R.cardDeleted,
              'The card is ended: premium balances return to the wallet, basic balances are forfeited.',
            ),
          ),
          ...fails(
            SIGNED_IN_OR_API,
            STAFF_RIGHT,
            PATH,
            IDEMPOTENT,
            e(404, 'The card was not found or is not yours.'),
            e(
              409,
              'The card was already deleted, has payments waiting to settle, or a withdrawal waiting for the card issuer.',
            ),
          ),
        },
      },
    },
    async (req, reply) =>
      reply.status(HTTP.ACCEPTED).send(ok(await svc.deleteCard(ctx, req.user!, req.params.id, req))),
  );

  staffCardRoutes(fastify);

  app.get(
    '/reports/view-cards-transactions',
    {
      onRequest: anyone,
      schema: {
        tags,
        security,
        querystring: cardTransactionsQuery,
        operationId: 'listCardTransactions',
        summary: "List a card's transactions",
        response: {
          200: json(R.paged(R.apiCardTransaction), "A page of the card's transactions, newest first."),
          ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The card was not found or is not yours.')),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      await cardForCaller(ctx, req.user!, q.card);
      const f = { startDate: q.start_date, endDate: q.end_date };
      if (q.format === 'csv') {
        return sendCsv(reply, 'card-transactions', CARD_TX_COLUMNS, async (after, limit) => {
          const { rows } = await cardHistory(ctx.reader(req), q.card, f, { limit, offset: 0, after });
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
      const r = await cardHistory(ctx.reader(req), q.card, f, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );
}
