import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, createCompanyUserBody, pageQuery, updateCompanyUserBody, uuidParam } from '@shared/contract';
import { HTTP, ok } from '../../lib/http';
import { paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import * as svc from './service';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { CompanyUserRow } from '@shared/contract';
import {
  data,
  e,
  fails,
  json,
  message,
  BODY,
  COMPANY_MEMBER,
  IDEMPOTENT,
  PATH,
  QUERY,
  SIGNED_IN,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { readingCtx } from '../../db/read-routing';

const USER_COLUMNS: CsvColumn<CompanyUserRow>[] = [
  { header: 'First Name', value: (u) => u.first_name },
  { header: 'Last Name', value: (u) => u.last_name },
  { header: 'Email', value: (u) => u.email },
  { header: 'Phone Number', value: (u) => u.phone_number },
  { header: 'Role', value: (u) => u.role },
  { header: 'State', value: (u) => u.state },
  { header: 'Created', value: (u) => u.created_at },
];

const companyParams = z.object({ companyId: uuidParam });
const memberParams = companyParams.extend({ userId: uuidParam });

export default async function companyUserRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: ['Company-Admin', 'Company-User'] });
  const tags = ['Company users'];
  const security = [{ bearer: [] }];

  const readers = authenticate(ctx, { roles: ['Company-Admin', 'Company-User', ...STAFF_ROLES] });
  app.get(
    '/company/users/:companyId',
    {
      onRequest: readers,
      schema: {
        tags,
        security,
        params: companyParams,
        querystring: pageQuery,
        operationId: 'listCompanyUsers',
        summary: "List the company's users",
        response: {
          200: json(R.paged(R.companyUserRow), "A page of the company's users (its admins, and staff read-only)."),
          ...fails(
            SIGNED_IN,
            PATH,
            QUERY,
            e(403, 'Only a company admin (or staff) lists the users.'),
            e(404, "The id is not the user's company, or (staff) no such company."),
          ),
        },
      },
    },
    async (req, reply) => {
      if (req.query.format === 'csv') {
        return sendCsv(
          reply,
          'users',
          USER_COLUMNS,
          byOffset((p) =>
            svc.listCompanyUsers(readingCtx(ctx, req), req.user!, req.params.companyId, {
              page: p.offset / p.limit + 1,
              per_page: p.limit,
            }),
          ),
        );
      }
      const { rows, total } = await svc.listCompanyUsers(
        readingCtx(ctx, req),
        req.user!,
        req.params.companyId,
        req.query,
      );
      return paged(req, rows, total, req.query);
    },
  );

  app.post(
    '/company/users/:companyId',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: companyParams,
        body: createCompanyUserBody,
        operationId: 'inviteCompanyUser',
        summary: 'Invite a user to the company',
        response: {
          201: data(R.companyUserRow, 'Invited; an invitation was mailed.'),
          ...fails(
            COMPANY_MEMBER,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, 'Only a company admin manages users.'),
            e(404, "The id is not the user's company."),
            e(422, 'The email has already been taken.'),
          ),
        },
      },
    },
    async (req, reply) =>
      reply.status(HTTP.CREATED).send(ok(await svc.inviteCompanyUser(ctx, req.user!, req.params.companyId, req.body))),
  );

  app.put(
    '/company/users/:companyId/:userId',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: memberParams,
        body: updateCompanyUserBody,
        operationId: 'updateCompanyUserRole',
        summary: "Change a company user's role",
        response: {
          200: data(R.companyUserRow, 'The role is changed.'),
          ...fails(
            COMPANY_MEMBER,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, 'Only a company admin manages users, and not their own account.'),
            e(404, 'The company or the user was not found.'),
          ),
        },
      },
    },
    async (req) =>
      ok(await svc.setCompanyUserRole(ctx, req.user!, req.params.companyId, req.params.userId, req.body.role)),
  );

  app.delete(
    '/company/users/:companyId/:userId',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: memberParams,
        operationId: 'deleteCompanyUser',
        summary: 'Delete a company user',
        response: {
          202: message('The user is deleted and signed out.'),
          ...fails(
            COMPANY_MEMBER,
            PATH,
            IDEMPOTENT,
            e(403, 'Only a company admin manages users, and not their own account.'),
            e(404, 'The company or the user was not found.'),
          ),
        },
      },
    },
    async (req, reply) =>
      reply
        .status(HTTP.ACCEPTED)
        .send(ok(await svc.deleteCompanyUser(ctx, req.user!, req.params.companyId, req.params.userId))),
  );
}
