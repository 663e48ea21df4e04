import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { ApiThirdParty, ApiWebhookEvent } from '@shared/contract';
import type { DbOrTx } from '../../db/client';
import {
  apiClients,
  callbackEndpoints,
  companies,
  decisionEndpoints,
  webhookDeliveries,
  webhookEventCount,
  webhookEvents,
} from '../../db/schema';
import { keptRows } from '../../db/kept-counts';

/** Staff: every company's API client, with its state, last use and webhook health. */
export async function listThirdParties(db: DbOrTx, page: { limit: number; offset: number }) {
  const failed = sql<number>`(select count(*)::int from ${webhookEvents} where ${webhookEvents.companyId} = ${apiClients.companyId} and ${webhookEvents.state} = 'failed')`;
  const pending = sql<number>`(select count(*)::int from ${webhookEvents} where ${webhookEvents.companyId} = ${apiClients.companyId} and ${webhookEvents.state} = 'pending')`;
  const lastStatus = sql<
    number | null
  >`(select ${webhookDeliveries.statusCode} from ${webhookDeliveries} join ${webhookEvents} on ${webhookEvents.id} = ${webhookDeliveries.eventId} where ${webhookEvents.companyId} = ${apiClients.companyId} order by ${webhookDeliveries.createdAt} desc limit 1)`;
  // The page's clients first (newest first, the id breaking ties so pages never overlap), then the joins and the
  // per-company webhook figures for those rows alone, not for every row a deep page skips.
  const chosen = db
    .select({ id: apiClients.id })
    .from(apiClients)
    .orderBy(desc(apiClients.createdAt), desc(apiClients.id))
    .limit(page.limit)
    .offset(page.offset)
    .as('chosen');
  const [rows, [total]] = await Promise.all([
    db
      .select({
        c: apiClients,
        companyName: companies.companyName,
        endpoint: callbackEndpoints,
        decision: {
          url: decisionEndpoints.url,
          timeoutMs: decisionEndpoints.timeoutMs,
          onTimeout: decisionEndpoints.onTimeout,
          lastFailure: decisionEndpoints.lastFailure,
          lastFailureAt: decisionEndpoints.lastFailureAt,
        },
        failed,
        pending,
        lastStatus,
      })
      .from(chosen)
      .innerJoin(apiClients, eq(apiClients.id, chosen.id))
      .innerJoin(companies, eq(companies.id, apiClients.companyId))
      .leftJoin(
        callbackEndpoints,
        and(eq(callbackEndpoints.companyId, apiClients.companyId), isNull(callbackEndpoints.revokedAt)),
      )
      .leftJoin(decisionEndpoints, eq(decisionEndpoints.companyId, apiClients.companyId))
      .orderBy(desc(apiClients.createdAt), desc(apiClients.id)),
    db.select({ n: count() }).from(apiClients),
  ]);
  return {
    rows: rows.map((r): ApiThirdParty => {
      const live = !r.c.revokedAt;
      const ep = live ? r.endpoint : null;
      const d = live && r.decision?.url ? r.decision : null;
      const lastOk = r.lastStatus !== null && r.lastStatus >= 200 && r.lastStatus < 300;
      const health: ApiThirdParty['webhook']['health'] = !ep
        ? 'none'
        : !ep.active
          ? 'disabled'
          : Number(r.failed) > 0 || (r.lastStatus !== null && !lastOk)
            ? 'failing'
            : 'healthy';
      return {
        id: r.c.id,
        name: r.c.name,
        client_id: r.c.clientId,
        company_id: r.c.companyId,
        company_name: r.companyName,
        state: live ? 'Active' : 'Revoked',
        last_used_at: r.c.lastUsedAt?.toISOString() ?? null,
        created_at: r.c.createdAt.toISOString(),
        updated_at: r.c.updatedAt.toISOString(),
        webhook: {
          url: ep?.url ?? null,
          active: !!ep?.active,
          health,
          last_status: r.lastStatus,
          failed_events: Number(r.failed),
          pending_events: Number(r.pending),
        },
        decision_endpoint: d
          ? {
              url: d.url,
              timeout_ms: d.timeoutMs,
              on_timeout: d.onTimeout === 'approve' ? 'approve' : 'decline',
              last_failure: d.lastFailure,
              last_failure_at: d.lastFailureAt?.toISOString() ?? null,
            }
          : null,
      };
    }),
    total: total?.n ?? 0,
  };
}

/** The delivery log: events with each attempt's status and the next retry. */
export async function listDeliveries(
  db: DbOrTx,
  f: { companyId?: string; state?: string },
  page: { limit: number; offset: number },
) {
  const w: SQL[] = [];
  if (f.companyId) w.push(eq(webhookEvents.companyId, f.companyId));
  if (f.state) w.push(eq(webhookEvents.state, f.state));
  const cond = w.length ? and(...w) : undefined;
  const [events, [total]] = await Promise.all([
    db
      .select()
      .from(webhookEvents)
      .where(cond)
      .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
      .limit(page.limit)
      .offset(page.offset),
    // Of every company, by state or not, the kept total's (migration 0054); of one company, counted.
    f.companyId
      ? db.select({ n: count() }).from(webhookEvents).where(cond)
      : db
          .select({ n: keptRows(webhookEventCount.rows) })
          .from(webhookEventCount)
          .where(f.state ? eq(webhookEventCount.state, f.state) : undefined),
  ]);
  const attempts = events.length
    ? await db
        .select()
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.eventId,
            events.map((e) => e.id),
          ),
        )
        .orderBy(webhookDeliveries.attempt)
    : [];
  return {
    rows: events.map(
      (e): ApiWebhookEvent => ({
        id: e.id,
        message_id: e.messageId,
        type: e.type,
        state: e.state as ApiWebhookEvent['state'],
        attempts: e.attempts,
        next_attempt_at: e.state === 'pending' ? e.nextAttemptAt.toISOString() : null,
        delivered_at: e.deliveredAt?.toISOString() ?? null,
        created_at: e.createdAt.toISOString(),
        payload: e.payload,
        deliveries: attempts
          .filter((a) => a.eventId === e.id)
          .map((a) => ({
            attempt: a.attempt,
            status_code: a.statusCode,
            error: a.error,
            duration_ms: a.durationMs,
            next_retry_at: a.nextRetryAt?.toISOString() ?? null,
            created_at: a.createdAt.toISOString(),
          })),
      }),
    ),
    total: total?.n ?? 0,
  };
}
