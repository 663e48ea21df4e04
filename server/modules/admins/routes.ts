import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, createAdminBody, idParams, pageQuery, updateAdminBody } from '@shared/contract';
import { HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import * as svc from './service';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import type { ApiAdmin } from '@shared/contract';
import { data, e, fails, json, text, BODY, IDEMPOTENT, PATH, QUERY, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { approvalGate } from '../approvals/gate';
import { heldOr } from '../../openapi/approvals';
import { roleChanges } from '../approvals/targets';
import { readingCtx } from '../../db/read-routing';

const ADMIN_COLUMNS: CsvColumn<ApiAdmin>[] = [
  { header: 'Admin Id', value: (a) => a.id },
  { header: 'First Name', value: (a) => a.first_name },
  { header: 'Last Name', value: (a) => a.last_name },
  { header: 'Email Address', value: (a) => a.email },
  { header: 'Phone Number', value: (a) => a.phone_number },
  { header: 'Role', value: (a) => a.role },
  { header: 'State', value: (a) => a.state },
  { header: 'Created', value: (a) => a.created_at },
  // The access review's (issue 33): an export is what an auditor takes away.
  { header: 'Second Factor', value: (a) => a.two_factor },
  { header: 'Last Sign-in', value: (a) => a.last_sign_in_at },
  { header: 'Open Sessions', value: (a) => a.open_sessions, numeric: true },
  { header: 'Deactivated', value: (a) => a.deactivated_at },
];

/** Administrators: Super-Admin only. */
export default async function adminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Administrators'];
  const security = [{ bearer: [] }];

  app.get(
    '/account/admins',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: pageQuery,
        operationId: 'listAdmins',
        summary: 'List administrators (Super-Admin)',
        response: {
          200: json(R.paged(R.apiAdmin), 'A page of administrators, newest first.'),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req, reply) => {
      if (req.query.format === 'csv')
        return sendCsv(
          reply,
          'administrators',
          ADMIN_COLUMNS,
          byOffset((p) => svc.listAdmins(readingCtx(ctx, req), p)),
        );
      const r = await svc.listAdmins(readingCtx(ctx, req), { limit: req.query.per_page, offset: offsetOf(req.query) });
      return paged(req, r.rows, r.total, req.query);
    },
  );
  app.post(
    '/account/admins',
    {
      onRequest,
      ...approvalGate(ctx, 'admin.create'),
      schema: {
        tags,
        security,
        body: createAdminBody,
        operationId: 'createAdmin',
        summary: 'Create an administrator (Super-Admin)',
        response: {
          201: data(R.apiAdmin, 'Created; a link to set the password was mailed.'),
          202: heldOr(),
          ...fails(STAFF, BODY, IDEMPOTENT, e(422, 'The email has already been taken.')),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await svc.createAdmin(ctx, req.body))),
  );
  app.put(
    '/account/admins/:id',
    {
      onRequest,
      // Only a change of role is held back; names, email and phone are not.
      ...approvalGate(ctx, 'admin.role_change', (b, req) =>
        roleChanges(ctx, (req.params as { id: string }).id, b.role),
      ),
      schema: {
        tags,
        security,
        params: idParams,
        body: updateAdminBody,
        operationId: 'updateAdmin',
        summary: 'Change an administrator (Super-Admin)',
        response: {
          200: data(R.apiAdmin, 'Saved (a new password, email or role ends their sessions).'),
          202: heldOr(),
          ...fails(
            STAFF,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, 'You cannot change your own privileges.'),
            e(404, 'The administrator was not found.'),
            e(409, 'The last Super-Admin cannot be demoted.'),
            e(422, 'The email has already been taken.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.updateAdmin(ctx, req.user!, req.params.id, req.body)),
  );
  app.delete(
    '/account/admins/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'deleteAdmin',
        summary: 'Delete an administrator (Super-Admin)',
        response: {
          202: text('Deleted; their sessions ended.', 'Admin deleted.'),
          ...fails(
            STAFF,
            PATH,
            IDEMPOTENT,
            e(403, 'You cannot delete your own account.'),
            e(404, 'The administrator was not found.'),
            e(409, 'The last Super-Admin cannot be removed.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await svc.deleteAdmin(ctx, req.user!, req.params.id))),
  );
}
