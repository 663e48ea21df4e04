import { type SQL, and, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { ApiDispute, ApiDisputeDetail, DisputeReason, DisputeState } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { cardDisputeEvents, cardDisputes, cardTransactions, cards, companies, uploads, users } from '../../db/schema';
import { dayRange } from '../../lib/dates';
import { type Page, afterCursor, isExport } from '../../lib/paging';

export type DisputeRow = typeof cardDisputes.$inferSelect;

export interface DisputeFilters {
  walletId?: string;
  state?: DisputeState;
  reason?: DisputeReason;
  cardId?: string;
  transactionId?: string;
  startDate?: string;
  endDate?: string;
}

const d = cardDisputes;

/** What a payment cleared: its clearings, or a force-post's own amount. */
const clearedOf = sql<string>`case when ${cardTransactions.kind} = 'force_post' then ${cardTransactions.amount}
  else (select coalesce(sum(c.amount), 0) from card_transactions c
         where c.authorization_id = ${cardTransactions.id} and c.kind = 'clearing') end`;

const ownerName = sql<string>`coalesce(${companies.companyName}, trim(${users.firstName} || ' ' || ${users.lastName}), '')`;

function where(f: DisputeFilters): SQL | undefined {
  const r = dayRange(f.startDate, f.endDate);
  return and(
    f.walletId ? eq(d.walletId, f.walletId) : undefined,
    f.state ? eq(d.state, f.state) : undefined,
    f.reason ? eq(d.reason, f.reason) : undefined,
    f.cardId ? eq(d.cardId, f.cardId) : undefined,
    f.transactionId ? eq(d.transactionId, f.transactionId) : undefined,
    r.from ? gte(d.createdAt, r.from) : undefined,
    r.to ? lt(d.createdAt, r.to) : undefined,
  );
}

async function present(db: DbOrTx, cond: SQL | undefined, page: Page): Promise<ApiDispute[]> {
  const order = [desc(d.createdAt), desc(d.id)];
  // The page's disputes first, from the creation-time index: a deep page skips its offset without joining each row.
  const chosen = db
    .select({ id: d.id })
    .from(d)
    .where(and(cond, afterCursor(d.createdAt, d.id, page)))
    .orderBy(...order)
    .limit(page.limit)
    .offset(isExport(page) ? 0 : page.offset);
  const rows = await db
    .select({
      d,
      nickname: cards.nickname,
      last4: cards.last4,
      merchant: cardTransactions.merchant,
      paymentDate: cardTransactions.createdAt,
      cleared: clearedOf,
      owner: ownerName,
    })
    .from(d)
    .innerJoin(cards, eq(cards.id, d.cardId))
    .innerJoin(cardTransactions, eq(cardTransactions.id, d.transactionId))
    .leftJoin(companies, eq(companies.id, d.walletId))
    .leftJoin(users, eq(users.id, d.walletId))
    .where(inArray(d.id, chosen))
    .orderBy(...order);
  const ids = [...new Set(rows.flatMap((r) => r.d.evidence))];
  const files = ids.length ? await db.select().from(uploads).where(inArray(uploads.id, ids)) : [];
  const byId = new Map(files.map((f) => [f.id, f]));
  return rows.map((r) => ({
    id: r.d.id,
    card_id: r.d.cardId,
    card_nickname: r.nickname,
    card_last4: r.last4,
    transaction_id: r.d.transactionId,
    merchant: r.merchant,
    payment_amount: formatMoney(Number(r.cleared)),
    payment_date: r.paymentDate.toISOString(),
    wallet_id: r.d.walletId,
    owner_name: r.owner,
    reason: r.d.reason as DisputeReason,
    amount: formatMoney(r.d.amount),
    explanation: r.d.explanation,
    evidence: r.d.evidence.flatMap((id) => {
      const f = byId.get(id);
      return f ? [{ id: f.id, name: f.originalName, content_type: f.contentType, size: f.size }] : [];
    }),
    state: r.d.state as DisputeState,
    provisional_credit: formatMoney(r.d.provisional),
    credited: formatMoney(r.d.credited),
    issuer_reference: r.d.issuerReference,
    submitted_at: r.d.submittedAt?.toISOString() ?? null,
    resolved_at: r.d.resolvedAt?.toISOString() ?? null,
    created_at: r.d.createdAt.toISOString(),
    updated_at: r.d.updatedAt.toISOString(),
  }));
}

/** A page of disputes, newest first (or a batch of an export after its cursor). */
export async function listDisputes(db: DbOrTx, f: DisputeFilters, page: Page) {
  const cond = where(f);
  const [rows, [total]] = await Promise.all([
    present(db, cond, page),
    isExport(page) ? [undefined] : db.select({ n: count() }).from(d).where(cond),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function disputeDetail(db: DbOrTx, id: string): Promise<ApiDisputeDetail | null> {
  const [one] = await present(db, eq(d.id, id), { limit: 1, offset: 0 });
  if (!one) return null;
  const history = await db
    .select()
    .from(cardDisputeEvents)
    .where(eq(cardDisputeEvents.disputeId, id))
    .orderBy(cardDisputeEvents.createdAt, cardDisputeEvents.id);
  return {
    ...one,
    history: history.map((h) => ({
      state: h.state as DisputeState,
      note: h.note,
      actor: h.actor,
      at: h.createdAt.toISOString(),
    })),
  };
}

export async function disputeRow(db: DbOrTx, id: string, lock = false): Promise<DisputeRow | null> {
  const q = db.select().from(d).where(eq(d.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/** Adds a step to a dispute's history. */
export async function addHistory(
  tx: DbOrTx,
  e: { disputeId: string; state: DisputeState; note?: string | null; actorId?: string | null; actor: string; at: Date },
) {
  await tx.insert(cardDisputeEvents).values({
    id: crypto.randomUUID(),
    disputeId: e.disputeId,
    state: e.state,
    note: e.note || null,
    actorId: e.actorId ?? null,
    actor: e.actor,
    createdAt: e.at,
  });
}
