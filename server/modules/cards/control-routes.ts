import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CUSTOMER_ROLES,
  additionalLimitBody,
  cardAmountBody,
  changeStatusBody,
  idParams,
  spendingLimitBody,
} from '@shared/contract';
import * as R from '@shared/contract/responses';
import { HTTP, ok } from '../../lib/http';
import {
  data,
  e,
  fails,
  BODY,
  CUSTOMER_OR_API,
  IDEMPOTENT,
  PATH,
  SIGNED_IN_OR_API,
  STAFF_RIGHT,
} from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import * as manage from './manage';
import * as svc from './service';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';

/** A card's money and controls: spending limits, funds in and out (premium), freezing. */
export function cardControlRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Cards'];
  const security = [{ bearer: [] }];
  const anyone = authenticate(ctx, { api: true });
  const customer = authenticate(ctx, { roles: CUSTOMER_ROLES, api: true });

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
      ...approvalGate(ctx, 'card.fund'),
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: cardAmountBody,
        operationId: 'fundCard',
        summary: 'Load a premium card from the wallet',
        response: {
          200: data(R.cardFunded, 'Premium cards: the wallet paid amount plus fees; the card received the amount.'),
          202: heldOr(),
          ...fails(
            SIGNED_IN_OR_API,
            STAFF_RIGHT,
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
      ...approvalGate(ctx, 'card.withdraw'),
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: cardAmountBody,
        operationId: 'withdrawFromCard',
        summary: 'Move money from a premium card to the wallet',
        response: {
          200: data(R.cardWithdrawn, 'Premium cards: the card gave the amount; the wallet received it less fees.'),
          202: heldOr(
            data(
              R.cardWithdrawn,
              "The card issuer has not confirmed yet: the wallet receives the amount less fees as soon as it does. A retry with the same Idempotency-Key answers 409 until then, and the withdrawal's final answer after.",
            ),
          ),
          ...fails(
            SIGNED_IN_OR_API,
            STAFF_RIGHT,
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
            STAFF_RIGHT,
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
}
