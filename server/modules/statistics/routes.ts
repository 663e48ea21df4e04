import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, dateRangeQuery } from '@shared/contract';
import { dayRange } from '../../lib/dates';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { series, statistics } from './queries';

/** Staff statistics: figures for a date range (UTC days, inclusive), and series for charts. */
export default async function statisticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Reports'];
  const security = [{ bearer: [] }];

  app.get(
    '/reports/view-statistics',
    { onRequest, schema: { tags, security, querystring: dateRangeQuery } },
    async (req) => ok(await statistics(ctx.db, dayRange(req.query.start_date, req.query.end_date))),
  );

  app.get(
    '/reports/view-statistics-series',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: dateRangeQuery.and(z.object({ interval: z.enum(['day', 'week', 'month']).default('day') })),
      },
    },
    async (req) => ok(await series(ctx.db, dayRange(req.query.start_date, req.query.end_date), req.query.interval)),
  );
}
