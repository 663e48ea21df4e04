import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  type ApiWebhookEvent,
  callbackRequestBody,
  callbackStatusBody,
  deliveriesQuery,
  isStaff,
} from '@shared/contract';
import * as R from '@shared/contract/responses';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import { HTTP, forbidden, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { data, e, fails, json, text, BODY, IDEMPOTENT, QUERY, SIGNED_IN } from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import { listDeliveries } from './queries';
import * as svc from './service';

const lastAttempt = (e: ApiWebhookEvent) => e.deliveries[e.deliveries.length - 1];
const DELIVERY_COLUMNS: CsvColumn<ApiWebhookEvent>[] = [
  { header: 'Message Id', value: (e) => e.message_id },
  { header: 'Type', value: (e) => e.type },
  { header: 'State', value: (e) => e.state },
  { header: 'Attempts', value: (e) => e.attempts },
  { header: 'Last Status Code', value: (e) => lastAttempt(e)?.status_code },
  { header: 'Last Error', value: (e) => lastAttempt(e)?.error },
  { header: 'Next Attempt', value: (e) => e.next_attempt_at },
  { header: 'Delivered', value: (e) => e.delivered_at },
  { header: 'Created', value: (e) => e.created_at },
];

/** A company's webhook callback (its URL, on or off, revoked) and the deliveries made to it. */
export function callbackRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['API integration'];
  const security = [{ bearer: [] }];
  const signedIn = authenticate(ctx);

  app.get(
    '/third-party/callback-details',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        operationId: 'getCallback',
        summary: 'Get the webhook callback URL and signing secret',
        response: {
          200: data(R.apiCallbackDetails, 'The callback URL and its signing secret.'),
          ...fails(
            SIGNED_IN,
            e(403, 'Only the admin of a verified company manages the callback.'),
            e(404, 'The user has no company.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.callbackDetails(ctx, req.user!)),
  );
  app.post(
    '/third-party/callback-request',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        body: callbackRequestBody,
        operationId: 'setCallback',
        summary: 'Set the webhook callback URL',
        response: {
          200: text('The callback URL is saved.', 'Callback Url set successfully'),
          ...fails(
            SIGNED_IN,
            BODY,
            IDEMPOTENT,
            e(403, 'Only the admin of a verified company manages the callback.'),
            e(404, 'The user has no company.'),
            e(409, 'Generate API credentials first.'),
            e(422, 'The callback URL is not allowed (`error.callback_url`).'),
          ),
        },
      },
    },
    async (req) => ok(await svc.saveCallback(ctx, req.user!, req.body)),
  );
  app.put(
    '/third-party/callback-status',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        body: callbackStatusBody,
        operationId: 'setCallbackStatus',
        summary: 'Turn the webhook callback on or off',
        response: {
          200: text('The callback is activated or deactivated.', 'Callback Url activated successfully'),
          ...fails(
            SIGNED_IN,
            BODY,
            IDEMPOTENT,
            e(403, 'Only the admin of a verified company manages the callback.'),
            e(404, 'No callback URL is set.'),
          ),
        },
      },
    },
    async (req) => ok(await svc.setCallbackActive(ctx, req.user!, req.body.activate)),
  );
  app.delete(
    '/third-party/callback-revoke',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        operationId: 'revokeCallback',
        summary: 'Remove the webhook callback',
        response: {
          202: text('The callback is revoked.', 'Callback Url revoked successfully'),
          ...fails(
            SIGNED_IN,
            IDEMPOTENT,
            e(403, 'Only the admin of a verified company manages the callback.'),
            e(404, 'No callback URL is set.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await svc.revokeCallback(ctx, req.user!))),
  );

  // The delivery log: the Company-Admin sees their company's, staff anyone's.
  app.get(
    '/third-party/webhook-deliveries',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        querystring: deliveriesQuery,
        operationId: 'listWebhookDeliveries',
        summary: 'List webhook events and their delivery attempts',
        response: {
          200: json(R.paged(R.apiWebhookEvent), 'A page of webhook events with their delivery attempts, newest first.'),
          ...fails(SIGNED_IN, QUERY, e(403, 'Only the company admin (or staff) sees webhook deliveries.')),
        },
      },
    },
    async (req, reply) => {
      const me = req.user!;
      let companyId = req.query.company_id;
      if (!isStaff(me.role)) {
        if (me.role !== 'Company-Admin' || !me.companyId)
          throw forbidden('Only the company admin sees webhook deliveries.');
        companyId = me.companyId;
      }
      if (req.query.format === 'csv') {
        return sendCsv(
          reply,
          'webhook-deliveries',
          DELIVERY_COLUMNS,
          byOffset((p) => listDeliveries(ctx.reader(req), { companyId, state: req.query.state }, p)),
        );
      }
      const r = await listDeliveries(
        ctx.reader(req),
        { companyId, state: req.query.state },
        { limit: req.query.per_page, offset: offsetOf(req.query) },
      );
      return paged(req, r.rows, r.total, req.query);
    },
  );
}
