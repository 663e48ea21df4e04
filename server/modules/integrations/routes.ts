import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callbackRequestBody, callbackStatusBody, clientQuery, createClientBody, deliveriesQuery, isStaff, tokenBody } from '../../../shared/contract';
import { AppError, HTTP, forbidden, ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { FailureLimiter } from '../../lib/rate-limit';
import { authenticate } from '../../plugins/auth';
import { listDeliveries, listThirdParties } from './queries';
import * as svc from './service';
import { issueToken } from './tokens';

export default async function integrationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['API integration'];
  const security = [{ bearer: [] }];
  const signedIn = authenticate(ctx);

  // OAuth 2 token endpoint: client credentials in the body (JSON or form) or HTTP Basic.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post('/oauth/token', { schema: { tags, body: tokenBody } }, async (req, reply) => {
    let { client_id: id, client_secret: secret } = req.body;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [u, p] = Buffer.from(basic[1]!, 'base64').toString().split(':');
      id = decodeURIComponent(u ?? '');
      secret = decodeURIComponent(p ?? '');
    }
    // RFC 6749 §5.2: a missing parameter is invalid_request; a grant other than ours is unsupported.
    if (!req.body.grant_type) throw new AppError(HTTP.BAD_REQUEST, 'grant_type is required.', 'invalid_request');
    if (req.body.grant_type !== 'client_credentials') {
      throw new AppError(HTTP.BAD_REQUEST, 'Only the client_credentials grant is supported.', 'unsupported_grant_type');
    }
    if (!id || !secret) throw new AppError(HTTP.BAD_REQUEST, 'client_id and client_secret are required.', 'invalid_request');
    const limiter = new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now);
    const keys = [
      { key: `oauth:client:${id}`, max: ctx.config.rateLimit.perAccount * 2 },
      { key: `oauth:ip:${req.ip}`, max: ctx.config.rateLimit.perAddress },
    ];
    await limiter.assertUnder(keys);
    const token = await issueToken(ctx, id, secret);
    if (!token) {
      for (const k of keys) await limiter.hit(k.key);
      throw new AppError(HTTP.UNAUTHORIZED, 'Client authentication failed.', 'invalid_client', { 'www-authenticate': 'Basic realm="cardwallet"' });
    }
    return reply.header('cache-control', 'no-store').send(token);
  });

  // Customers: their company's credentials. Staff: the List of Third Parties.
  app.get('/third-party/clients', { onRequest: signedIn, schema: { tags, security, querystring: clientQuery } }, async (req) => {
    const me = req.user!;
    if (isStaff(me.role)) {
      const r = await listThirdParties(ctx.db, { limit: req.query.per_page, offset: offsetOf(req.query) });
      return paged(req, r.rows, r.total, req.query);
    }
    return ok(await svc.credentials(ctx, me, req.query.identifier ?? me.companyId ?? ''));
  });
  app.post('/third-party/clients', { onRequest: signedIn, schema: { tags, security, body: createClientBody } }, async (req, reply) =>
    reply.status(HTTP.CREATED).send(ok(await svc.generate(ctx, req.user!, req.body))),
  );
  app.delete(
    '/third-party/clients/:companyId',
    { onRequest: signedIn, schema: { tags, security, params: z.object({ companyId: z.string().uuid() }) } },
    async (req, reply) => reply.status(HTTP.ACCEPTED).send(ok(await svc.revoke(ctx, req.user!, req.params.companyId))),
  );

  app.get('/third-party/callback-details', { onRequest: signedIn, schema: { tags, security } }, async (req) => ok(await svc.callbackDetails(ctx, req.user!)));
  app.post('/third-party/callback-request', { onRequest: signedIn, schema: { tags, security, body: callbackRequestBody } }, async (req) =>
    ok(await svc.saveCallback(ctx, req.user!, req.body)),
  );
  app.put('/third-party/callback-status', { onRequest: signedIn, schema: { tags, security, body: callbackStatusBody } }, async (req) =>
    ok(await svc.setCallbackActive(ctx, req.user!, req.body.activate)),
  );
  app.delete('/third-party/callback-revoke', { onRequest: signedIn, schema: { tags, security } }, async (req, reply) =>
    reply.status(HTTP.ACCEPTED).send(ok(await svc.revokeCallback(ctx, req.user!))),
  );

  // The delivery log: the Company-Admin sees their company's, staff anyone's.
  app.get('/third-party/webhook-deliveries', { onRequest: signedIn, schema: { tags, security, querystring: deliveriesQuery } }, async (req) => {
    const me = req.user!;
    let companyId = req.query.company_id;
    if (!isStaff(me.role)) {
      if (me.role !== 'Company-Admin' || !me.companyId) throw forbidden('Only the company admin sees webhook deliveries.');
      companyId = me.companyId;
    }
    const r = await listDeliveries(ctx.db, { companyId, state: req.query.state }, { limit: req.query.per_page, offset: offsetOf(req.query) });
    return paged(req, r.rows, r.total, req.query);
  });
}
