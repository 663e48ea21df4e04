import { centsText } from '@shared/vocabulary';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { isStaff } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { cardTerminated, cardTerminatedKey } from '../notifications/events';
import { mailSoon, notify } from '../notifications/service';
import type { AppContext, AuthUser } from '../../context';
import type { Tx } from '../../db/client';
import { cardDisputes, cardTransactions, cards } from '../../db/schema';
import { AppError, HTTP, notFound, ok } from '../../lib/http';
import { moneyTransaction } from '../../db/money-transaction';
import { emitEvent } from '../integrations/webhooks';
import { PLATFORM, findWallet } from '../ledger/accounts';
import { InsufficientFunds, post } from '../ledger/post';
import { newReference } from '../ledger/refs';
import { cardForCaller } from './access';
import { cardAccounts } from './accounts';
import { cardEventData } from './events';
import { cardMovement } from './movements';
import { enqueue, pendingWithdrawals } from './operations';
import { performNow } from './outbox';

/**
 * Ends a card: premium balances go back to the wallet ('refund'), basic balances are forfeited
 * ('forfeit'), and the issuer is owed the card's termination, in one transaction (with the
 * request's Idempotency-Key when there is a request). Refused while payments are still held.
 * `answer` turns the result into the request's answer.
 */
export async function endCard<A = unknown>(
  ctx: AppContext,
  me: AuthUser | null,
  cardId: string,
  outcome: 'refund' | 'forfeit',
  reason: string,
  opts: { req?: FastifyRequest | null; answer?: (remaining: number) => A } = {},
) {
  const now = ctx.now();
  const result = await moneyTransaction(
    ctx,
    opts.req ?? null,
    async (tx) => {
      // NO KEY UPDATE: movements of this card being inserted elsewhere (a foreign key to it) need not wait
      const [card] = await tx.select().from(cards).where(eq(cards.id, cardId)).for('no key update');
      if (!card) throw notFound('The card');
      if (card.deletedAt) throw new AppError(HTTP.CONFLICT, 'This card has already been deleted.');
      const acc = await cardAccounts(tx, card.id);
      if (acc.hold.balance > 0)
        throw new AppError(
          HTTP.CONFLICT,
          'This card has payments waiting to settle. Try again once they have settled.',
        );
      if ((await pendingWithdrawals(tx, card.id)) > 0) {
        throw new AppError(
          HTTP.CONFLICT,
          'A withdrawal from this card is waiting for the card issuer. Try again once it has reached the master wallet.',
        );
      }
      // A dispute's credit or take-back posts to the card, so the card stays until the dispute is decided or withdrawn.
      const [disputed] = await tx
        .select({ id: cardDisputes.id })
        .from(cardDisputes)
        .where(and(eq(cardDisputes.cardId, card.id), inArray(cardDisputes.state, ['submitted', 'under_review'])))
        .limit(1);
      if (disputed)
        throw new AppError(
          HTTP.CONFLICT,
          'A payment of this card is disputed. Try again once the dispute is decided or withdrawn.',
        );
      if (acc.card.balance < 0) await repayDebtFromWallet(tx, card, acc.card.id, -acc.card.balance, me, now);
      const remaining = Math.max(0, acc.card.balance);
      if (remaining > 0) {
        const wallet = (await findWallet(tx, card.walletId))!;
        const posted = await post(tx, {
          kind: outcome === 'refund' ? 'refund' : 'forfeit',
          reference: newReference(outcome === 'refund' ? 'CRF' : 'CFF'),
          description:
            outcome === 'refund'
              ? `Card deleted: balance returned (${card.nickname})`
              : `Card ended: balance forfeited (${card.nickname})`,
          meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: 0, reason },
          createdBy: me?.id ?? null,
          at: now,
          legs: [
            { accountId: acc.card.id, amount: -remaining },
            { accountId: outcome === 'refund' ? wallet.id : PLATFORM.forfeited, amount: remaining },
          ],
        });
        await tx
          .insert(cardTransactions)
          .values(
            cardMovement(
              card.id,
              outcome,
              remaining,
              outcome === 'refund' ? 'Balance returned to the master wallet' : 'Balance forfeited',
              posted.transferId,
              now,
            ),
          );
      }
      const terminate = await enqueue(tx, {
        operation: 'terminate',
        cardId: card.id,
        cardToken: card.issuerToken,
        purpose: me ? 'card-deletion' : 'card-termination',
        at: now,
      });
      await tx.update(cards).set({ deletedAt: now, endReason: reason, updatedAt: now }).where(eq(cards.id, card.id));
      await emitEvent(
        tx,
        card.walletId,
        me ? 'card.deleted' : 'card.terminated',
        cardEventData(tx, card, { reason, remaining: formatMoney(remaining), outcome }),
        now,
      );
      // The owner is told when someone else ended the card (the scheduled job, or staff), not when they deleted it themselves.
      const notified = !me || isStaff(me.role);
      if (notified)
        await notify(tx, { owner: card.walletId }, cardTerminated(card, reason, { outcome, remaining }), now);
      return { card, remaining, terminate, notified };
    },
    (r) => (opts.answer ? opts.answer(r.remaining) : null),
    { status: HTTP.ACCEPTED },
  );
  if (result.notified) mailSoon(ctx, [cardTerminatedKey(result.card.id)]);
  await performNow(ctx, result.terminate);
  return result;
}

/**
 * A card in debt (a clearing or charge took more than it held) ends only once its owner's master
 * wallet has repaid the debt, in the same transaction; a wallet that holds less refuses the end.
 */
async function repayDebtFromWallet(
  tx: Tx,
  card: typeof cards.$inferSelect,
  cardAccountId: string,
  debt: number,
  me: AuthUser | null,
  now: Date,
) {
  const wallet = (await findWallet(tx, card.walletId))!;
  const posted = await post(tx, {
    kind: 'card_debt',
    reference: newReference('CDR'),
    description: `Card debt repaid before the card ended (${card.nickname})`,
    meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: 0 },
    createdBy: me?.id ?? null,
    at: now,
    legs: [
      { accountId: wallet.id, amount: -debt },
      { accountId: cardAccountId, amount: debt },
    ],
  }).catch((e) => {
    if (e instanceof InsufficientFunds)
      throw new AppError(
        HTTP.CONFLICT,
        `This card owes ${centsText(debt, 'USD')} and the master wallet holds less. Top up the wallet to repay the debt, then delete the card.`,
      );
    throw e;
  });
  await tx
    .insert(cardTransactions)
    .values(cardMovement(card.id, 'load', debt, 'Debt repaid from the master wallet', posted.transferId, now));
}

function deletion(outcome: 'refund' | 'forfeit', remaining: number) {
  return {
    message:
      outcome === 'refund'
        ? `Card deleted. ${centsText(remaining, 'USD')} was returned to the master wallet.`
        : `Card deleted. The remaining ${centsText(remaining, 'USD')} was forfeited.`,
    returned: outcome === 'refund' ? formatMoney(remaining) : '0.00',
    forfeited: outcome === 'forfeit' ? formatMoney(remaining) : '0.00',
  };
}

export async function deleteCard(ctx: AppContext, me: AuthUser, cardId: string, req: FastifyRequest | null = null) {
  const card = await cardForCaller(ctx, me, cardId);
  const outcome = card.type === 'premium' ? 'refund' : 'forfeit';
  const reason = isStaff(me.role) ? 'Deleted by staff' : 'Deleted by its owner';
  const { remaining } = await endCard(ctx, me, card.id, outcome, reason, {
    req,
    answer: (r) => ok(deletion(outcome, r)),
  });
  return deletion(outcome, remaining);
}
