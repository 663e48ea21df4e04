import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, cardControlsBody, idParams, programControlsBody } from '@shared/contract';
import * as R from '@shared/contract/responses';
import { MERCHANT_CATEGORIES } from '@shared/merchant-categories';
import { ok } from '../../../lib/http';
import { authenticate } from '../../../plugins/auth';
import { data, e, fails, BODY, IDEMPOTENT, PATH, SIGNED_IN_OR_API, STAFF } from '../../../openapi/responses';
import * as svc from './service';

/** Merchant categories, a card's controls and the program's (issue 32). */
export default async function controlRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const security = [{ bearer: [] }];
  const anyone = authenticate(ctx, { api: true });

  app.get(
    '/merchant-categories',
    {
      onRequest: anyone,
      schema: {
        tags: ['Cards'],
        security,
        operationId: 'listMerchantCategories',
        summary: 'List the merchant categories controls name',
        response: {
          200: data(z.array(R.merchantCategory), 'Every category with its merchant category codes.'),
          ...fails(SIGNED_IN_OR_API),
        },
      },
    },
    async () => ok([...MERCHANT_CATEGORIES]),
  );

  app.get(
    '/cards/:id/controls',
    {
      onRequest: anyone,
      schema: {
        tags: ['Cards'],
        security,
        params: idParams,
        operationId: 'getCardControls',
        summary: "Read a card's controls",
        response: {
          200: data(R.cardControls, "The card's controls (empty lists and nulls when none are set)."),
          ...fails(SIGNED_IN_OR_API, PATH, e(404, 'The card was not found or is not yours.')),
        },
      },
    },
    async (req) => ok(await svc.getCardControls(ctx, req.user!, req.params.id)),
  );

  app.put(
    '/cards/:id/controls',
    {
      onRequest: anyone,
      schema: {
        tags: ['Cards'],
        security,
        params: idParams,
        body: cardControlsBody,
        operationId: 'setCardControls',
        summary: "Set a card's controls",
        description:
          'Replaces the whole set: a field left out is empty (or null). An allow list and a block list of the same kind together are refused on the block list.',
        response: {
          200: data(R.cardControls, "The card's controls as stored."),
          ...fails(
            SIGNED_IN_OR_API,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, "A company's user (not an admin) may read the controls, not change them."),
            e(404, 'The card was not found or is not yours.'),
            e(409, 'The card has been deleted.'),
            e(422, 'An unknown category or country, both an allow and a block list of one kind, or a bad limit.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.setCardControls(ctx, req.user!, req.params.id, req.body)),
  );

  app.get(
    '/program/controls',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags: ['Cards'],
        security,
        operationId: 'getProgramControls',
        summary: "Read the program's controls (staff)",
        response: {
          200: data(R.programControls, 'What every card declines, checked before its own controls.'),
          ...fails(STAFF),
        },
      },
    },
    async () => ok(await svc.getProgramControls(ctx)),
  );

  app.put(
    '/program/controls',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags: ['Cards'],
        security,
        body: programControlsBody,
        operationId: 'setProgramControls',
        summary: "Set the program's controls (Super-Admin)",
        description: 'Replaces the whole set: a field left out is empty.',
        response: {
          200: data(R.programControls, "The program's controls as stored."),
          ...fails(STAFF, BODY, IDEMPOTENT),
        },
      },
    },
    async (req) => ok(await svc.setProgramControls(ctx, req.user!, req.body)),
  );
}
