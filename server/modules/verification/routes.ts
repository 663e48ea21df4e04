import { VERIFICATION_STATE_NAMES } from '@shared/vocabulary';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, decideBody, idParams, uuidParam, verificationListQuery } from '@shared/contract';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { readForm } from '../../lib/uploads';
import { authenticate } from '../../plugins/auth';
import { listVerifications, verificationDetail } from './queries';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { ApiVerificationRow } from '@shared/contract';
import { data, e, fails, json, text, BODY, IDEMPOTENT, PATH, QUERY, SIGNED_IN, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

const VERIFICATION_COLUMNS: CsvColumn<ApiVerificationRow>[] = [
  { header: 'Id', value: (v) => v.id },
  { header: 'Account Id', value: (v) => v.account_id },
  { header: 'Account Type', value: (v) => v.account_type },
  { header: 'Name', value: (v) => v.name },
  { header: 'Email', value: (v) => v.email },
  { header: 'State', value: (v) => VERIFICATION_STATE_NAMES[v.state] },
  { header: 'Reason', value: (v) => v.reason },
  { header: 'Submitted', value: (v) => v.created_at },
  { header: 'Last Modified', value: (v) => v.updated_at },
];
import * as svc from './service';

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
      schema: {
        tags,
        security,
        ...multipart,
        params: z.object({ userId: uuidParam }),
        operationId: 'submitKyc',
        summary: "Submit an Individual's KYC",
        response: {
          201: text(
            'Submitted; the account is pending review.',
            'KYC submitted. We will review it and let you know by email.',
          ),
          ...fails(
            SIGNED_IN,
            PATH,
            IDEMPOTENT,
            e(404, 'The id is not the signed-in Individual.'),
            e(409, 'A verification is being reviewed, or the account is already verified.'),
            e(413, 'The form is too large: each file may be at most 5 MB.'),
            e(415, 'Send the form as multipart/form-data.'),
            e(422, 'A field or document is missing or invalid (JPEG, PNG or PDF up to 5 MB).'),
          ),
        },
      },
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
      schema: {
        tags,
        security,
        ...multipart,
        params: z.object({ companyId: uuidParam }),
        operationId: 'submitKyb',
        summary: "Submit a company's KYB",
        response: {
          201: text(
            'Submitted; the company is pending review.',
            'KYB submitted. We will review it and let you know by email.',
          ),
          ...fails(
            SIGNED_IN,
            PATH,
            IDEMPOTENT,
            e(403, 'Only a company admin submits the KYB.'),
            e(404, "The id is not the user's company."),
            e(409, 'A verification is being reviewed, or the company is already verified.'),
            e(413, 'The form is too large: each file may be at most 5 MB.'),
            e(415, 'Send the form as multipart/form-data.'),
            e(422, 'A field or document is missing or invalid (JPEG, PNG or PDF up to 5 MB).'),
          ),
        },
      },
    },
    async (req, reply) => {
      const form = await readForm(req, ['incorporation_certificate', 'license', 'shareholder_passport']);
      return reply.status(HTTP.CREATED).send(ok(await svc.submitKyb(ctx, req.user!, req.params.companyId, form)));
    },
  );

  for (const [path, type, operationId, summary, what] of [
    ['/verification/get-individuals', 'individual', 'listKycSubmissions', 'List KYC submissions (staff)', 'KYC'],
    ['/verification/get-companies', 'company', 'listKybSubmissions', 'List KYB submissions (staff)', 'KYB'],
  ] as const) {
    app.get(
      path,
      {
        onRequest: staff,
        schema: {
          tags,
          security,
          querystring: verificationListQuery,
          operationId,
          summary,
          response: {
            200: json(R.paged(R.apiVerificationRow), `A page of ${what} submissions, newest first.`),
            ...fails(STAFF, QUERY),
          },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const f = { state: q.state, name: q.name, startDate: q.start_date, endDate: q.end_date };
        if (q.format === 'csv')
          return sendCsv(
            reply,
            `${type}-verifications`,
            VERIFICATION_COLUMNS,
            byOffset((p) => listVerifications(ctx.reader(req), type, f, p)),
          );
        const r = await listVerifications(ctx.reader(req), type, f, { limit: q.per_page, offset: offsetOf(q) });
        return paged(req, r.rows, r.total, q);
      },
    );
  }

  app.get(
    '/verification/details/:id',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'getVerification',
        summary: 'Get a verification with its documents (staff)',
        response: {
          200: data(R.apiVerificationDetail, 'The submission, its documents and the account’s history.'),
          ...fails(STAFF, PATH, e(404, 'The verification was not found.')),
        },
      },
    },
    async (req) => ok(await verificationDetail(ctx.db, (req.params as { id: string }).id)),
  );

  app.post(
    '/verification/decide',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        body: decideBody,
        operationId: 'decideVerification',
        summary: 'Approve or reject a verification (staff)',
        response: {
          200: data(
            R.verificationDecision,
            'Approved (the account becomes Verified) or rejected (Unverified, with the reason).',
          ),
          ...fails(
            STAFF,
            BODY,
            IDEMPOTENT,
            e(404, 'The verification was not found.'),
            e(409, 'The verification was already decided.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.decide(ctx, req.user!, req.body)),
  );
}
