import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { feeListQuery, isStaff, updateFeeBody } from '@shared/contract';
import { ok } from '../../lib/http';
import { paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import * as svc from './service';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { ApiFee } from '@shared/contract';

const FEE_COLUMNS: CsvColumn<ApiFee>[] = [
  { header: 'Name', value: (f) => f.name },
  { header: 'Type', value: (f) => f.type },
  { header: 'Value', value: (f) => f.value, numeric: true },
  { header: 'State', value: (f) => f.state },
  { header: 'For', value: (f) => f.for },
  { header: 'Company', value: (f) => f.for_name },
  { header: 'Last Modified', value: (f) => f.updated_at },
];

const idParams = z.object({ id: z.string().uuid() });

export default async function feeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Fees'];
  const security = [{ bearer: [] }];

  // Customers get the schedule that applies to them (for=company&for_id, or for=default);
  // staff get the whole schedule, filtered and paged.
  app.get(
    '/fees',
    { onRequest: authenticate(ctx, { api: true }), schema: { tags, security, querystring: feeListQuery } },
    async (req, reply) => {
      if (!isStaff(req.user!.role)) {
        const schedule = await svc.customerSchedule(
          ctx,
          req.user!,
          req.query.for === 'company' ? req.query.for_id : undefined,
        );
        if (req.query.format === 'csv')
          return sendCsv<ApiFee, number>(reply, 'fees', FEE_COLUMNS, async (offset) => ({
            rows: offset ? [] : schedule,
            next: offset ? null : 1,
          }));
        return ok(schedule);
      }
      if (req.query.format === 'csv') {
        return sendCsv(
          reply,
          'fees',
          FEE_COLUMNS,
          byOffset((p) => svc.listFees(ctx, { ...req.query, page: p.offset / p.limit + 1, per_page: p.limit })),
        );
      }
      const { rows, total } = await svc.listFees(ctx, req.query);
      return paged(req, rows, total, req.query);
    },
  );

  app.put(
    '/fees/:id',
    {
      onRequest: authenticate(ctx, { roles: ['Super-Admin'] }),
      schema: { tags, security, params: idParams, body: updateFeeBody },
    },
    async (req) => ok(await svc.updateFee(ctx, req.user!, req.params.id, req.body)),
  );

  app.get(
    '/company/fees/:id',
    { onRequest: authenticate(ctx, { roles: ['Super-Admin'] }), schema: { tags, security, params: idParams } },
    async (req) => svc.companyScheduleOf(ctx, req.params.id),
  );
}
