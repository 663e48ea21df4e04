import { and, eq, inArray, sql } from 'drizzle-orm';
import { DISPUTE_WINDOW_DAYS, type DisputeBody } from '@shared/contract';
import { centsText } from '@shared/vocabulary';
import type { AppContext, AuthUser } from '../../context';
import type { Tx } from '../../db/client';
import { cardDisputes, cardTransactions } from '../../db/schema';
import { conflict, forbidden, invalidField, notFound } from '../../lib/http';
import { type ReceivedFile, storeUpload } from '../../lib/uploads';
import { cardForCaller } from '../cards/access';
import { lockCardById, type CardTx } from '../cards/steps';
import { enqueue } from '../cards/operations';
import { actorName, announce, auditCustomer } from './events';
import { disputeMoney } from './postings';
import { addHistory, disputeRow } from './queries';

type RequestInfo = { ip: string; id: string; url: string };
const OPEN = ['submitted', 'under_review'];

/** The payment a transaction id names: an authorisation or a force-post (a clearing names its authorisation). */
async function paymentOf(tx: Tx, id: string): Promise<CardTx | null> {
  const [row] = await tx.select().from(cardTransactions).where(eq(cardTransactions.id, id));
  if (!row) return null;
  const paymentId = row.kind === 'clearing' ? row.authorizationId : row.id;
  if (!paymentId) return null;
  // Locked: disputes, refunds and clearings of one payment are decided one at a time.
  const [payment] = await tx.select().from(cardTransactions).where(eq(cardTransactions.id, paymentId)).for('update');
  return payment ?? null;
}

/** What a payment cleared, what was refunded of it, and what won disputes already gave back. */
async function disputable(tx: Tx, payment: CardTx) {
  const [r] = await tx
    .select({
      cleared: sql<string>`coalesce(sum(${cardTransactions.amount}) filter (where ${cardTransactions.kind} = 'clearing'), 0)`,
      refunded: sql<string>`coalesce(sum(${cardTransactions.amount}) filter (where ${cardTransactions.kind} = 'merchant_refund'), 0)`,
    })
    .from(cardTransactions)
    .where(
      and(
        eq(cardTransactions.authorizationId, payment.id),
        inArray(cardTransactions.kind, ['clearing', 'merchant_refund']),
      ),
    );
  const [won] = await tx
    .select({ n: sql<string>`coalesce(sum(${cardDisputes.amount}), 0)` })
    .from(cardDisputes)
    .where(and(eq(cardDisputes.transactionId, payment.id), eq(cardDisputes.state, 'won')));
  const cleared = payment.kind === 'force_post' ? payment.amount : Number(r?.cleared ?? 0);
  return { cleared, left: cleared - Number(r?.refunded ?? 0) - Number(won?.n ?? 0) };
}

/**
 * The card's owner (an Individual, a company's admin or its API client) disputes a cleared payment
 * within DISPUTE_WINDOW_DAYS of it: the dispute, its evidence and its first history step in one
 * transaction, the owner told. Another's transaction is a 404, as every card object is.
 */
export async function openDispute(
  ctx: AppContext,
  me: AuthUser,
  transactionId: string,
  body: DisputeBody,
  files: ReceivedFile[],
  req: RequestInfo,
) {
  const now = ctx.now();
  const id = crypto.randomUUID();
  await ctx.db.transaction(async (tx) => {
    const payment = await paymentOf(tx, transactionId);
    if (!payment) throw notFound('The card transaction');
    const card = await cardForCaller(ctx, me, payment.cardId, tx).catch(() => {
      throw notFound('The card transaction');
    });
    if (me.role === 'Company-User') throw forbidden("Only the company's admins may dispute a card payment.");
    if (!['authorization', 'force_post'].includes(payment.kind) || payment.status === 'declined')
      throw conflict('Only a card payment can be disputed.');
    if (card.deletedAt) throw conflict('The card has been deleted.');
    const { cleared, left } = await disputable(tx, payment);
    if (cleared <= 0) throw conflict('Only a cleared payment can be disputed; this one has not cleared yet.');
    if (now.getTime() - payment.createdAt.getTime() > DISPUTE_WINDOW_DAYS * 86_400_000)
      throw conflict(`A payment can be disputed within ${DISPUTE_WINDOW_DAYS} days; this one is older.`);
    const [open] = await tx
      .select({ id: cardDisputes.id })
      .from(cardDisputes)
      .where(and(eq(cardDisputes.transactionId, payment.id), inArray(cardDisputes.state, OPEN)));
    if (open) throw conflict('This payment already has an open dispute.');
    if (body.amount > left)
      throw invalidField(
        'amount',
        left > 0
          ? `At most ${centsText(left, 'USD')} of this payment can be disputed (what cleared, less refunds).`
          : 'Nothing of this payment is left to dispute (it was refunded or credited).',
      );
    const evidence: string[] = [];
    for (const f of files) evidence.push(await storeUpload(ctx, tx, f, card.walletId, me.id));
    const [d] = await tx
      .insert(cardDisputes)
      .values({
        id,
        cardId: card.id,
        transactionId: payment.id,
        walletId: card.walletId,
        reason: body.reason,
        amount: body.amount,
        explanation: body.explanation,
        evidence,
        state: 'submitted',
        createdBy: me.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await addHistory(tx, {
      disputeId: id,
      state: 'submitted',
      actorId: me.id,
      actor: await actorName(tx, me),
      at: now,
    });
    await announce(tx, 'created', d!, card, payment.merchant, now);
    await auditCustomer(
      tx,
      me,
      req,
      'dispute.create',
      id,
      { reason: body.reason, amount: body.amount, files: evidence.length },
      now,
    );
  });
  return id;
}

/**
 * The owner takes an open dispute back. One already with the issuer is withdrawn there too (an
 * issuer operation), and a provisional credit is taken back in the same transaction.
 */
export async function withdrawDispute(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  note: string | undefined,
  req: RequestInfo,
) {
  const now = ctx.now();
  let opId: string | null = null;
  await ctx.db.transaction(async (tx) => {
    const d = await disputeRow(tx, id, true);
    if (!d) throw notFound('The dispute');
    const card = await cardForCaller(ctx, me, d.cardId, tx).catch(() => {
      throw notFound('The dispute');
    });
    if (me.role === 'Company-User') throw forbidden("Only the company's admins may withdraw a dispute.");
    if (!OPEN.includes(d.state))
      throw conflict(`This dispute is ${d.state.replace('_', ' ')}; only an open one can be withdrawn.`);
    await lockCardById(tx, card.id);
    const [payment] = await tx.select().from(cardTransactions).where(eq(cardTransactions.id, d.transactionId));
    if (d.credited > 0) await disputeMoney(tx, d, card, payment!, 'debit', d.credited, 'dispute withdrawn', now);
    if (d.state === 'under_review')
      opId = await enqueue(tx, {
        operation: 'withdraw_dispute',
        cardId: card.id,
        cardToken: card.issuerToken,
        purpose: 'dispute-withdrawal',
        plan: { disputeId: d.id },
        at: now,
      });
    const [after] = await tx
      .update(cardDisputes)
      .set({ state: 'withdrawn', credited: 0, resolvedAt: now, updatedAt: now })
      .where(eq(cardDisputes.id, d.id))
      .returning();
    await addHistory(tx, {
      disputeId: d.id,
      state: 'withdrawn',
      note,
      actorId: me.id,
      actor: await actorName(tx, me),
      at: now,
    });
    await announce(tx, 'withdrawn', after!, card, payment!.merchant, now);
    await auditCustomer(tx, me, req, 'dispute.withdraw', d.id, { note: note ?? null }, now);
  });
  return opId;
}
