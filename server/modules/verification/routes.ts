import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, decideBody, verificationListQuery } from '@shared/contract';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { readForm } from '../../lib/uploads';
import { authenticate } from '../../plugins/auth';
import { listVerifications, verificationDetail } from './queries';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { ApiVerificationRow } from '@shared/contract';

const VERIFICATION_COLUMNS: CsvColumn<ApiVerificationRow>[] = [
  { header: 'Id', value: (v) => v.id },
  { header: 'Account Id', value: (v) => v.account_id },
  { header: 'Account Type', value: (v) => v.account_type },
  { header: 'Name', value: (v) => v.name },
  { header: 'Email', value: (v) => v.email },
  { header: 'State', value: (v) => (v.state === 'pending' ? 'In-review' : v.state) },
  { header: 'Reason', value: (v) => v.reason },
  { header: 'Submitted', value: (v) => v.created_at },
  { header: 'Last Modified', value: (v) => v.updated_at },
];
import * as svc from './service';

const idParams = (name: string) => z.object({ [name]: z.string().uuid() });

export default async function verificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Verification'];
  const security = [{ bearer: [] }];
  const staff = authenticate(ctx, { roles: STAFF_ROLES });
  const multipart = { consumes: ['multipart/form-data'] };

  app.post(
    '/individuals/kyc/:userId',
    {
      onRequest: authenticate(ctx),
      schema: { tags, security, ...multipart, params: z.object({ userId: z.string().uuid() }) },
    },
    async (req, reply) => {
      const form = await readForm(req, ['address_proof', 'selfie_image']);
      return reply.status(HTTP.CREATED).send(ok(await svc.submitKyc(ctx, req.user!, req.params.userId, form)));
    },
  );

  app.post(
    '/company/kyb/:companyId',
    {
      onRequest: authenticate(ctx),
      schema: { tags, security, ...multipart, params: z.object({ companyId: z.string().uuid() }) },
    },
    async (req, reply) => {
      const form = await readForm(req, ['incorporation_certificate', 'license', 'shareholder_passport']);
      return reply.status(HTTP.CREATED).send(ok(await svc.submitKyb(ctx, req.user!, req.params.companyId, form)));
    },
  );

  for (const [path, type] of [
    ['/verification/get-individuals', 'individual'],
    ['/verification/get-companies', 'company'],
  ] as const) {
    app.get(
      path,
      { onRequest: staff, schema: { tags, security, querystring: verificationListQuery } },
      async (req, reply) => {
        const q = req.query;
        const f = { state: q.state, name: q.name, startDate: q.start_date, endDate: q.end_date };
        if (q.format === 'csv')
          return sendCsv(
            reply,
            `${type}-verifications`,
            VERIFICATION_COLUMNS,
            byOffset((p) => listVerifications(ctx.db, type, f, p)),
          );
        const r = await listVerifications(ctx.db, type, f, { limit: q.per_page, offset: offsetOf(q) });
        return paged(req, r.rows, r.total, q);
      },
    );
  }

  app.get(
    '/verification/details/:id',
    { onRequest: staff, schema: { tags, security, params: idParams('id') } },
    async (req) => ok(await verificationDetail(ctx.db, (req.params as { id: string }).id)),
  );

  app.post('/verification/decide', { onRequest: staff, schema: { tags, security, body: decideBody } }, async (req) =>
    ok(await svc.decide(ctx, req.user!, req.body)),
  );
}
