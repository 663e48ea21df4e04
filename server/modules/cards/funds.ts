import { centsText } from '@shared/vocabulary';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { MIN_CARD_LOAD_CENTS, type cardAmountBody } from '@shared/contract';
import { type CardPurpose, FEES_FOR, computeFees } from '@shared/fees';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import { cardTransactions, type cards } from '../../db/schema';
import { AppError, HTTP, invalidField, ok } from '../../lib/http';
import { moneyTransaction } from '../../db/money-transaction';
import { scheduleFor } from '../fees/service';
import { PLATFORM, findWallet } from '../ledger/accounts';
import { InsufficientFunds, post } from '../ledger/post';
import { newReference } from '../ledger/refs';
import { cardForCaller, ownerProfile } from './access';
import { cardAccounts } from './accounts';
import { cardMovement, feesMetaOf } from './movements';
import { enqueue, pendingWithdrawals } from './operations';
import { performNow } from './outbox';
import type { WithdrawalPlan } from './outbox-effects';

const fundedMessage = (repaid: number) => `Card funded. ${centsText(repaid, 'USD')} of it repaid the card's debt.`;

function assertPremiumLive(card: typeof cards.$inferSelect, action: 'fund' | 'withdraw') {
  if (card.deletedAt) throw new AppError(HTTP.CONFLICT, 'This card has been deleted.');
  if (card.type !== 'premium') {
    throw invalidField(
      'card',
      action === 'fund'
        ? 'Basic cards are loaded once, at creation.'
        : 'Basic cards cannot be withdrawn to the master wallet.',
    );
  }
}

/**
 * Premium only: the wallet pays amount + fees and the card receives the amount, with the load the
 * issuer is owed, in one transaction; the load is tried at once and retried by the outbox worker,
 * and if it finally fails the wallet gets the amount and the fees back.
 */
export async function fundCard(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof cardAmountBody>,
  req: FastifyRequest | null = null,
) {
  const card = await cardForCaller(ctx, me, body.card);
  assertPremiumLive(card, 'fund');
  if (body.amount < MIN_CARD_LOAD_CENTS) throw invalidField('amount', 'The minimum card top-up is USD 3.00');
  const wallet = (await findWallet(ctx.db, card.walletId))!;
  const owner = await ownerProfile(ctx.db, card.walletId);
  const fees = computeFees(
    await scheduleFor(ctx.db, owner.companyId),
    FEES_FOR.cardFunding(card.purpose as CardPurpose),
    body.amount,
  );
  const now = ctx.now();
  const answer = {
    message: 'Card funded.',
    amount: formatMoney(body.amount),
    fees: formatMoney(fees.total),
    total: formatMoney(body.amount + fees.total),
  };
  let load: string;
  try {
    load = await moneyTransaction(
      ctx,
      req,
      async (tx) => {
        const acc = await cardAccounts(tx, card.id);
        // A card in debt (a clearing or charge took more than it held) repays it first, from this funding.
        const repaid = Math.min(body.amount, Math.max(0, -acc.card.balance));
        if (repaid) answer.message = fundedMessage(repaid);
        const posted = await post(tx, {
          kind: 'topup',
          reference: newReference('CTU'),
          description: repaid
            ? `Card top-up: ${card.nickname} (${centsText(repaid, 'USD')} repaid the card's debt)`
            : `Card top-up: ${card.nickname}`,
          meta: {
            card_id: card.id,
            card_number: card.maskedNumber,
            fees_total: fees.total,
            fees_meta: feesMetaOf(`card-load-${card.purpose}`, fees, body.amount),
          },
          createdBy: me.id,
          at: now,
          legs: [
            { accountId: wallet.id, amount: -(body.amount + fees.total) },
            { accountId: acc.card.id, amount: body.amount },
            ...(fees.total ? [{ accountId: PLATFORM.feeIncome, amount: fees.total }] : []),
          ],
        });
        await tx
          .insert(cardTransactions)
          .values(
            cardMovement(
              card.id,
              'load',
              body.amount,
              repaid ? `Card top-up: ${centsText(repaid, 'USD')} of it repaid the card's debt` : 'Card top-up',
              posted.transferId,
              now,
            ),
          );
        return enqueue(tx, {
          operation: 'load',
          cardId: card.id,
          cardToken: card.issuerToken,
          amount: body.amount,
          purpose: 'card-funding',
          plan: { fees: fees.total },
          at: now,
        });
      },
      () => ok(answer),
    );
  } catch (e) {
    if (e instanceof InsufficientFunds)
      throw invalidField(
        'amount',
        `Insufficient balance in the master wallet: you need ${centsText(body.amount + fees.total, 'USD')} with fees.`,
      );
    throw e;
  }
  await performNow(ctx, load);
  return answer;
}

const NOT_YET =
  'The card issuer has not confirmed the withdrawal yet. The amount reaches your master wallet as soon as it does.';

/**
 * Premium only: the card gives the amount, the wallet receives it less the fees. The issuer goes
 * first (money leaves the card there before the ledger credits the wallet): the unload is owed in
 * one transaction with the request's Idempotency-Key, tried at once, and its success posts the
 * withdrawal and stores the request's answer in one more (outbox-effects.ts). If the issuer does
 * not answer in time the request answers 202 and the worker finishes it; a retry with the same key
 * gets a 409 until then, and the final answer after.
 */
export async function withdrawFromCard(
  ctx: AppContext,
  me: AuthUser,
  body: z.output<typeof cardAmountBody>,
  req: FastifyRequest | null = null,
) {
  const card = await cardForCaller(ctx, me, body.card);
  assertPremiumLive(card, 'withdraw');
  const owner = await ownerProfile(ctx.db, card.walletId);
  const fees = computeFees(
    await scheduleFor(ctx.db, owner.companyId),
    FEES_FOR.cardWithdrawal(card.purpose as CardPurpose),
    body.amount,
  );
  if (body.amount <= fees.total)
    throw invalidField('amount', `The amount must be more than the fees (${centsText(fees.total, 'USD')}).`);
  const done = {
    message: 'Funds withdrawn to the master wallet.',
    amount: formatMoney(body.amount),
    fees: formatMoney(fees.total),
    credited: formatMoney(body.amount - fees.total),
  };
  const refused = 'The card issuer refused the withdrawal: the card does not hold this much.';
  const answers: WithdrawalPlan['answers'] = {
    done: { status: HTTP.OK, body: JSON.stringify(ok(done)) },
    failed: { status: HTTP.UNPROCESSABLE, body: JSON.stringify({ message: refused, error: { amount: [refused] } }) },
  };
  const idem = req?.idempotency;
  const unload = await moneyTransaction(
    ctx,
    req,
    async (tx) => {
      const acc = await cardAccounts(tx, card.id, { lock: true });
      // Withdrawals the issuer has not settled yet are still on the card in the ledger.
      const free = acc.card.balance - (await pendingWithdrawals(tx, card.id));
      if (free < body.amount)
        throw invalidField('amount', `The card holds only ${centsText(Math.max(free, 0), 'USD')}.`);
      const plan: WithdrawalPlan = {
        fees: fees.total,
        createdBy: me.id,
        key: idem ? { principal: idem.principal, key: idem.key } : null,
        answers,
      };
      return enqueue(tx, {
        operation: 'unload',
        cardId: card.id,
        cardToken: card.issuerToken,
        amount: body.amount,
        purpose: 'card-withdrawal',
        plan: { ...plan, feesMeta: feesMetaOf(`card-withdraw-${card.purpose}`, fees, body.amount) },
        at: ctx.now(),
      });
    },
    () => null,
    { answerLater: true },
  );
  const outcome = await performNow(ctx, unload);
  if (outcome === 'done') return { status: HTTP.OK, data: done };
  if (outcome === 'failed') throw invalidField('amount', refused);
  return {
    status: HTTP.ACCEPTED,
    data: { message: NOT_YET, amount: done.amount, fees: done.fees, credited: done.credited },
  };
}
