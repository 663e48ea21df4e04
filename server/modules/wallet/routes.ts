import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CUSTOMER_ROLES,
  MOMO_CONFIRMABLE,
  STAFF_ROLES,
  approveTopupBody,
  balanceAtQuery,
  idParams,
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
import { walletBalanceForCaller } from './access';
import { walletBalanceAt } from '../balances/at';
import { transfer } from './transfer';
import { sendTopupsCsv } from './csv';
import { forViewer, listTopups } from './queries';
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
  SIGNED_IN,
  SIGNED_IN_OR_API,
  STAFF,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';

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
      schema: {
        tags,
        security,
        params: idParams,
        querystring: balanceAtQuery,
        operationId: 'getWalletBalance',
        summary: "Get a master wallet's balance, now or at an instant",
        description:
          'With `at` (ISO 8601, e.g. 2026-06-30T23:59:59Z), the balance after the last posting at or before it, from the ledger: 0 before the first. A future `at` is refused.',
        response: {
          200: data(R.money, 'The master wallet\'s balance, e.g. {"data": "1250.00"}.'),
          ...fails(SIGNED_IN_OR_API, PATH, QUERY, e(404, 'The wallet was not found or is not yours.')),
        },
      },
    },
    async (req) =>
      ok(
        formatMoney(
          req.query.at
            ? await walletBalanceAt(ctx, req.user!, req.params.id, req.query.at)
            : await walletBalanceForCaller(ctx, req.user!, req.params.id),
        ),
      ),
  );

  app.post(
    '/wallet/topup-balance',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        body: topupBalanceBody,
        operationId: 'startTopup',
        summary: 'Start a wallet top-up',
        response: {
          201: data(R.topupInstructions, 'A Pending top-up, and how to pay it.'),
          ...fails(
            CUSTOMER_OR_API,
            BODY,
            IDEMPOTENT,
            e(404, 'The wallet is not yours.'),
            e(422, 'The amount is below the minimum (1.00).'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await svc.createTopup(ctx, req.user!, req.body))),
  );

  app.get(
    '/wallet/topup/:reference',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        params: z.object({ reference: z.string().max(40) }),
        operationId: 'getTopupInstructions',
        summary: 'Get how to pay a top-up',
        response: {
          200: data(R.topupInstructions, 'How to pay this top-up.'),
          ...fails(CUSTOMER_OR_API, e(404, 'The top-up was not found or is not yours.')),
        },
      },
    },
    async (req) => ok(await svc.topupInstructions(ctx, req.user!, req.params.reference)),
  );

  app.post(
    '/wallet/topup-confirm',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        body: topupConfirmBody,
        operationId: 'confirmTopupPayment',
        summary: 'Report a top-up as paid',
        response: {
          200: data(
            R.topupConfirmed,
            'The payment is noted and the hash looked up on the chain: Approved at once when it settled to this wallet’s address with the top-up’s amount, credited when it settles if it is still confirming; otherwise staff decide.',
          ),
          ...fails(
            CUSTOMER_OR_API,
            BODY,
            IDEMPOTENT,
            e(404, 'The top-up was not found or is not yours.'),
            e(409, 'This top-up was already confirmed.'),
            e(422, 'The transaction hash is missing, malformed or already used; or the code does not match.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.confirmTopup(ctx, req.user!, req.body)),
  );

  app.post(
    '/wallet/transfer',
    {
      onRequest: customer,
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: transferBody,
        operationId: 'transferFunds',
        summary: 'Transfer to another master wallet',
        response: {
          200: data(R.transferDone, 'Transferred: final and atomic.'),
          ...fails(
            CUSTOMER_OR_API,
            BODY,
            IDEMPOTENT,
            e(404, 'Your wallet was not found.'),
            e(422, 'Insufficient balance, your own wallet, or no (active) wallet has this id.'),
          ),
        },
      },
    },
    async (req) => ok(await transfer(ctx, req.user!, req.body, req, ok)),
  );

  app.get(
    '/wallet/list-topups',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        querystring: topupListQuery,
        operationId: 'listTopups',
        summary: 'List top-ups (staff)',
        response: {
          200: json(
            R.pagedWithTotals(R.apiTopup, R.topupTotals),
            'A page of top-ups, newest change first, with the totals: all, received (Approved), pending and denied.',
          ),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const f = {
        walletId: q.wallet ?? q.company_id ?? q.individual_id,
        state: q.state,
        method: q.method,
        ready: q.ready,
        ownerType: q.for,
        startDate: q.start_date,
        endDate: q.end_date,
      };
      if (q.format === 'csv') return sendTopupsCsv(reply, ctx.reader(req), f);
      const r = await listTopups(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
      return { ...paged(req, r.rows, r.total, q), totals: r.totals };
    },
  );

  app.post(
    '/wallet/approve-topup',
    {
      onRequest: staff,
      // Approving credits a wallet; denying moves nothing and is never held back.
      ...approvalGate(ctx, 'topup.approve', (b) => b.action === 'approve'),
      config: { idempotency: 'in-transaction' },
      schema: {
        tags,
        security,
        body: approveTopupBody,
        operationId: 'decideTopup',
        summary: 'Approve or deny a top-up (staff)',
        response: {
          200: data(R.topupDecision, 'Approved (the wallet is credited once) or denied.'),
          202: heldOr(),
          ...fails(
            STAFF,
            BODY,
            IDEMPOTENT,
            e(404, 'The top-up or its wallet was not found.'),
            e(409, 'The top-up was already decided, or is not ready (no transaction hash / momo confirmation yet).'),
            e(422, 'Approving a Tron hash the chain did not confirm needs a note (error.note).'),
          ),
        },
      },
    },
    async (req) => ok(await svc.decideTopup(ctx, req.user!, req.body, req)),
  );

  // Momo agents (customers named in the momo settings) and staff see mobile-money top-ups.
  app.get(
    '/wallet/list-momo-topups',
    {
      onRequest: authenticate(ctx),
      schema: {
        tags,
        security,
        querystring: topupListQuery,
        operationId: 'listMomoTopups',
        summary: 'List mobile-money top-ups',
        response: {
          200: json(
            R.pagedWithTotals(R.apiTopup, R.topupTotals),
            'A page of mobile-money top-ups, with the totals: all, received (Approved), pending and denied.',
          ),
          ...fails(SIGNED_IN, QUERY, e(403, 'Only mobile-money agents and staff see these top-ups.')),
        },
      },
    },
    async (req, reply) => {
      const me = req.user!;
      if (!STAFF_ROLES.includes(me.role as never) && !(await isMomoAgent(ctx.db, me.id)))
        throw forbidden('Only mobile-money agents see these top-ups.');
      const q = req.query;
      const f = {
        method: 'Momo' as const,
        state: q.state,
        states: q.to_confirm ? MOMO_CONFIRMABLE : undefined,
        startDate: q.start_date,
        endDate: q.end_date,
        walletId: q.wallet,
      };
      if (q.format === 'csv') return sendTopupsCsv(reply, ctx.reader(req), f, 'momo-top-ups');
      const r = await listTopups(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
      const rows = forViewer(r.rows, STAFF_ROLES.includes(me.role as never));
      return { ...paged(req, rows, r.total, q), totals: r.totals };
    },
  );

  app.post(
    '/wallet/momo-confirm',
    {
      onRequest: customer,
      schema: {
        tags,
        security,
        body: momoConfirmBody,
        operationId: 'confirmMomoPayment',
        summary: 'Confirm that mobile money arrived (agents)',
        response: {
          200: data(R.momoProcessed, 'The mobile money arrived; the top-up waits for approval.'),
          ...fails(
            CUSTOMER_OR_API,
            BODY,
            IDEMPOTENT,
            e(403, 'Only mobile-money agents confirm payments.'),
            e(404, 'The top-up was not found.'),
            e(409, 'The top-up cannot be confirmed in its state.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.markMomoProcessed(ctx, req.user!, req.body.topup_id)),
  );
}
