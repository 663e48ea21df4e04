import { centsText } from '@shared/vocabulary';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { cardTransactions, cards, issuerOperations } from '../../db/schema';
import { completeKey } from '../../db/idempotency-keys';
import { PLATFORM, findWallet } from '../ledger/accounts';
import { type Leg, post } from '../ledger/post';
import { newReference } from '../ledger/refs';
import { cardAccounts } from './accounts';
import { cardMovement } from './movements';
import { emitEvent } from '../integrations/webhooks';
import { cardEventData } from './events';
import { type OperationRow, enqueue, lockedCard } from './operations';
import { disputeFailed, disputeSent } from '../disputes/issuer';

/** Why a card ended when the issuer never loaded it (such cards do not count against the 5-card limit). */
export const ISSUER_FAILURE = 'The issuer could not load the card';

/** What a card withdrawal's operation carries: the posting it owes once the issuer has given the money up. */
export interface WithdrawalPlan {
  fees: number;
  createdBy: string;
  /** the request's Idempotency-Key, answered when the withdrawal is settled either way */
  key: { principal: string; key: string } | null;
  answers: { done: { status: number; body: string }; failed: { status: number; body: string } };
}

/** After the issuer did an operation: the withdrawal's posting (issuer first, then the ledger). */
export async function onSuccess(ctx: AppContext, tx: Tx, op: OperationRow, result?: unknown): Promise<void> {
  if (op.purpose === 'dispute') return disputeSent(tx, op, result);
  if (op.purpose !== 'card-withdrawal') return;
  const plan = op.plan as unknown as WithdrawalPlan;
  const card = await lockedCard(tx, op.cardId);
  const acc = await cardAccounts(tx, card.id);
  const wallet = (await findWallet(tx, card.walletId))!;
  const amount = op.amount!;
  const now = ctx.now();
  const posted = await post(tx, {
    kind: 'withdraw',
    reference: newReference('CWD'),
    description: `Card withdrawal: ${card.nickname}`,
    meta: {
      card_id: card.id,
      card_number: card.maskedNumber,
      fees_total: plan.fees,
      fees_meta: (op.plan as { feesMeta?: unknown }).feesMeta,
      issuer_operation: op.id,
    },
    createdBy: plan.createdBy,
    at: now,
    legs: [
      { accountId: acc.card.id, amount: -amount },
      { accountId: wallet.id, amount: amount - plan.fees },
      ...(plan.fees ? [{ accountId: PLATFORM.feeIncome, amount: plan.fees }] : []),
    ],
  });
  await tx
    .insert(cardTransactions)
    .values(cardMovement(card.id, 'withdrawal', amount, 'Withdrawal to master wallet', posted.transferId, now));
  if (plan.key) await completeKey(ctx, tx, plan.key, plan.answers.done);
}

/**
 * After an operation failed for good: the customer gets back what they paid for what the issuer
 * never did, by a ledger transfer whose description says why (their card and wallet history show
 * it); a freeze or unfreeze is undone; a withdrawal that never left the issuer answers its request.
 */
export async function onFailure(ctx: AppContext, tx: Tx, op: OperationRow, reason: string): Promise<void> {
  const card = await lockedCard(tx, op.cardId);
  const now = ctx.now();
  const fees = Number((op.plan as { fees?: number }).fees ?? 0);
  switch (op.purpose) {
    case 'card-creation':
    case 'card-funding': {
      const acc = await cardAccounts(tx, card.id);
      const back = Math.min(op.amount ?? 0, acc.card.balance);
      const creation = op.purpose === 'card-creation';
      const transferId = await refund(
        ctx,
        tx,
        op,
        card,
        [
          ...(back ? [{ accountId: acc.card.id, amount: -back }] : []),
          ...(fees ? [{ accountId: PLATFORM.feeIncome, amount: -fees }] : []),
        ],
        creation
          ? `Card issuance failed at the issuer: ${centsText(back + fees, 'USD')} returned (${card.nickname})`
          : `Card top-up failed at the issuer: ${centsText(back + fees, 'USD')} returned (${card.nickname})`,
        reason,
        back,
      );
      if (creation && !card.deletedAt) {
        await tx
          .update(cards)
          .set({ deletedAt: now, endReason: ISSUER_FAILURE, updatedAt: now })
          .where(eq(cards.id, card.id));
        // The issuer made the card but never loaded it: end it there too.
        await enqueue(tx, {
          operation: 'terminate',
          cardId: card.id,
          cardToken: card.issuerToken,
          purpose: 'compensation',
          at: now,
        });
      }
      await setCompensation(tx, op.id, transferId);
      return;
    }
    case 'maintenance': {
      const acc = await cardAccounts(tx, card.id);
      const posted = await post(tx, {
        kind: 'refund',
        reference: newReference('CRF'),
        description: `Maintenance fee returned: the card issuer could not take it (${card.nickname})`,
        meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: 0, reason, issuer_operation: op.id },
        at: now,
        legs: [
          { accountId: PLATFORM.feeIncome, amount: -(op.amount ?? 0) },
          { accountId: acc.card.id, amount: op.amount ?? 0 },
        ],
      });
      await tx
        .insert(cardTransactions)
        .values(cardMovement(card.id, 'refund', op.amount ?? 0, 'Maintenance fee returned', posted.transferId, now));
      await setCompensation(tx, op.id, posted.transferId);
      return;
    }
    case 'card-withdrawal': {
      const plan = op.plan as unknown as WithdrawalPlan;
      if (plan.key) await completeKey(ctx, tx, plan.key, plan.answers.failed);
      return;
    }
    case 'dispute':
      return disputeFailed(ctx, tx, op, reason);
    case 'freeze':
    case 'unfreeze': {
      const previous = (op.plan as { previous?: string }).previous;
      const target = op.purpose === 'freeze' ? 'Deactivated' : 'Active';
      if (previous && card.state === target) {
        await tx.update(cards).set({ state: previous, updatedAt: now }).where(eq(cards.id, card.id));
        // Integrators were told of the change with it: tell them it did not hold.
        const undone = op.purpose === 'freeze' ? 'card.unfrozen' : 'card.frozen';
        await emitEvent(tx, card.walletId, undone, cardEventData(tx, card, { state: previous, reason }), now);
      }
      return;
    }
    default:
      // A termination that never happened: the customer was settled already; reconciliation shows what the issuer still holds.
      return;
  }
}

/** The wallet receives what the legs take back, in one transfer. */
async function refund(
  ctx: AppContext,
  tx: Tx,
  op: OperationRow,
  card: typeof cards.$inferSelect,
  legs: Leg[],
  description: string,
  reason: string,
  toCard: number,
) {
  const total = -legs.reduce((s, l) => s + l.amount, 0);
  const wallet = (await findWallet(tx, card.walletId))!;
  const now = ctx.now();
  if (!total) return null;
  const posted = await post(tx, {
    kind: 'refund',
    reference: newReference('CRF'),
    description,
    meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: 0, reason, issuer_operation: op.id },
    at: now,
    legs: [...legs, { accountId: wallet.id, amount: total }],
  });
  await tx
    .insert(cardTransactions)
    .values(
      cardMovement(
        card.id,
        'refund',
        toCard || total,
        'Returned to the master wallet: the card issuer failed',
        posted.transferId,
        now,
      ),
    );
  return posted.transferId;
}

async function setCompensation(tx: Tx, opId: string, transferId: string | null) {
  if (transferId)
    await tx.update(issuerOperations).set({ compensationTransferId: transferId }).where(eq(issuerOperations.id, opId));
}
