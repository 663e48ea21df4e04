import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, HTTP, ok } from '../../lib/http';
import { data, e, fails } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { checkReady } from './ready';

export default async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    {
      schema: {
        tags: ['Health'],
        operationId: 'getHealth',
        summary: 'Check that the API and its database are up',
        response: {
          200: data(R.health, 'The API and its database are up.'),
          ...fails(e(503, 'The database is not reachable.')),
        },
      },
    },
    async () => {
      try {
        await app.ctx.db.execute(sql`select 1`);
      } catch {
        throw new AppError(HTTP.SERVICE_UNAVAILABLE, 'The database is not reachable.');
      }
      return ok({ status: 'ok', database: app.ctx.database.kind });
    },
  );
  app.get(
    '/ready',
    {
      schema: {
        tags: ['Health'],
        operationId: 'getReady',
        summary: 'Check that this instance should be sent traffic (readiness)',
        description:
          'For a load balancer: 200 while this instance takes requests; 503 once it is shutting down (requests in ' +
          'flight still finish), when the database does not answer within 2 s, or when its migrations are behind ' +
          'this version. `/health` is the liveness check: it stays 200 while the process can answer at all.',
        response: {
          200: data(R.ready, 'This instance takes requests.'),
          ...fails(
            e(503, 'The instance is shutting down, the database is not reachable, or its migrations are behind.'),
          ),
        },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await checkReady(app.readiness, app.ctx.database));
    },
  );
}
