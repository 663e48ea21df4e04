import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { decisionEndpointBody } from '@shared/contract';
import * as R from '@shared/contract/responses';
import { HTTP, ok } from '../../lib/http';
import { data, e, fails, text, BODY, IDEMPOTENT, SIGNED_IN_OR_API } from '../../openapi/responses';
import { authenticate } from '../../plugins/auth';
import * as svc from './decision';

const PATH = '/third-party/authorization-decision';
const WHO = e(
  403,
  'Only the admin of a verified company (in the portal or through its API access token) manages the decision endpoint.',
);
const info = (req: FastifyRequest): svc.RequestInfo => ({
  ip: req.ip,
  requestId: req.id,
  route: `${req.method} ${PATH}`,
});

/**
 * A company's authorisation-decision endpoint (issue 32): asked in real time, with a signed request, whether to
 * approve each payment on the company's cards that passed the platform's own checks.
 */
export function decisionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['API integration'];
  const security = [{ bearer: [] }];
  const onRequest = authenticate(ctx, { api: true });

  app.get(
    PATH,
    {
      onRequest,
      schema: {
        tags,
        security,
        operationId: 'getAuthorizationDecisionEndpoint',
        summary: 'Get the authorisation decision endpoint',
        response: {
          200: data(R.apiDecisionEndpoint.nullable(), 'The endpoint, or null when none is set.'),
          ...fails(SIGNED_IN_OR_API, WHO, e(404, 'The company was not found.')),
        },
      },
    },
    async (req) => ok(await svc.decisionEndpoint(ctx, req.user!)),
  );
  app.put(
    PATH,
    {
      onRequest,
      schema: {
        tags,
        security,
        body: decisionEndpointBody,
        operationId: 'setAuthorizationDecisionEndpoint',
        summary: 'Set the authorisation decision endpoint',
        description:
          'For each authorisation on one of the company\'s cards that passes the platform\'s own checks, the platform POSTs `{ type: "card.authorization.request", timestamp, data: { transaction_id, card_id, card: { masked_number, last4, purpose, nickname }, amount, currency, merchant, mcc, merchant_category, country } }` to `url`, signed like the webhooks (webhook-id, webhook-timestamp, webhook-signature with this endpoint\'s `signing_secret`). The endpoint answers 2xx `{ "approved": true|false, "amount"?: "12.34" }` (a smaller amount approves part of the payment) within `timeout_ms`; no answer in time, another status, or an answer that is not a decision applies `on_timeout`.',
        response: {
          200: data(R.apiDecisionEndpoint, 'The endpoint as saved (its signing secret kept when it is changed).'),
          ...fails(
            SIGNED_IN_OR_API,
            BODY,
            IDEMPOTENT,
            WHO,
            e(404, 'The company was not found.'),
            e(409, 'Generate API credentials first.'),
            e(422, 'The URL is not allowed (`error.url`).'),
          ),
        },
      },
    },
    async (req) => ok(await svc.saveDecisionEndpoint(ctx, req.user!, req.body, info(req))),
  );
  app.delete(
    PATH,
    {
      onRequest,
      schema: {
        tags,
        security,
        operationId: 'removeAuthorizationDecisionEndpoint',
        summary: 'Remove the authorisation decision endpoint',
        response: {
          202: text('The endpoint is removed: the platform decides alone.', 'Authorisation decision endpoint removed'),
          ...fails(SIGNED_IN_OR_API, IDEMPOTENT, WHO, e(404, 'No decision endpoint is set.')),
        },
      },
    },
    async (req, reply) =>
      reply.status(HTTP.ACCEPTED).send(ok(await svc.removeDecisionEndpoint(ctx, req.user!, info(req)))),
  );
}
