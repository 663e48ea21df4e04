import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, HTTP, ok } from '../../lib/http';
import { data, e, fails } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

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
}
