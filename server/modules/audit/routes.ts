import { and, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type ApiAuditEntry, auditListQuery } from '@shared/contract';
import type { DbOrTx } from '../../db/client';
import { auditLog, auditLogCount } from '../../db/schema';
import { type CsvColumn, cursorOf, sendCsv } from '../../lib/csv';
import { dayRange } from '../../lib/dates';
import { type Page, afterCursor, isExport, offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { fails, json, QUERY, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';
import { containing, startingWith } from '../../lib/like';
import { keptRows } from '../../db/kept-counts';

interface AuditFilters {
  actor?: string;
  action?: string;
  object_type?: string;
  object_id?: string;
  start_date?: string;
  end_date?: string;
}

const AUDIT_COLUMNS: CsvColumn<ApiAuditEntry>[] = [
  { header: 'Date', value: (a) => a.created_at },
  { header: 'Actor Id', value: (a) => a.actor_id },
  { header: 'Actor Email', value: (a) => a.actor_email },
  { header: 'Actor Role', value: (a) => a.actor_role },
  { header: 'Action', value: (a) => a.action },
  { header: 'Object Type', value: (a) => a.object_type },
  { header: 'Object Id', value: (a) => a.object_id },
  { header: 'Status', value: (a) => a.status },
  { header: 'IP', value: (a) => a.ip },
  { header: 'Details', value: (a) => (a.details == null ? '' : JSON.stringify(a.details)) },
];

/** The audit trail, newest first; a page by offset, or (exports) a keyset batch. */
async function listAudit(db: DbOrTx, q: AuditFilters, page: Page) {
  const w: SQL[] = [];
  if (q.actor)
    w.push(
      or(
        ilike(auditLog.actorEmail, containing(q.actor)),
        eq(auditLog.actorId, /^[0-9a-f-]{36}$/i.test(q.actor) ? q.actor : '00000000-0000-0000-0000-000000000000'),
      )!,
    );
  // As ilike '<prefix>%', on lower(action): the text_pattern_ops index of migration 0023 serves a prefix match.
  const prefix = q.action ? startingWith(q.action.toLowerCase()) : null;
  if (prefix) w.push(sql`lower(${auditLog.action}) like ${prefix}`);
  if (q.object_type) w.push(eq(auditLog.objectType, q.object_type));
  if (q.object_id) w.push(eq(auditLog.objectId, q.object_id));
  const r = dayRange(q.start_date, q.end_date);
  if (r.from) w.push(gte(auditLog.createdAt, r.from));
  if (r.to) w.push(lt(auditLog.createdAt, r.to));
  const cond = w.length ? and(...w) : undefined;
  // With no filter but the action and the object type, the total is the kept count's (migrations 0030, 0031).
  const kept = w.length === (prefix ? 1 : 0) + (q.object_type ? 1 : 0);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(and(cond, afterCursor(auditLog.createdAt, auditLog.id, page)))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(page.limit)
      .offset(isExport(page) ? 0 : page.offset),
    isExport(page)
      ? [undefined]
      : kept
        ? db
            .select({ n: keptRows(auditLogCount.rows) })
            .from(auditLogCount)
            .where(
              and(
                prefix ? sql`lower(${auditLogCount.action}) like ${prefix}` : undefined,
                q.object_type ? eq(auditLogCount.objectType, q.object_type) : undefined,
              ),
            )
        : db.select({ n: count() }).from(auditLog).where(cond),
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
  return { rows: data, total: total?.n ?? 0 };
}

/** The audit trail, newest first, filtered by who, what, which object and when. Super-Admin only. */
export default async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  app.get(
    '/audit-logs',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags: ['Audit'],
        security: [{ bearer: [] }],
        querystring: auditListQuery,
        operationId: 'listAuditLog',
        summary: 'List the audit trail (Super-Admin)',
        response: {
          200: json(R.paged(R.apiAuditEntry), 'A page of the audit trail, newest first.'),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req, reply) => {
      const q = req.query;
      if (q.format === 'csv') {
        return sendCsv(reply, 'audit-trail', AUDIT_COLUMNS, async (after, limit) => {
          const { rows } = await listAudit(ctx.reader(req), q, { limit, offset: 0, after });
          return {
            rows,
            next: cursorOf(
              rows,
              (r) => r.created_at,
              (r) => r.id,
            ),
          };
        });
      }
      const r = await listAudit(ctx.reader(req), q, { limit: q.per_page, offset: offsetOf(q) });
      return paged(req, r.rows, r.total, q);
    },
  );
}
