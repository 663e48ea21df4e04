import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STAFF_ROLES,
  assignChainDepositBody,
  chainDepositListQuery,
  returnChainDepositBody,
  sandboxChainTransferBody,
} from '@shared/contract';
import { NETWORK_NAME } from '../../chain/port';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { walletForCaller } from '../wallet/access';
import { depositAddressOf } from './addresses';
import { sendSandboxDeposit } from './sandbox';
import { assignChainDeposit, listChainDeposits, returnChainDeposit } from './staff';

/** A wallet's own Tron address; staff's view of settled deposits; the sandbox chain's sending. */
export default async function depositRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const security = [{ bearer: [] }];
  const staff = authenticate(ctx, { roles: STAFF_ROLES });
  const idParams = z.object({ id: z.string().uuid('Enter a valid deposit id') });

  app.get(
    '/wallet/deposit-address/:walletId',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: {
        tags: ['Wallet'],
        security,
        params: z.object({ walletId: z.string().uuid('Enter a valid wallet id') }),
      },
    },
    async (req) => {
      const wallet = await walletForCaller(ctx, req.user!, req.params.walletId);
      return ok({ address: await depositAddressOf(ctx, wallet.ownerId ?? req.params.walletId), network: NETWORK_NAME });
    },
  );

  app.get(
    '/wallet/chain-deposits',
    { onRequest: staff, schema: { tags: ['Wallet'], security, querystring: chainDepositListQuery } },
    async (req) => {
      const q = req.query;
      const r = await listChainDeposits(ctx, q.status, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );

  app.post(
    '/wallet/chain-deposits/:id/assign',
    { onRequest: staff, schema: { tags: ['Wallet'], security, params: idParams, body: assignChainDepositBody } },
    async (req) => ok(await assignChainDeposit(ctx, req.user!, req.params.id, req.body)),
  );

  app.post(
    '/wallet/chain-deposits/:id/return',
    { onRequest: staff, schema: { tags: ['Wallet'], security, params: idParams, body: returnChainDepositBody } },
    async (req) => ok(await returnChainDeposit(ctx, req.user!, req.params.id, req.body)),
  );

  app.post(
    '/sandbox/chain/transfers',
    { onRequest: staff, schema: { tags: ['Sandbox chain'], security, body: sandboxChainTransferBody } },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await sendSandboxDeposit(ctx, req.body, req.user!.id))),
  );
}
