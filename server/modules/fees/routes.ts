import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, feeListQuery, idParams, isStaff, updateFeeBody } from '@shared/contract';
import { ok } from '../../lib/http';
import { paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import * as svc from './service';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { ApiFee } from '@shared/contract';
import {
  data,
  e,
  fails,
  json,
  BODY,
  IDEMPOTENT,
  PATH,
  QUERY,
  SIGNED_IN_OR_API,
  STAFF_RIGHT,
  STAFF,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';
import { readingCtx } from '../../db/read-routing';

const FEE_COLUMNS: CsvColumn<ApiFee>[] = [
  { header: 'Name', value: (f) => f.name },
  { header: 'Type', value: (f) => f.type },
  { header: 'Value', value: (f) => f.value, numeric: true },
  { header: 'State', value: (f) => f.state },
  { header: 'For', value: (f) => f.for },
  { header: 'Company', value: (f) => f.for_name },
  { header: 'Last Modified', value: (f) => f.updated_at },
];

export default async function feeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Fees'];
  const security = [{ bearer: [] }];

  // Customers get the schedule that applies to them (for=company&for_id, or for=default);
  // staff get the whole schedule, filtered and paged.
  app.get(
    '/fees',
    {
      onRequest: authenticate(ctx, { api: true }),
      schema: {
        tags,
        security,
        querystring: feeListQuery,
        operationId: 'listFees',
        summary: 'Get the fee schedule',
        response: {
          200: json(
            z.union([
              R.envelope(z.array(R.apiFee)).describe(
                "Customers: the schedule that applies to them (their company's, or the defaults)",
              ),
              R.paged(R.apiFee).describe('Staff: a page of every row of the schedule, defaults and company overrides'),
            ]),
            'Customers: the fee schedule that applies to them. Staff: a page of the whole schedule.',
          ),
          ...fails(
            SIGNED_IN_OR_API,
            STAFF_RIGHT,
            QUERY,
            e(404, 'A customer named a company that is not theirs (`for_id`).'),
          ),
        },
      },
    },
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
          byOffset((p) =>
            svc.listFees(readingCtx(ctx, req), { ...req.query, page: p.offset / p.limit + 1, per_page: p.limit }),
          ),
        );
      }
      const { rows, total } = await svc.listFees(readingCtx(ctx, req), req.query);
      return paged(req, rows, total, req.query);
    },
  );

  app.put(
    '/fees/:id',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      ...approvalGate(ctx, 'fee.change'),
      schema: {
        tags,
        security,
        params: idParams,
        body: updateFeeBody,
        operationId: 'updateFee',
        summary: 'Change a fee (default or for one company)',
        response: {
          200: data(
            R.apiFee,
            "Saved. Editing a default fee `for` a company creates or updates that company's own row.",
          ),
          202: heldOr(),
          ...fails(STAFF, PATH, BODY, IDEMPOTENT, e(404, 'The fee or the company was not found.')),
        },
      },
    },
    async (req) => ok(await svc.updateFee(ctx, req.user!, req.params.id, req.body)),
  );

  app.get(
    '/company/fees/:id',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'getCompanyFees',
        summary: "Get a company's fee schedule",
        response: {
          200: json(
            z.strictObject({
              data: z.array(R.apiFee),
              company: z.strictObject({ id: R.id, company_name: z.string() }),
            }),
            "The company's schedule: its own rows over the defaults (`inherited`), and the company it is for.",
          ),
          ...fails(STAFF, PATH, e(404, 'The company was not found.')),
        },
      },
    },
    async (req) => svc.companyScheduleOf(ctx, req.params.id),
  );
}
