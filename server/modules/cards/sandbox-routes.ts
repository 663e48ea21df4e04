import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, idParams, sandboxAuthorizationBody } from '@shared/contract';
import { eq } from 'drizzle-orm';
import { cardTransactions, cards } from '../../db/schema';
import { IssuerError } from '../../issuer/port';
import { AppError, HTTP, notFound, ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { toApiCardTx } from './queries';
import { data, e, fails, message, BODY, IDEMPOTENT, PATH, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

/** Staff-only controls of the sandbox issuer: a merchant charges a card; a payment reverses or settles. */
export default async function sandboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Sandbox issuer'];
  const security = [{ bearer: [] }];

  app.post(
    '/sandbox/authorizations',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: sandboxAuthorizationBody,
        operationId: 'createSandboxAuthorization',
        summary: 'Charge a card as a merchant would (sandbox, staff)',
        response: {
          201: data(R.sandboxAuthorization, 'Staff, sandbox: a merchant charged the card; approved or declined.'),
          ...fails(STAFF, BODY, IDEMPOTENT, e(404, 'The card was not found.')),
        },
      },
    },
    async (req, reply) => {
      const [card] = await ctx.db.select().from(cards).where(eq(cards.id, req.body.card_id));
      if (!card) throw notFound('The card');
      const { card_id: _id, ...auth } = req.body;
      const decision = await ctx.issuer.simulateAuthorization(card.issuerToken, auth);
      const [tx] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, decision.transactionId));
      const transaction = tx ? toApiCardTx(tx) : null;
      return reply
        .status(HTTP.CREATED)
        .send(ok({ approved: decision.approved, decline_reason: decision.declineReason, transaction }));
    },
  );

  const outcomes = {
    reverse: ['reverseSandboxAuthorization', 'Reverse a held payment (sandbox, staff)', 'reversed'],
    settle: ['settleSandboxAuthorization', 'Settle a held payment (sandbox, staff)', 'settled'],
  } as const;
  for (const outcome of ['reverse', 'settle'] as const) {
    const [operationId, summary, done] = outcomes[outcome];
    app.post(
      `/sandbox/authorizations/:id/${outcome}`,
      {
        onRequest,
        schema: {
          tags,
          security,
          params: idParams,
          operationId,
          summary,
          response: {
            200: message(`Staff, sandbox: the held payment is ${done}.`),
            ...fails(
              STAFF,
              PATH,
              IDEMPOTENT,
              e(404, 'The authorisation was not found.'),
              e(409, `The payment can no longer be ${done}.`),
            ),
          },
        },
      },
      async (req) => {
        const [auth] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, req.params.id));
        if (auth?.kind !== 'authorization' || !auth.issuerReference) throw notFound('The authorisation');
        try {
          await (outcome === 'reverse'
            ? ctx.issuer.reverse(auth.issuerReference)
            : ctx.issuer.settle(auth.issuerReference));
        } catch (e) {
          if (e instanceof IssuerError) throw new AppError(HTTP.CONFLICT, e.message);
          throw e;
        }
        return ok({ message: outcome === 'reverse' ? 'Payment reversed.' : 'Payment settled.' });
      },
    );
  }
}
