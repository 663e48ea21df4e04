import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

import {
  CARD_WALLET_TX_TYPES,
  isStaff,
  topupListQuery,
  walletStatementQuery,
  walletTransactionsQuery,
  walletTransfersQuery,
} from '@shared/contract';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { ownWalletId, walletForCaller } from '../wallet/access';
import { forViewer, listTopups } from '../wallet/queries';
import type { AppContext, AuthUser } from '../../context';
import { walletTransactions, walletTransfers } from './queries';
import { cursorOf, sendCsv } from '../../lib/csv';
import { TRANSFER_COLUMNS, WALLET_TX_COLUMNS } from './csv-columns';
import { sendTopupsCsv } from '../wallet/csv';
import { walletStatement } from './statement';
import { renderStatementPdf } from './statement-pdf';
import { e, fails, json, pdf, QUERY, SIGNED_IN_OR_API } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

/**
 * Which wallet a report is about: customers always their own (naming another is 404);
 * staff whichever the filters name, or all.
 */
async function reportWallet(
  ctx: AppContext,
  me: AuthUser,
  q: { wallet?: string; company_id?: string; individual_id?: string },
) {
  const named = q.wallet ?? q.company_id ?? q.individual_id;
  if (isStaff(me.role)) {
    if (named) await walletForCaller(ctx, me, named);
    return named;
  }
  const own = ownWalletId(me);
  await walletForCaller(ctx, me, named ?? own);
  return own;
}

export default async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Reports'];
  const security = [{ bearer: [] }];
  const onRequest = authenticate(ctx, { api: true });

  app.get(
    '/reports/view-wallet-transactions',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: walletTransactionsQuery,
        operationId: 'listWalletTransactions',
        summary: 'List master-wallet movements',
        response: {
          200: json(
            R.pagedWithTotals(R.apiWalletTransaction, R.walletTransactionTotals),
            'A page of master-wallet movements, newest first (customers: their own wallet), with the totals.',
          ),
          ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The wallet was not found or is not yours.')),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const walletId = await reportWallet(ctx, req.user!, q);
      const f = {
        walletId,
        type: q.type,
        types: q.card_only ? CARD_WALLET_TX_TYPES : undefined,
        startDate: q.start_date,
        endDate: q.end_date,
      };
      if (q.format === 'csv') {
        return sendCsv(reply, 'wallet-transactions', WALLET_TX_COLUMNS, async (after, limit) => {
          const { rows } = await walletTransactions(ctx.reader(req), f, { limit, offset: 0, after });
          return {
            rows,
            next: cursorOf(
              rows,
              (r) => r.created_at,
              (r) => r.id,
            ),
          };
        });
      }
      const r = await walletTransactions(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
      return { ...paged(req, r.rows, r.total, q), totals: r.totals };
    },
  );

  app.get(
    '/reports/view-wallet-transfers',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: walletTransfersQuery,
        operationId: 'listWalletTransfers',
        summary: 'List wallet-to-wallet transfers',
        response: {
          200: json(R.paged(R.apiWalletTransfer), 'A page of wallet-to-wallet transfers, newest first.'),
          ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The wallet was not found or is not yours.')),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const walletId = await reportWallet(ctx, req.user!, q);
      const f = { walletId, startDate: q.start_date, endDate: q.end_date };
      if (q.format === 'csv') {
        return sendCsv(reply, 'wallet-transfers', TRANSFER_COLUMNS, async (after, limit) => {
          const { rows } = await walletTransfers(ctx.reader(req), f, { limit, offset: 0, after });
          return {
            rows,
            next: cursorOf(
              rows,
              (r) => r.created_at,
              (r) => r.id,
            ),
          };
        });
      }
      const r = await walletTransfers(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );

  app.get(
    '/reports/view-wallet-topups',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: topupListQuery,
        operationId: 'listWalletTopups',
        summary: "List a wallet's top-ups",
        response: {
          200: json(
            R.pagedWithTotals(R.apiTopup, R.topupTotals),
            'A page of top-ups, with the totals: all, received (Approved), pending and denied.',
          ),
          ...fails(SIGNED_IN_OR_API, QUERY, e(404, 'The wallet was not found or is not yours.')),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const walletId = await reportWallet(ctx, req.user!, q);
      const f = {
        walletId,
        state: q.state,
        method: q.method,
        ownerType: isStaff(req.user!.role) ? q.for : undefined,
        startDate: q.start_date,
        endDate: q.end_date,
      };
      if (q.format === 'csv') return sendTopupsCsv(reply, ctx.reader(req), f);
      const r = await listTopups(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) });
      return { ...paged(req, forViewer(r.rows, isStaff(req.user!.role)), r.total, q), totals: r.totals };
    },
  );

  // A PDF of one wallet's period: owner or staff; another account's wallet is 404.
  app.get(
    '/reports/wallet-statement',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: walletStatementQuery,
        operationId: 'getWalletStatement',
        summary: "Download a wallet's statement for a period (PDF)",
        response: {
          200: pdf(
            'The statement as a PDF attachment: the account holder, the period (UTC days), the opening balance, every movement with its fees and the balance after it, and the closing balance, all as the ledger holds them.',
          ),
          ...fails(
            SIGNED_IN_OR_API,
            QUERY,
            e(404, 'The wallet was not found or is not yours.'),
            e(422, 'The period starts in the future, is longer than 366 days, or has more than 5,000 movements.'),
          ),
        },
      },
    },
    async (req, reply) => {
      const statement = await walletStatement(ctx, req.user!, req.query, ctx.reader(req));
      const pdf = await renderStatementPdf(statement);
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="wallet-statement-${statement.startDate}-to-${statement.endDate}.pdf"`,
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );
}
