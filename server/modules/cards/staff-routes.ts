import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, cardListQuery, changeStatusTokenBody, idParams, reasonBody } from '@shared/contract';
import * as R from '@shared/contract/responses';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { data, e, fails, json, message, BODY, IDEMPOTENT, PATH, QUERY, STAFF } from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import { sendCardsCsv } from './csv';
import * as manage from './manage';
import { type CardFilters, listCards } from './queries';
import { masterBalances } from './sums';

/** The back-office's own card routes: every card, freezing by token, flags and suspensions, money on cards. */
export function staffCardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Cards'];
  const security = [{ bearer: [] }];
  const staff = authenticate(ctx, { roles: STAFF_ROLES });

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
      if (q.format === 'csv') return sendCardsCsv(ctx.reader(req), reply, f, true);
      const r = await listCards(ctx.reader(req), f, { limit: q.per_page, offset: offsetOf(q) }, true);
      return paged(req, r.rows, r.total, q);
    },
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
}
