import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STAFF_ROLES,
  approvalListQuery,
  approvalPoliciesBody,
  can,
  idParams,
  rejectApprovalBody,
} from '@shared/contract';
import * as R from '@shared/contract/responses';
import { formatMoney } from '@shared/money';
import { forbidden, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { BODY, IDEMPOTENT, PATH, QUERY, STAFF, data, e, fails, json } from '../../openapi/responses';
import { expireDue, listApprovals, listPolicies, savePolicies } from './queries';
import { approve, getApproval, present, reject } from './service';

const may = (req: FastifyRequest, ...any: Parameters<typeof can>[1][]) => {
  if (!any.some((p) => can(req.user!.role, p))) throw forbidden();
};

const policiesOut = (list: Awaited<ReturnType<typeof listPolicies>>) =>
  list.map((p) => ({
    action: p.action,
    required: p.required,
    min_amount: p.minAmount === null ? null : formatMoney(p.minAmount),
  }));

const performedAnswer = (what: string) =>
  json(z.unknown(), `${what}: the action's own answer (status and body), as if the maker's request had been made now.`);

/** Maker-checker (issue 33): the policies, and the requests they held back. */
export default async function approvalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onRequest = authenticate(ctx, { roles: STAFF_ROLES });
  const tags = ['Approvals'];
  const security = [{ bearer: [] }];
  const MANAGE = e(403, 'Only a role that sets the approval policies (Super-Admin).');

  app.get(
    '/approval-policies',
    {
      onRequest,
      schema: {
        tags,
        security,
        operationId: 'listApprovalPolicies',
        summary: 'List the approval policies (Super-Admin, Auditor)',
        response: {
          200: data(
            z.array(R.apiApprovalPolicy),
            'Every action, whether it needs a second person and from which amount.',
          ),
          ...fails(STAFF, MANAGE),
        },
      },
    },
    async (req) => {
      may(req, 'approvals.manage', 'audit.read');
      return ok(policiesOut(await listPolicies(ctx.reader(req))));
    },
  );

  app.put(
    '/approval-policies',
    {
      onRequest,
      schema: {
        tags,
        security,
        body: approvalPoliciesBody,
        operationId: 'updateApprovalPolicies',
        summary: 'Change approval policies (Super-Admin)',
        response: {
          200: data(z.array(R.apiApprovalPolicy), 'Saved; every action’s policy as it now is.'),
          ...fails(STAFF, MANAGE, BODY, IDEMPOTENT),
        },
      },
    },
    async (req) => {
      may(req, 'approvals.manage');
      const list = req.body.map((p) => ({ action: p.action, required: p.required, minAmount: p.min_amount }));
      await ctx.db.transaction((tx) => savePolicies(tx, list, req.user!.id, ctx.now()));
      return ok(policiesOut(await listPolicies(ctx.db)));
    },
  );

  app.get(
    '/approvals',
    {
      onRequest,
      schema: {
        tags,
        security,
        querystring: approvalListQuery,
        operationId: 'listApprovals',
        summary: 'List the requests waiting for, or decided by, a second person (staff)',
        response: {
          200: json(R.paged(R.apiApproval), 'A page of requests, newest first.'),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req) => {
      const q = req.query;
      await expireDue(ctx.db, ctx.now());
      const r = await listApprovals(ctx.db, q.state, { limit: q.per_page, offset: offsetOf(q as never) });
      return paged(req, r.rows.map(present), r.total, q as never);
    },
  );

  app.get(
    '/approvals/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'getApproval',
        summary: 'Get one request (staff)',
        response: {
          200: data(R.apiApproval, 'The request and, once decided, who decided and the result.'),
          ...fails(STAFF, PATH),
        },
      },
    },
    async (req) => ok(present(await getApproval(ctx, req.params.id))),
  );

  app.post(
    '/approvals/:id/approve',
    {
      onRequest,
      config: { idempotency: 'none' },
      schema: {
        tags,
        security,
        params: idParams,
        operationId: 'approveApproval',
        summary: 'Approve a request: it is performed once, as its maker asked (staff)',
        response: {
          200: performedAnswer('Performed'),
          201: performedAnswer('Performed (something was created)'),
          202: performedAnswer('Performed (the action answers 202)'),
          ...fails(
            STAFF,
            PATH,
            e(403, 'You made the request, or your role may not perform its action.'),
            e(404, "The action's own answer: its target is gone."),
            e(
              409,
              'The request was already decided or expired (`error` is its state: approved, rejected, expired, failed), or the action refused it now (its own answer).',
            ),
            e(422, "The action's own answer: it is no longer valid."),
            e(500, 'The action could not be completed; approving again resumes it, performing it at most once.'),
          ),
        },
      },
    },
    async (req, reply) => {
      const r = await approve(app, req, req.params.id);
      return reply
        .status(r.status as 200)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify(r.body));
    },
  );

  app.post(
    '/approvals/:id/reject',
    {
      onRequest,
      schema: {
        tags,
        security,
        params: idParams,
        body: rejectApprovalBody,
        operationId: 'rejectApproval',
        summary: 'Reject a request with a reason (staff)',
        response: {
          200: data(R.apiApproval, 'Rejected: nothing was done; the maker is told why.'),
          ...fails(
            STAFF,
            PATH,
            BODY,
            IDEMPOTENT,
            e(403, 'You made the request, or your role may not perform its action.'),
            e(409, 'The request was already decided or expired (`error` is its state).'),
          ),
        },
      },
    },
    async (req) => ok(present(await reject(ctx, req, req.params.id, req.body.reason))),
  );
}
