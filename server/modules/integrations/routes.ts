import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ApiThirdParty, clientQuery, createClientBody, isStaff, tokenBody, uuidParam } from '@shared/contract';
import { type CsvColumn, byOffset, sendCsv } from '../../lib/csv';
import { AppError, HTTP, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { FailureLimiter, guessLimits } from '../../lib/rate-limit';
import { authenticate } from '../../plugins/auth';
import { listThirdParties } from './queries';
import * as svc from './service';
import { clientCredentials, invalidClient, noStore, parseTokenForm } from './oauth';
import { issueToken } from './tokens';
import { callbackRoutes } from './callback-routes';
import { decisionRoutes } from './decision-routes';
import {
  data,
  e,
  fails,
  json,
  text,
  BODY,
  IDEMPOTENT,
  PATH,
  QUERY,
  RATE_LIMITED,
  SIGNED_IN,
} from '../../openapi/responses';
import * as R from '@shared/contract/responses';

const THIRD_PARTY_COLUMNS: CsvColumn<ApiThirdParty>[] = [
  { header: 'Name', value: (c) => c.name },
  { header: 'Client Id', value: (c) => c.client_id },
  { header: 'Company Id', value: (c) => c.company_id },
  { header: 'Company', value: (c) => c.company_name },
  { header: 'State', value: (c) => c.state },
  { header: 'Last Used', value: (c) => c.last_used_at },
  { header: 'Callback Url', value: (c) => c.webhook.url },
  { header: 'Webhook Health', value: (c) => c.webhook.health },
  { header: 'Last Webhook Status', value: (c) => c.webhook.last_status },
  { header: 'Failed Events', value: (c) => c.webhook.failed_events },
  { header: 'Pending Events', value: (c) => c.webhook.pending_events },
  { header: 'Created', value: (c) => c.created_at },
  { header: 'Last Modified', value: (c) => c.updated_at },
];

export default async function integrationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['API integration'];
  const security = [{ bearer: [] }];
  const signedIn = authenticate(ctx);

  // OAuth 2 token endpoint (RFC 6749, client credentials grant): JSON or form body, client secret in HTTP Basic or the body.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseTokenForm(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.post(
    '/oauth/token',
    {
      onRequest: noStore,
      schema: {
        tags,
        body: tokenBody,
        operationId: 'getAccessToken',
        summary: 'Get an access token for client credentials',
        response: {
          200: json(
            R.oauthToken,
            'An access token for the client credentials (JSON or form body, or HTTP Basic). Not wrapped in `data`.',
          ),
          ...fails(
            BODY,
            e(
              400,
              '`error` is invalid_request (grant_type missing, a parameter repeated, or the client authenticated both by HTTP Basic and in the body) or unsupported_grant_type.',
            ),
            e(
              401,
              '`error` is invalid_client: no client authentication, or credentials that are unknown, revoked or wrong. Carries `WWW-Authenticate: Basic`.',
            ),
            RATE_LIMITED,
          ),
        },
      },
    },
    async (req, reply) => {
      // RFC 6749 §5.2: a missing parameter is invalid_request; a grant other than ours is unsupported.
      if (!req.body.grant_type) throw new AppError(HTTP.BAD_REQUEST, 'grant_type is required.', 'invalid_request');
      if (req.body.grant_type !== 'client_credentials') {
        throw new AppError(
          HTTP.BAD_REQUEST,
          'Only the client_credentials grant is supported.',
          'unsupported_grant_type',
        );
      }
      const client = clientCredentials(req.headers.authorization, req.body);
      const limiter = new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
      const limits = guessLimits(ctx.config.rateLimit, 'oauth', client.id, req.ip);
      // Counted before the secret is checked, so parallel guesses cannot all pass a check made before any was counted.
      const attempt = await limiter.attempt(limits);
      const token = await issueToken(ctx, client.id, client.secret);
      if (!token) throw invalidClient();
      await attempt.takeBack();
      return reply.send(token);
    },
  );

  // Customers: their company's credentials. Staff: the List of Third Parties.
  app.get(
    '/third-party/clients',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        querystring: clientQuery,
        operationId: 'listApiClients',
        summary: 'Get the API credentials (company admins) or every API client (staff)',
        response: {
          200: json(
            z.union([
              R.envelope(R.apiClientCredentials).describe("Customers: their company's credentials (never the secret)"),
              R.paged(R.apiThirdParty).describe("Staff: a page of every company's API client"),
            ]),
            "Company admins: the company's credentials. Staff: the list of third parties.",
          ),
          ...fails(
            SIGNED_IN,
            QUERY,
            e(403, 'Only the admin of a verified company manages API credentials.'),
            e(404, "The company is not the user's."),
          ),
        },
      },
    },
    async (req, reply) => {
      const me = req.user!;
      if (isStaff(me.role)) {
        if (req.query.format === 'csv')
          return sendCsv(
            reply,
            'third-parties',
            THIRD_PARTY_COLUMNS,
            byOffset((p) => listThirdParties(ctx.reader(req), p)),
          );
        const r = await listThirdParties(ctx.reader(req), { limit: req.query.per_page, offset: offsetOf(req.query) });
        return paged(req, r.rows, r.total, req.query);
      }
      return ok(await svc.credentials(ctx, me, req.query.identifier ?? me.companyId ?? ''));
    },
  );
  app.post(
    '/third-party/clients',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        body: createClientBody,
        operationId: 'createApiClient',
        summary: 'Generate API credentials',
        response: {
          201: data(R.apiClientCredentials, 'New credentials: the secret is in this answer only.'),
          ...fails(
            SIGNED_IN,
            BODY,
            IDEMPOTENT,
            e(403, 'Only the admin of a verified company manages API credentials.'),
            e(404, "The company is not the user's."),
            e(409, 'Credentials are already active: revoke them first.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.CREATED).send(ok(await svc.generate(ctx, req.user!, req.body))),
  );
  app.delete(
    '/third-party/clients/:companyId',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        params: z.object({ companyId: uuidParam }),
        operationId: 'revokeApiClient',
        summary: 'Revoke API credentials',
        response: {
          202: text('Revoked, with their tokens and the callback.', 'Credentials revoked'),
          ...fails(
            SIGNED_IN,
            PATH,
            IDEMPOTENT,
            e(403, 'Only the admin of a verified company manages API credentials.'),
            e(404, "The company is not the user's."),
            e(409, 'There are no active credentials to revoke.'),
          ),
        },
      },
    },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await svc.revoke(ctx, req.user!, req.params.companyId))),
  );

  callbackRoutes(fastify);
  decisionRoutes(fastify);
}
