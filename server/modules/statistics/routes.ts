import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, dateRangeQuery } from '@shared/contract';
import { dayRange } from '../../lib/dates';
import { ok } from '../../lib/http';
import { authenticate } from '../../plugins/auth';
import { series, statistics } from './queries';
import { attentionFor } from './attention';
import { data, fails, QUERY, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

/** Staff statistics: figures for a date range (UTC days, inclusive), and series for charts. */
export default async function statisticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Reports'];
  const security = [{ bearer: [] }];

  app.get(
    '/reports/view-statistics',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: dateRangeQuery,
        operationId: 'getStatistics',
        summary: 'Get the figures for a date range (staff)',
        response: { 200: data(R.statistics, 'The figures for the date range.'), ...fails(STAFF, QUERY) },
      },
    },
    async (req) => ok(await statistics(ctx.reader(req), dayRange(req.query.start_date, req.query.end_date))),
  );

  app.get(
    '/reports/view-statistics-series',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: dateRangeQuery.and(z.object({ interval: z.enum(['day', 'week', 'month']).default('day') })),
        operationId: 'getStatisticsSeries',
        summary: 'Get activity per day, week or month (staff)',
        response: { 200: data(R.statisticsSeries, 'Activity per day, week or month.'), ...fails(STAFF, QUERY) },
      },
    },
    async (req) =>
      ok(await series(ctx.reader(req), dayRange(req.query.start_date, req.query.end_date), req.query.interval)),
  );

  app.get(
    '/admin/attention',
    {
      onRequest,
      schema: {
        tags,
        security,
        operationId: 'getAttention',
        summary: 'Get the counts of what waits for staff (staff)',
        response: {
          200: data(R.attention, 'What waits for staff, each count only when the role may open its list.'),
          ...fails(STAFF),
        },
      },
    },
    async (req) => ok(await attentionFor(ctx.reader(req), req.user!.role)),
  );
}
