import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { transformObject } from '../openapi/document';
import { transform } from '../openapi/requests';
import { cardWebhooks, webhookSchemas } from '../openapi/webhooks';

/**
 * The OpenAPI document, generated from the same zod schemas that validate requests, and the
 * response schemas each route declares beside its handler (entities as components). OpenAPI 3.1: its
 * schemas are plain JSON Schema 2020-12 (`null` is a type), and it can describe webhooks.
 */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cardwallet API',
        description:
          'Master wallet in USDT and prepaid virtual cards. Every path is under /api/v1. ' +
          'Authenticated calls carry `Authorization: Bearer <token>`; mutations honour `Idempotency-Key`. ' +
          'Answers are `{ data }` (lists add paging: links, from, to, total, current_page, last_page, per_page); ' +
          'every failure is `{ message, error }`. Amounts are decimal strings with two decimals ("1250.00"); ' +
          "timestamps are ISO 8601 in UTC. With a read replica, a mutation's answer carries `CW-Read-After`: send it " +
          'back as a request header to read your own write on any instance (browsers get the same in a cookie).',
        version: '1.0.0',
      },
      servers: [
        { url: app.ctx.config.appUrl, description: 'This deployment (APP_URL); every path starts with /api/v1' },
      ],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: webhookSchemas(),
      },
      webhooks: cardWebhooks(),
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { docExpansion: 'list' } });
});
