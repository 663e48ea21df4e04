import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, HTTP, ok } from '../../lib/http';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/health', { schema: { tags: ['Health'] } }, async () => {
    try {
      await app.ctx.db.execute(sql`select 1`);
    } catch {
      throw new AppError(HTTP.SERVICE_UNAVAILABLE, 'The database is not reachable.');
    }
    return ok({ status: 'ok', database: app.ctx.database.kind });
  });
}
