import { count, desc, eq, inArray, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_ROLES, type ApiIssuerOperation, issuerOperationsQuery } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { cards, issuerOperations, ledgerEntries, ledgerTransfers } from '../../db/schema';
import { ok } from '../../lib/http';
import { offsetOf, paged } from '../../lib/paging';
import { authenticate } from '../../plugins/auth';
import { lastRun, reconcile } from './service';
import { data, fails, json, IDEMPOTENT, QUERY, STAFF } from '../../openapi/responses';
import * as R from '@shared/contract/responses';

const tags = ['Reconciliation'];
const security = [{ bearer: [] }];

/** Reconciliation of the ledger with the card issuer, and the issuer's outbox: staff read, a Super-Admin runs it. */
export default async function reconciliationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const staff = authenticate(ctx, { roles: STAFF_ROLES });

  app.get(
    '/reconciliation',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        operationId: 'getReconciliation',
        summary: 'Get the last reconciliation of the ledger with the card issuer (staff)',
        response: {
          200: data(
            R.apiReconciliationRun,
            "The last comparison of every card's ledger balance with the card issuer, and the drift no owed operation explains.",
          ),
          ...fails(STAFF),
        },
      },
    },
    async () => ok((await lastRun(ctx)) ?? { run_at: null, checked: 0, drift: [] }),
  );

  app.post(
    '/reconciliation/run',
    {
      onRequest: authenticate(ctx, { roles: STAFF_ROLES }),
      schema: {
        tags,
        security,
        operationId: 'runReconciliation',
        summary: 'Reconcile the ledger with the card issuer now (Super-Admin)',
        response: { 200: data(R.apiReconciliationRun, 'The comparison, run now.'), ...fails(STAFF, IDEMPOTENT) },
      },
    },
    async () => ok(await reconcile(ctx, 'staff')),
  );

  app.get(
    '/reconciliation/operations',
    {
      onRequest: staff,
      schema: {
        tags,
        security,
        querystring: issuerOperationsQuery,
        operationId: 'listIssuerOperations',
        summary: "List the card issuer's operations: failed, pending or done (staff)",
        response: {
          200: json(
            R.paged(R.apiIssuerOperation),
            "A page of the card issuer's operations in one state (failed by default), newest first, with the refund a failure gave.",
          ),
          ...fails(STAFF, QUERY),
        },
      },
    },
    async (req) => {
      const q = req.query;
      const where = eq(issuerOperations.state, q.state);
      const db = ctx.reader(req);
      const [rows, [total]] = await Promise.all([
        db
          .select({
            op: issuerOperations,
            card: { nickname: cards.nickname, masked: cards.maskedNumber, walletId: cards.walletId },
            refund: ledgerTransfers,
          })
          .from(issuerOperations)
          .innerJoin(cards, eq(cards.id, issuerOperations.cardId))
          .leftJoin(ledgerTransfers, eq(ledgerTransfers.id, issuerOperations.compensationTransferId))
          .where(where)
          .orderBy(desc(issuerOperations.createdAt), desc(issuerOperations.id))
          .limit(q.per_page)
          .offset(offsetOf(q)),
        db.select({ n: count() }).from(issuerOperations).where(where),
      ]);
      // Each refund's credit to the customer (its largest entry), for the whole page in one query.
      const refundIds = rows.flatMap((r) => (r.refund ? [r.refund.id] : []));
      const credits = new Map(
        (refundIds.length
          ? await db
              .select({ transferId: ledgerEntries.transferId, amount: max(ledgerEntries.amount) })
              .from(ledgerEntries)
              .where(inArray(ledgerEntries.transferId, refundIds))
              .groupBy(ledgerEntries.transferId)
          : []
        ).map((c) => [c.transferId, Number(c.amount ?? 0)]),
      );
      const refunds = rows.map((r) =>
        r.refund
          ? {
              reference: r.refund.reference,
              amount: formatMoney(credits.get(r.refund.id) ?? 0),
              description: r.refund.description,
            }
          : null,
      );
      const data = rows.map(
        (r, i): ApiIssuerOperation => ({
          id: r.op.id,
          operation: r.op.operation as ApiIssuerOperation['operation'],
          purpose: r.op.purpose,
          state: r.op.state as ApiIssuerOperation['state'],
          card_id: r.op.cardId,
          card_nickname: r.card.nickname,
          card_number: r.card.masked,
          wallet_id: r.card.walletId,
          amount: r.op.amount === null ? null : formatMoney(r.op.amount),
          attempts: r.op.attempts,
          last_error: r.op.lastError,
          next_attempt_at: r.op.state === 'pending' ? r.op.nextAttemptAt.toISOString() : null,
          created_at: r.op.createdAt.toISOString(),
          completed_at: r.op.completedAt?.toISOString() ?? null,
          refund: refunds[i] ?? null,
        }),
      );
      return paged(req, data, total?.n ?? 0, q);
    },
  );
}
