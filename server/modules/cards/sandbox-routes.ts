import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  STAFF_ROLES,
  idParams,
  isStaff,
  sandboxAuthorizationBody,
  sandboxClearBody,
  sandboxExpireBody,
  sandboxForcePostBody,
  sandboxIncrementBody,
  sandboxRefundBody,
  sandboxReverseBody,
} from '@shared/contract';
import { formatMoney } from '@shared/money';
import { and, eq } from 'drizzle-orm';
import { cardTransactions } from '../../db/schema';
import { type AuthorizationDecision, IssuerError, type StepOutcome } from '../../issuer/port';
import { AppError, HTTP, forbidden, notFound, ok } from '../../lib/http';
import { auditRowOf } from '../../plugins/audit';
import { authenticate } from '../../plugins/auth';
import { walletIdOf } from '../account/presenters';
import { cardForCaller } from './access';
import { toApiCardTx } from './queries';
import type { CardTx } from './steps';
import { data, e, fails, BODY, IDEMPOTENT, PATH, SIGNED_IN_OR_API, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

const CALLER = [
  ...SIGNED_IN_OR_API,
  e(403, "Staff, or a company's API client (client credentials) for its own cards."),
  e(404, 'The card or authorisation was not found, or is not one of the API client’s company’s cards.'),
];
const MISFIT = e(409, 'The step does not fit the authorisation’s state (e.g. reversing more than it holds).');

/**
 * The sandbox issuer's controls: a merchant's every message about a card, for staff (any card)
 * and for a company's API client (its own cards), so a whole payment can be walked through.
 */
export default async function sandboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { api: true });
  const staffOnly = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Sandbox issuer'];
  const security = [{ bearer: [] }];

  /** Staff reach every card; an API client its company's (404 for another's); a portal session none. */
  const allowed = (req: FastifyRequest) => {
    const me = req.user!;
    if (!isStaff(me.role) && me.via !== 'api') throw forbidden("Staff, or a company's API client, only.");
    return me;
  };
  const cardOf = (req: FastifyRequest, cardId: string) => cardForCaller(ctx, allowed(req), cardId);
  const authorizationOf = async (req: FastifyRequest, id: string) => {
    const me = allowed(req);
    const [auth] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, id));
    if (auth?.kind !== 'authorization' || !auth.issuerReference) throw notFound('The authorisation');
    await cardForCaller(ctx, me, auth.cardId).catch(() => {
      throw notFound('The authorisation');
    });
    return auth;
  };
  const rowOf = async (id: string) => {
    const [row] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, id));
    if (!row) throw new AppError(HTTP.CONFLICT, 'The platform did not record this message.');
    return toApiCardTx(row);
  };
  /** A message the authorisation's state refuses is a 409. */
  const issuer = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof IssuerError) throw new AppError(HTTP.CONFLICT, err.message);
      throw err;
    }
  };
  const decision = async (d: AuthorizationDecision, authId: string) => ({
    approved: d.approved,
    approved_amount: formatMoney(d.approvedAmount),
    decline_code: d.declineCode,
    decline_reason: d.declineReason,
    // the authorisation's own row, when the answer brought it (approved in one statement)
    transaction: d.row && d.transactionId === authId ? toApiCardTx(d.row as CardTx) : await rowOf(authId),
  });
  const step = async (s: StepOutcome) => ({ message: s.message, transaction: await rowOf(s.transactionId) });

  app.post(
    '/sandbox/authorizations',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: sandboxAuthorizationBody,
        operationId: 'createSandboxAuthorization',
        summary: 'Charge a card as a merchant would (sandbox)',
        response: {
          201: data(R.sandboxAuthorization, 'A merchant charged the card: approved (maybe partially) or declined.'),
          ...fails(CALLER, BODY, IDEMPOTENT),
        },
      },
    },
    async (req, reply) => {
      const me = allowed(req);
      const { card_id, partial_allowed, ...auth } = req.body;
      const payment = { ...auth, partialAllowed: partial_allowed };
      // An approval in one statement: the caller's reach to the card checked there, the staff's audit row written
      // with it (one commit). Anything else goes the whole way, from the card's lookup (its 404).
      const audit = auditRowOf(req, HTTP.CREATED);
      const reach = { cardId: card_id, walletId: isStaff(me.role) ? null : walletIdOf(me) };
      const fast = ctx.issuer.approveByCard ? await ctx.issuer.approveByCard(reach, payment, audit) : undefined;
      if (fast && 'approved' in fast) {
        req.audited = !!audit;
        return reply.status(HTTP.CREATED).send(ok(await decision(fast, fast.transactionId)));
      }
      const card = await cardForCaller(ctx, me, card_id);
      const d = await issuer(() => ctx.issuer.simulateAuthorization(card.issuerToken, payment, fast));
      return reply.status(HTTP.CREATED).send(ok(await decision(d, d.transactionId)));
    },
  );

  app.post(
    '/sandbox/authorizations/:id/increment',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        body: sandboxIncrementBody,
        operationId: 'incrementSandboxAuthorization',
        summary: 'Add to a pending authorisation’s hold (sandbox)',
        response: {
          200: data(R.sandboxAuthorization, 'The increment, approved or declined; `transaction` is the authorisation.'),
          ...fails(CALLER, PATH, BODY, IDEMPOTENT, MISFIT),
        },
      },
    },
    async (req) => {
      const auth = await authorizationOf(req, req.params.id);
      const d = await issuer(() => ctx.issuer.increment(auth.issuerReference!, req.body.amount));
      return ok(await decision(d, auth.id));
    },
  );

  app.post(
    '/sandbox/authorizations/:id/reverse',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        body: sandboxReverseBody,
        operationId: 'reverseSandboxAuthorization',
        summary: 'Release a held payment, whole or in part (sandbox)',
        response: {
          200: data(R.sandboxStep, 'The reversal.'),
          ...fails(CALLER, PATH, BODY, IDEMPOTENT, MISFIT),
        },
      },
    },
    async (req) => {
      const auth = await authorizationOf(req, req.params.id);
      return ok(await step(await issuer(() => ctx.issuer.reverse(auth.issuerReference!, req.body?.amount ?? null))));
    },
  );

  app.post(
    '/sandbox/authorizations/:id/clear',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        body: sandboxClearBody,
        operationId: 'clearSandboxAuthorization',
        summary: 'Clear a payment’s final amount (sandbox)',
        response: {
          200: data(R.sandboxStep, 'The clearing.'),
          ...fails(CALLER, PATH, BODY, IDEMPOTENT, MISFIT),
        },
      },
    },
    async (req) => {
      const auth = await authorizationOf(req, req.params.id);
      const { amount, close_authorization } = req.body;
      return ok(await step(await issuer(() => ctx.issuer.clear(auth.issuerReference!, amount, close_authorization))));
    },
  );

  app.post(
    '/sandbox/authorizations/:id/settle',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'settleSandboxAuthorization',
        summary: 'Settle a held payment: a clearing of what it holds (sandbox)',
        response: {
          200: data(R.sandboxStep, 'The clearing of the held amount.'),
          ...fails(CALLER, PATH, IDEMPOTENT, MISFIT),
        },
      },
    },
    async (req) => {
      const auth = await authorizationOf(req, req.params.id);
      return ok(await step(await issuer(() => ctx.issuer.settle(auth.issuerReference!))));
    },
  );

  app.post(
    '/sandbox/refunds',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: sandboxRefundBody,
        operationId: 'createSandboxRefund',
        summary: 'A merchant refunds the card, for an earlier payment or not (sandbox)',
        response: {
          201: data(R.sandboxStep, 'The refund.'),
          ...fails(
            CALLER,
            BODY,
            IDEMPOTENT,
            e(409, 'More than the payment cleared less its refunds, or a deleted card.'),
          ),
        },
      },
    },
    async (req, reply) => {
      const { card_id, transaction_id, ...msg } = req.body;
      const card = await cardOf(req, card_id);
      let original: string | null = null;
      if (transaction_id) {
        const [o] = await ctx.db
          .select()
          .from(cardTransactions)
          .where(and(eq(cardTransactions.id, transaction_id), eq(cardTransactions.cardId, card.id)));
        if (!o?.issuerReference || (o.kind !== 'authorization' && o.kind !== 'force_post'))
          throw new AppError(HTTP.UNPROCESSABLE, 'Transaction is not a payment of this card.', {
            transaction_id: ['Transaction is not a payment of this card.'],
          });
        original = o.issuerReference;
      }
      const s = await issuer(() => ctx.issuer.refund(card.issuerToken, msg, original));
      return reply.status(HTTP.CREATED).send(ok(await step(s)));
    },
  );

  app.post(
    '/sandbox/force-posts',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: sandboxForcePostBody,
        operationId: 'createSandboxForcePost',
        summary: 'A merchant charges the card without authorisation (sandbox)',
        response: {
          201: data(R.sandboxStep, 'The charge; the card may go into debt.'),
          ...fails(CALLER, BODY, IDEMPOTENT, e(409, 'The card has been deleted.')),
        },
      },
    },
    async (req, reply) => {
      const { card_id, ...msg } = req.body;
      const card = await cardOf(req, card_id);
      const s = await issuer(() => ctx.issuer.forcePost(card.issuerToken, msg));
      return reply.status(HTTP.CREATED).send(ok(await step(s)));
    },
  );

  app.post(
    '/sandbox/holds/expire',
    {
      onRequest: staffOnly,
      schema: {
        tags,
        security,
        body: sandboxExpireBody,
        operationId: 'expireSandboxHolds',
        summary: 'Expire the holds pending longer than some days, now (sandbox, staff)',
        response: {
          200: data(R.holdsExpired, 'Staff: how many holds expired.'),
          ...fails(STAFF, BODY, IDEMPOTENT),
        },
      },
    },
    async (req) => {
      const days = req.body?.older_than_days ?? 7;
      const expired = await ctx.issuer.expireHolds(days);
      return ok({
        message: expired
          ? `${expired} ${expired === 1 ? 'hold' : 'holds'} pending longer than ${days} days expired.`
          : `No hold was pending longer than ${days} days.`,
        expired,
      });
    },
  );
}
