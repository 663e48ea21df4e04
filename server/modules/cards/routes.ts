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
import {
  data,
  e,
  fails,
  json,
  message,
  BODY,
  CUSTOMER_OR_API,
  IDEMPOTENT,
  PATH,
  QUERY,
  SIGNED_IN_OR_API,
  STAFF,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';

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

  app.get(
    '/cards',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        querystring: cardListQuery,
        operationId: 'listCards',
        summary: 'List every card (staff)',
        response: {
          200: json(R.paged(R.apiCard), 'A page of every card, newest first, with owners and issuer tokens.'),
          ...fails(STAFF, QUERY),
        },
      },
    },
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
        if (q.format === 'csv') return cardsCsv(reply, f, isStaff(me.role));
        const r = await listCards(ctx.db, f, undefined, isStaff(me.role));
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

  app.put(
    '/cards/:id',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        params: idParams,
        body: spendingLimitBody,
        operationId: 'setCardSpendingLimit',
        summary: "Set a Visa card's spending limit",
        response: {
          201: data(R.spendingLimitSet, "The Visa card's spending limit is set."),
          ...fails(
            CUSTOMER_OR_API,
            PATH,
            BODY,
            IDEMPOTENT,
            e(404, 'The card was not found or is not yours.'),
            e(409, 'The card has been deleted.'),
            e(422, 'Spending limits apply to Visa cards only.'),
          ),
        },
      },
    },
    async (req, reply) =>
      reply.status(HTTP.CREATED).send(ok(await manage.setSpendingLimit(ctx, req.user!, req.params.id, req.body))),
  );

  app.post(
    '/cards/add-funds',
    {
      onRequest: anyone,
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: cardAmountBody,
        operationId: 'fundCard',
        summary: 'Load a premium card from the wallet',
        response: {
          200: data(R.cardFunded, 'Premium cards: the wallet paid amount plus fees; the card received the amount.'),
          ...fails(
            SIGNED_IN_OR_API,
            BODY,
            IDEMPOTENT,
            e(404, 'The card was not found or is not yours.'),
            e(409, 'The card has been deleted.'),
            e(422, 'A basic card, below the minimum (3.00), or insufficient balance with fees.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.fundCard(ctx, req.user!, req.body, req)),
  );

  app.post(
    '/cards/withdraw-funds',
    {
      onRequest: anyone,
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: cardAmountBody,
        operationId: 'withdrawFromCard',
        summary: 'Move money from a premium card to the wallet',
        response: {
          200: data(R.cardWithdrawn, 'Premium cards: the card gave the amount; the wallet received it less fees.'),
          202: data(
            R.cardWithdrawn,
            "The card issuer has not confirmed yet: the wallet receives the amount less fees as soon as it does. A retry with the same Idempotency-Key answers 409 until then, and the withdrawal's final answer after.",
          ),
          ...fails(
            SIGNED_IN_OR_API,
            BODY,
            IDEMPOTENT,
            e(404, 'The card was not found or is not yours.'),
            e(409, 'The card has been deleted.'),
            e(
              422,
              'A basic card, the amount does not exceed the fees, the card holds less, or the card issuer refused.',
            ),
          ),
        },
      },
    },
    async (req, reply) => {
      const { status, data } = await svc.withdrawFromCard(ctx, req.user!, req.body, req);
      return reply.status(status).send(ok(data));
    },
  );

  app.post(
    '/cards/add-spend-limit/:id',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        params: idParams,
        body: additionalLimitBody,
        operationId: 'addCardSpendingLimit',
        summary: 'Allow extra spending on a Visa card',
        response: {
          200: data(R.additionalLimitAdded, 'Extra spending allowed on top of the limit.'),
          ...fails(
            CUSTOMER_OR_API,
            PATH,
            BODY,
            IDEMPOTENT,
            e(404, 'The card was not found or is not yours.'),
            e(409, 'The card has been deleted.'),
            e(422, 'Not a Visa card, no spending limit set yet, or `card` does not match the path.'),
          ),
        },
      },
    },
    async (req) => ok(await manage.addSpendLimit(ctx, req.user!, req.params.id, req.body)),
  );

  app.post(
    '/cards/change-status/:id',
    {
      onRequest: anyone,
      schema: {
        tags,
        security,
        params: idParams,
        body: changeStatusBody,
        operationId: 'changeCardStatus',
        summary: 'Freeze or unfreeze a premium card',
        response: {
          202: data(R.cardStatusChanged, 'Premium cards: frozen (deactivate) or unfrozen (activate).'),
          ...fails(
            SIGNED_IN_OR_API,
            PATH,
            BODY,
            IDEMPOTENT,
            e(404, 'The card was not found or is not yours.'),
            e(409, 'The card has been deleted, or is already in that state.'),
            e(422, 'Basic cards cannot be frozen.'),
            e(503, 'The card issuer refused; nothing changed.'),
          ),
        },
      },
    },
    async (req, reply) =>
      reply.status(HTTP.ACCEPTED).send(ok(await manage.changeStatus(ctx, req.user!, req.params.id, req.body.status))),
  );

  app.post(
    '/cards/change-status-token',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        body: changeStatusTokenBody,
        operationId: 'changeCardStatusByToken',
        summary: 'Freeze or unfreeze a card by its issuer token (staff)',
        response: {
          202: data(R.cardStatusChanged, 'Staff: a card frozen or unfrozen by its issuer token.'),
          ...fails(
            STAFF,
            BODY,
            IDEMPOTENT,
            e(409, 'The card has been deleted, or is already in that state.'),
            e(422, 'No card has this token (in this wallet), or it is a basic card.'),
            e(503, 'The card issuer refused; nothing changed.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await manage.changeStatusByToken(ctx, req.body))),
  );

  app.delete(
    '/cards/:id',
    {
      onRequest: anyone,
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'deleteCard',
        summary: 'Delete a card',
        response: {
          202: data(
            R.cardDeleted,
            'The card is ended: premium balances return to the wallet, basic balances are forfeited.',
          ),
          ...fails(
            SIGNED_IN_OR_API,
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

  const toggles = {
    flag: ['flagCard', 'Flag a card (staff)', 'flagged', 'The card is already flagged.'],
    unflag: ['unflagCard', 'Unflag a card (staff)', 'unflagged', 'The card is not flagged.'],
    suspend: ['suspendCard', 'Suspend a card (staff)', 'suspended', 'The card is already suspended.'],
    unsuspend: ['unsuspendCard', 'Unsuspend a card (staff)', 'unsuspended', 'The card is not suspended.'],
  } as const;
  for (const what of ['flag', 'unflag', 'suspend', 'unsuspend'] as const) {
    const [operationId, summary, done, conflict] = toggles[what];
    app.post(
      `/cards/${what}/:id`,
      {
        onRequest: staff,
        schema: {
          tags,
          security,
          params: idParams,
          body: reasonBody,
          operationId,
          summary,
          response: {
            200: message(`Staff: the card is ${done} (the reason is kept).`),
            ...fails(STAFF, PATH, BODY, IDEMPOTENT, e(404, 'The card was not found.'), e(409, conflict)),
          },
        },
      },
      async (req) => ok(await manage.toggle(ctx, req.params.id, what, req.body.reason)),
    );
  }

  app.get(
    '/wallet/master-balance',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        operationId: 'getCardBalances',
        summary: 'Get the money on cards by purpose (staff)',
        response: {
          200: data(R.masterBalances, 'Money on cards by purpose: available, and ledger (with held payments).'),
          ...fails(STAFF),
        },
      },
    },
    async () => ok(await masterBalances(ctx.db)),
  );

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
