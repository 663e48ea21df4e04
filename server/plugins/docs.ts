import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { transformObject } from '../openapi/document';
import { transform } from '../openapi/requests';

/**
 * The OpenAPI document, generated from the same zod schemas that validate requests, and the
 * response schemas of server/openapi/responses.ts (entities as components).
 */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Cardwallet API',
        description:
          'Master wallet in USDT and prepaid virtual cards. Every path is under /api/v1. ' +
          'Authenticated calls carry `Authorization: Bearer <token>`; mutations honour `Idempotency-Key`. ' +
          'Answers are `{ data }` (lists add paging: links, from, to, total, current_page, last_page, per_page); ' +
          'every failure is `{ message, error }`. Amounts are decimal strings with two decimals ("1250.00"); ' +
          'timestamps are ISO 8601 in UTC.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { docExpansion: 'list' } });
});
