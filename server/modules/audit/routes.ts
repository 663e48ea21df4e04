import { and, count, desc, eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type ApiAuditEntry, auditListQuery } from '../../../shared/contract';
import { auditLog } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';

/** The audit trail, newest first, filtered by who, what, which object and when. Super-Admin only. */
export default async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.get(
    '/audit-logs',
    { onRequest: authenticate(ctx, { roles: ['Super-Admin'] }), schema: { tags: ['Audit'], security: [{ bearer: [] }], querystring: auditListQuery } },
    async (req) => {
      const q = req.query;
      const w: SQL[] = [];
      if (q.actor) w.push(or(ilike(auditLog.actorEmail, `%${q.actor}%`), eq(auditLog.actorId, /^[0-9a-f-]{36}$/i.test(q.actor) ? q.actor : '00000000-0000-0000-0000-000000000000'))!);
      if (q.action) w.push(ilike(auditLog.action, `${q.action}%`));
      if (q.object_type) w.push(eq(auditLog.objectType, q.object_type));
      if (q.object_id) w.push(eq(auditLog.objectId, q.object_id));
      const r = dayRange(q.start_date, q.end_date);
      if (r.from) w.push(gte(auditLog.createdAt, r.from));
      if (r.to) w.push(lt(auditLog.createdAt, r.to));
      const cond = w.length ? and(...w) : undefined;
      const [rows, [total]] = await Promise.all([
        ctx.db.select().from(auditLog).where(cond).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(q.per_page).offset(offsetOf(q)),
        ctx.db.select({ n: count() }).from(auditLog).where(cond),
      ]);
      const data = rows.map(
        (a): ApiAuditEntry => ({
          id: a.id,
          actor_id: a.actorId,
          actor_email: a.actorEmail,
          actor_role: a.actorRole,
          action: a.action,
          object_type: a.objectType,
          object_id: a.objectId,
          details: a.details,
          status: a.status,
          ip: a.ip,
          created_at: a.createdAt.toISOString(),
        }),
      );
      return paged(req, data, total?.n ?? 0, q);
    },
  );
}
