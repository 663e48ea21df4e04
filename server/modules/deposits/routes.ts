import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STAFF_ROLES,
  assignChainDepositBody,
  chainDepositListQuery,
  idParams,
  returnChainDepositBody,
  sandboxChainTransferBody,
  uuidParam,
} from '@shared/contract';
import { NETWORK_NAME } from '../../chain/port';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { walletForCaller } from '../wallet/access';
import { depositAddressOf } from './addresses';
import { sendSandboxDeposit } from './sandbox';
import { assignChainDeposit, listChainDeposits, returnChainDeposit } from './staff';
import {
  data,
  e,
  fails,
  json,
  message,
  BODY,
  IDEMPOTENT,
  PATH,
  QUERY,
  SIGNED_IN_OR_API,
  STAFF,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';
import { readingCtx } from '../../db/read-routing';

/** A wallet's own Tron address; staff's view of settled deposits; the sandbox chain's sending. */
export default async function depositRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const security = [{ bearer: [] }];
  const staff = authenticate(ctx, { roles: STAFF_ROLES });

  app.get(
    '/wallet/deposit-address/:walletId',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: {
        tags: ['Wallet'],
        security,
        params: z.object({ walletId: uuidParam }),
        operationId: 'getDepositAddress',
        summary: "Get a master wallet's own Tron deposit address",
        response: {
          200: data(
            R.depositAddress,
            'The wallet’s own Tron address: USDT sent there is credited by itself once confirmed, less the 0.5% Tron fee.',
          ),
          ...fails(SIGNED_IN_OR_API, PATH, e(404, 'The wallet was not found or is not yours.')),
        },
      },
    },
    async (req) => {
      const wallet = await walletForCaller(ctx, req.user!, req.params.walletId);
      return ok({ address: await depositAddressOf(ctx, wallet.ownerId ?? req.params.walletId), network: NETWORK_NAME });
    },
  );

  app.get(
    '/wallet/chain-deposits',
    {
      onRequest: staff,
      schema: {
        tags: ['Wallet'],
        security,
        querystring: chainDepositListQuery,
        operationId: 'listChainDeposits',
        summary: 'List settled on-chain deposits (staff)',
        response: {
          200: json(
            R.paged(R.apiChainDeposit),
            'Staff: settled USDT deposits to the platform’s addresses, newest first; Unassigned ones wait for staff.',
          ),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const r = await listChainDeposits(readingCtx(ctx, req), q.status, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );

  app.post(
    '/wallet/chain-deposits/:id/assign',
    {
      onRequest: staff,
      ...approvalGate(ctx, 'deposit.assign'),
      schema: {
        tags: ['Wallet'],
        security,
        params: idParams,
        body: assignChainDepositBody,
        operationId: 'assignChainDeposit',
        summary: 'Credit an unassigned deposit to a wallet (staff)',
        response: {
          200: message('Staff: the deposit is credited to the wallet as an approved Tron top-up, less the fee.'),
          202: heldOr(),
          ...fails(
            STAFF,
            BODY,
            PATH,
            IDEMPOTENT,
            e(404, 'No such deposit or wallet.'),
            e(409, 'The deposit was already decided, or is less than a cent.'),
          ),
        },
      },
    },
    async (req) => ok(await assignChainDeposit(ctx, req.user!, req.params.id, req.body)),
  );

  app.post(
    '/wallet/chain-deposits/:id/return',
    {
      onRequest: staff,
      ...approvalGate(ctx, 'deposit.return'),
      schema: {
        tags: ['Wallet'],
        security,
        params: idParams,
        body: returnChainDepositBody,
        operationId: 'returnChainDeposit',
        summary: 'Mark an unassigned deposit as returned to its sender (staff)',
        response: {
          200: message('Staff: the deposit is marked as returned to its sender.'),
          202: heldOr(),
          ...fails(
            STAFF,
            BODY,
            PATH,
            IDEMPOTENT,
            e(404, 'No such deposit.'),
            e(409, 'The deposit was already decided.'),
          ),
        },
      },
    },
    async (req) => ok(await returnChainDeposit(ctx, req.user!, req.params.id, req.body)),
  );

  app.post(
    '/sandbox/chain/transfers',
    {
      onRequest: staff,
      schema: {
        tags: ['Sandbox chain'],
        security,
        body: sandboxChainTransferBody,
        operationId: 'sendSandboxChainTransfer',
        summary: 'Send USDT to an address on the sandbox chain (sandbox, staff)',
        response: {
          201: data(
            R.sandboxChainTransfer,
            'Staff, sandbox chain: USDT sent to the address; the deposit watcher credits it once it has enough confirmations.',
          ),
          ...fails(STAFF, BODY, IDEMPOTENT, e(404, 'The sandbox chain is not in use (CHAIN=trongrid).')),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await sendSandboxDeposit(ctx, req.body, req.user!.id))),
  );
}
