import { eq } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context';
import type { Tx } from '../../db/client';
import { cardDisputes, cardTransactions } from '../../db/schema';
import { IssuerError, type StepOutcome } from '../../issuer/port';
import { conflict, notFound } from '../../lib/http';
import { programControlsRow } from '../cards/controls/queries';
import { enqueue, lockedCard, type OperationRow } from '../cards/operations';
import { lockCardById } from '../cards/steps';
import { ISSUER_ACTOR, actorName, announce } from './events';
import { disputeMoney } from './postings';
import { type DisputeRow, addHistory, disputeRow } from './queries';

/** What a dispute's issuer operation carries (the issuer is told the payment by its own reference). */
interface DisputePlan {
  disputeId: string;
  paymentReference: string | null;
  amount: number;
  reason: string;
  provisional: number;
}

async function paymentOf(tx: Tx, d: DisputeRow) {
  const [p] = await tx.select().from(cardTransactions).where(eq(cardTransactions.id, d.transactionId));
  return p!;
}

/**
 * Staff send a submitted dispute to the issuer: under_review, the issuer owed the dispute (an issuer
 * operation in the outbox, so a crash before or after the call is retried with the same id), and with
 * the program's provisional credit on, the amount credited to the card in the same transaction.
 */
export async function submitDispute(ctx: AppContext, me: AuthUser, id: string, note: string | undefined) {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const d = await disputeRow(tx, id, true);
    if (!d) throw notFound('The dispute');
    if (d.state !== 'submitted')
      throw conflict(`This dispute is ${d.state.replace('_', ' ')}; only a submitted one can be sent to the issuer.`);
    const card = await lockCardById(tx, d.cardId);
    const payment = await paymentOf(tx, d);
    const provisional = (await programControlsRow(tx))?.provisionalCredit ? d.amount : 0;
    if (provisional) await disputeMoney(tx, d, card, payment, 'credit', provisional, 'provisional credit', now);
    const plan: DisputePlan = {
      disputeId: d.id,
      paymentReference: payment.issuerReference,
      amount: d.amount,
      reason: d.reason,
      provisional,
    };
    const opId = await enqueue(tx, {
      operation: 'dispute',
      cardId: card.id,
      cardToken: card.issuerToken,
      amount: d.amount,
      purpose: 'dispute',
      plan: { ...plan },
      at: now,
    });
    const [after] = await tx
      .update(cardDisputes)
      .set({ state: 'under_review', provisional, credited: provisional, submittedAt: now, updatedAt: now })
      .where(eq(cardDisputes.id, d.id))
      .returning();
    await addHistory(tx, {
      disputeId: d.id,
      state: 'under_review',
      note,
      actorId: me.id,
      actor: await actorName(tx, me),
      at: now,
    });
    await announce(tx, 'submitted', after!, card, payment.merchant, now);
    return opId;
  });
}

/** The issuer took the dispute: its id of it is kept. */
export async function disputeSent(tx: Tx, op: OperationRow, result: unknown) {
  const reference = (result as { reference?: string } | null)?.reference;
  const { disputeId } = op.plan as unknown as DisputePlan;
  if (reference)
    await tx.update(cardDisputes).set({ issuerReference: reference }).where(eq(cardDisputes.id, disputeId));
}

/**
 * The issuer refused the dispute for good: it goes back to submitted (staff may send it again), with
 * the reason in its history, and a provisional credit is taken back.
 */
export async function disputeFailed(ctx: AppContext, tx: Tx, op: OperationRow, reason: string) {
  const { disputeId } = op.plan as unknown as DisputePlan;
  const d = await disputeRow(tx, disputeId, true);
  if (d?.state !== 'under_review') return;
  const now = ctx.now();
  const card = await lockedCard(tx, d.cardId);
  const payment = await paymentOf(tx, d);
  if (d.credited)
    await disputeMoney(tx, d, card, payment, 'debit', d.credited, 'the card issuer refused the dispute', now);
  const [after] = await tx
    .update(cardDisputes)
    .set({ state: 'submitted', provisional: 0, credited: 0, submittedAt: null, updatedAt: now })
    .where(eq(cardDisputes.id, d.id))
    .returning();
  await addHistory(tx, {
    disputeId: d.id,
    state: 'submitted',
    note: `The card issuer refused it: ${reason}`,
    actor: ISSUER_ACTOR,
    at: now,
  });
  await announce(tx, 'updated', after!, card, payment.merchant, now, d.credited);
}

/** How an outcome moved the card (for the issuer's own balance): a win without provisional credit credits it; a loss with one takes it back. */
const deltaOf = (d: DisputeRow) =>
  d.state === 'won' && !d.provisional ? d.amount : d.state === 'lost' && d.provisional ? -d.provisional : 0;

/**
 * The issuer's decision (its message `stepId`, performed once): won credits the card unless the
 * provisional credit already did; lost takes a provisional credit back (the card may go below zero).
 */
export function disputeResolved(
  ctx: AppContext,
  disputeId: string,
  stepId: string,
  outcome: 'won' | 'lost',
): Promise<StepOutcome> {
  return ctx.db.transaction(async (tx) => {
    const d = await disputeRow(tx, disputeId, true);
    if (!d) throw new IssuerError('The platform does not know this dispute.');
    const message = `Dispute ${outcome}`;
    if (d.resolutionReference === stepId)
      return { transactionId: d.id, availableDelta: deltaOf(d), authStatus: null, authAmount: null, message };
    if (d.state !== 'under_review')
      throw new IssuerError(`The dispute is ${d.state}; only one under review can be decided.`);
    const now = ctx.now();
    const card = await lockCardById(tx, d.cardId);
    const payment = await paymentOf(tx, d);
    let credited = d.credited;
    if (outcome === 'won' && !d.provisional) {
      await disputeMoney(tx, d, card, payment, 'credit', d.amount, 'dispute won', now);
      credited = d.amount;
    }
    if (outcome === 'lost' && d.credited) {
      await disputeMoney(tx, d, card, payment, 'debit', d.credited, 'dispute lost', now);
      credited = 0;
    }
    const [after] = await tx
      .update(cardDisputes)
      .set({ state: outcome, credited, resolutionReference: stepId, resolvedAt: now, updatedAt: now })
      .where(eq(cardDisputes.id, d.id))
      .returning();
    await addHistory(tx, { disputeId: d.id, state: outcome, actor: ISSUER_ACTOR, at: now });
    await announce(tx, outcome, after!, card, payment.merchant, now);
    return { transactionId: d.id, availableDelta: deltaOf(after!), authStatus: null, authAmount: null, message };
  });
}
