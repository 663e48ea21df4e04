import { and, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type ApiCardDetail,
  MIN_CARD_LOAD_CENTS,
  UNVERIFIED_CARD_LIMIT,
  type cardAmountBody,
  type createCardBody,
} from '../../../shared/contract';
import { type CardPurpose, FEES_FOR, computeFees } from '../../../shared/fees';
import { formatMoney } from '../../../shared/money';
import type { AppContext, AuthUser } from '../../context';
import { cardTransactions, cards, ledgerAccounts } from '../../db/schema';
import { brandOfPurpose } from '../../issuer/port';
import { AppError, HTTP, invalidField, notFound } from '../../lib/http';
import { scheduleFor } from '../fees/service';
import { PLATFORM, findWallet } from '../ledger/accounts';
import { InsufficientFunds, post } from '../ledger/post';
import { newReference } from '../ledger/refs';
import { ownWalletId } from '../wallet/access';
import { cardForCaller, ownerProfile } from './access';
import { cardAccounts, createCardAccounts } from './accounts';
import { emitEvent } from '../integrations/webhooks';
import { cardEventData } from './events';
import { maskPan, toApiCard } from './presenters';

const feesMetaOf = (forWhat: string, fees: ReturnType<typeof computeFees>, amount: number) => ({
  for: forWhat,
  fees: Object.fromEntries(fees.lines.map((l) => [l.name, formatMoney(l.amount)])),
  'sub-total': formatMoney(amount),
  total: formatMoney(fees.total),
});

const ISSUER_FAILURE = 'The issuer could not load the card';

const issuerDown = () =>
  new AppError(HTTP.SERVICE_UNAVAILABLE, 'The card issuer did not complete the operation. Nothing was charged; please try again.');

/**
 * Creates a card: issued at the issuer, then in one transaction the card row, its ledger accounts
 * and the movement (wallet pays amount + fees, card receives the amount), then loaded at the issuer.
 */
export async function createCard(ctx: AppContext, me: AuthUser, body: z.output<typeof createCardBody>) {
  const walletId = ownWalletId(me);
  const wallet = await findWallet(ctx.db, walletId);
  if (!wallet) throw notFound('The wallet');
  if (body.card_amount < MIN_CARD_LOAD_CENTS) throw invalidField('card_amount', 'The minimum card load is 3.00 USD');
  const owner = await ownerProfile(ctx.db, walletId);
  const purpose = body.purpose as CardPurpose;
  const fees = computeFees(await scheduleFor(ctx.db, owner.companyId), FEES_FOR.cardCreation(purpose), body.card_amount);
  const needed = body.card_amount + fees.total;
  if (wallet.balance < needed) {
    throw invalidField('card_amount', `Insufficient balance in your master wallet: this card needs ${formatMoney(needed)} USD with fees.`);
  }
  const issued = await ctx.issuer.issue({ brand: brandOfPurpose(purpose), holder: `${body.first_name} ${body.last_name}` }).catch(() => {
    throw issuerDown();
  });
  const cardId = crypto.randomUUID();
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      // The wallet row lock serialises card creation per wallet: the lifetime limit holds under races.
      // Fee income is locked with it, in id order as every posting locks its accounts; locking the
      // wallet alone first would deadlock with a posting that holds fee income and waits for the wallet.
      await tx
        .select({ id: ledgerAccounts.id })
        .from(ledgerAccounts)
        .where(inArray(ledgerAccounts.id, [wallet.id, PLATFORM.feeIncome]))
        .orderBy(ledgerAccounts.id)
        .for('update');
      if (!owner.verified) {
        // Cards the issuer never loaded do not count against the lifetime limit.
        const [made] = await tx
          .select({ n: count() })
          .from(cards)
          .where(and(eq(cards.walletId, walletId), or(isNull(cards.endReason), ne(cards.endReason, ISSUER_FAILURE))));
        if ((made?.n ?? 0) >= UNVERIFIED_CARD_LIMIT) {
          throw invalidField('card_amount', 'Unverified accounts can create at most 5 cards. Complete your verification to create more.');
        }
      }
      const [same] = await tx
        .select({ id: cards.id })
        .from(cards)
        .where(and(eq(cards.walletId, walletId), eq(cards.nickname, body.nickname), isNull(cards.deletedAt)));
      if (same) throw invalidField('nickname', 'You already have a card with this nickname');
      const visa = purpose === 'media';
      await tx.insert(cards).values({
        id: cardId,
        walletId,
        createdBy: me.id,
        firstName: body.first_name,
        lastName: body.last_name,
        nickname: body.nickname,
        purpose,
        type: body.type,
        issuerToken: issued.token,
        last4: issued.last4,
        maskedNumber: maskPan(issued.last4),
        expMonth: issued.expMonth,
        expYear: issued.expYear,
        billing: { ...issued.billing },
        spendingLimit: visa ? (body.spending_limit ?? null) : null,
        spendingControl: visa ? (body.spending_control ?? 'lifetime') : null,
        createdAt: now,
        updatedAt: now,
      });
      const acc = await createCardAccounts(tx, cardId);
      const posted = await post(tx, {
        kind: 'issuance',
        reference: newReference('ISS'),
        description: `Card issuance: ${body.nickname}`,
        meta: { card_id: cardId, card_number: maskPan(issued.last4), fees_total: fees.total, fees_meta: feesMetaOf(`card-issuance-${purpose}`, fees, body.card_amount) },
        createdBy: me.id,
        at: now,
        legs: [
          { accountId: wallet.id, amount: -needed },
          { accountId: acc.card, amount: body.card_amount },
          ...(fees.total ? [{ accountId: PLATFORM.feeIncome, amount: fees.total }] : []),
        ],
      });
      await tx.insert(cardTransactions).values(cardMovement(cardId, 'load', body.card_amount, 'Initial card load', posted.transferId, now));
    });
  } catch (e) {
    await ctx.issuer.terminate(issued.token).catch(() => undefined);
    if (e instanceof InsufficientFunds) throw invalidField('card_amount', 'Insufficient balance in your master wallet');
    throw e;
  }
  await ctx.issuer.load(issued.token, body.card_amount).catch(async (err) => {
    ctx.log.error({ err, cardId }, 'issuer load failed after card creation; refunding');
    await endCard(ctx, me, cardId, 'refund', ISSUER_FAILURE);
    if (fees.total) {
      // Nothing was charged: the fees go back too.
      await ctx.db.transaction((tx) =>
        post(tx, {
          kind: 'refund',
          reference: newReference('CRF'),
          description: 'Card issuance failed: fees returned',
          meta: { card_id: cardId, fees_total: 0 },
          createdBy: me.id,
          at: ctx.now(),
          legs: [
            { accountId: PLATFORM.feeIncome, amount: -fees.total },
            { accountId: wallet.id, amount: fees.total },
          ],
        }),
      );
    }
    throw issuerDown();
  });
  return cardDetail(ctx, me, cardId);
}

export function cardMovement(cardId: string, kind: string, amount: number, description: string, transferId: string, at: Date) {
  return {
    id: crypto.randomUUID(),
    cardId,
    kind,
    status: 'completed',
    amount,
    currency: 'USD',
    merchant: 'Cardwallet',
    country: 'GH',
    description,
    ledgerTransferId: transferId,
    createdAt: at,
    updatedAt: at,
  };
}

function assertPremiumLive(card: typeof cards.$inferSelect, action: 'fund' | 'withdraw') {
  if (card.deletedAt) throw new AppError(HTTP.CONFLICT, 'This card has been deleted.');
  if (card.type !== 'premium') {
    throw invalidField('card', action === 'fund' ? 'Basic cards are loaded once, at creation.' : 'Basic cards cannot be withdrawn to the master wallet.');
  }
}

/** Premium only: the wallet pays amount + fees, the card receives the amount. */
export async function fundCard(ctx: AppContext, me: AuthUser, body: z.output<typeof cardAmountBody>) {
  const card = await cardForCaller(ctx, me, body.card);
  assertPremiumLive(card, 'fund');
  if (body.amount < MIN_CARD_LOAD_CENTS) throw invalidField('amount', 'The minimum card top-up is 3.00 USD');
  const wallet = (await findWallet(ctx.db, card.walletId))!;
  const owner = await ownerProfile(ctx.db, card.walletId);
  const fees = computeFees(await scheduleFor(ctx.db, owner.companyId), FEES_FOR.cardFunding(card.purpose as CardPurpose), body.amount);
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      const acc = await cardAccounts(tx, card.id);
      const posted = await post(tx, {
        kind: 'topup',
        reference: newReference('CTU'),
        description: `Card top-up: ${card.nickname}`,
        meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: fees.total, fees_meta: feesMetaOf(`card-load-${card.purpose}`, fees, body.amount) },
        createdBy: me.id,
        at: now,
        legs: [
          { accountId: wallet.id, amount: -(body.amount + fees.total) },
          { accountId: acc.card.id, amount: body.amount },
          ...(fees.total ? [{ accountId: PLATFORM.feeIncome, amount: fees.total }] : []),
        ],
      });
      await tx.insert(cardTransactions).values(cardMovement(card.id, 'load', body.amount, 'Card top-up', posted.transferId, now));
    });
  } catch (e) {
    if (e instanceof InsufficientFunds) throw invalidField('amount', `Insufficient balance in the master wallet: you need ${formatMoney(body.amount + fees.total)} USD with fees.`);
    throw e;
  }
  await ctx.issuer.load(card.issuerToken, body.amount).catch((err) => ctx.log.error({ err, cardId: card.id }, 'issuer load failed; reconcile'));
  return { message: 'Card funded.', amount: formatMoney(body.amount), fees: formatMoney(fees.total), total: formatMoney(body.amount + fees.total) };
}

/** Premium only: the card gives the amount, the wallet receives it less the fees. */
export async function withdrawFromCard(ctx: AppContext, me: AuthUser, body: z.output<typeof cardAmountBody>) {
  const card = await cardForCaller(ctx, me, body.card);
  assertPremiumLive(card, 'withdraw');
  const owner = await ownerProfile(ctx.db, card.walletId);
  const fees = computeFees(await scheduleFor(ctx.db, owner.companyId), FEES_FOR.cardWithdrawal(card.purpose as CardPurpose), body.amount);
  if (body.amount <= fees.total) throw invalidField('amount', `The amount must be more than the fees (${formatMoney(fees.total)} USD).`);
  const acc = await cardAccounts(ctx.db, card.id);
  if (acc.card.balance < body.amount) throw invalidField('amount', `The card holds only ${formatMoney(acc.card.balance)} USD.`);
  await ctx.issuer.unload(card.issuerToken, body.amount).catch(() => {
    throw invalidField('amount', 'The card issuer refused the withdrawal: the card does not hold this much.');
  });
  const wallet = (await findWallet(ctx.db, card.walletId))!;
  const now = ctx.now();
  try {
    await ctx.db.transaction(async (tx) => {
      const posted = await post(tx, {
        kind: 'withdraw',
        reference: newReference('CWD'),
        description: `Card withdrawal: ${card.nickname}`,
        meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: fees.total, fees_meta: feesMetaOf(`card-withdraw-${card.purpose}`, fees, body.amount) },
        createdBy: me.id,
        at: now,
        legs: [
          { accountId: acc.card.id, amount: -body.amount },
          { accountId: wallet.id, amount: body.amount - fees.total },
          ...(fees.total ? [{ accountId: PLATFORM.feeIncome, amount: fees.total }] : []),
        ],
      });
      await tx.insert(cardTransactions).values(cardMovement(card.id, 'withdrawal', body.amount, 'Withdrawal to master wallet', posted.transferId, now));
    });
  } catch (e) {
    await ctx.issuer.load(card.issuerToken, body.amount).catch(() => undefined);
    if (e instanceof InsufficientFunds) throw invalidField('amount', 'The card does not hold this much.');
    throw e;
  }
  return { message: 'Funds withdrawn to the master wallet.', amount: formatMoney(body.amount), fees: formatMoney(fees.total), credited: formatMoney(body.amount - fees.total) };
}

/**
 * Ends a card: premium balances go back to the wallet ('refund'), basic balances are forfeited
 * ('forfeit'). Refused while payments are still held.
 */
export async function endCard(ctx: AppContext, me: AuthUser | null, cardId: string, outcome: 'refund' | 'forfeit', reason: string) {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    // NO KEY UPDATE: movements of this card being inserted elsewhere (a foreign key to it) need not wait
    const [card] = await tx.select().from(cards).where(eq(cards.id, cardId)).for('no key update');
    if (!card) throw notFound('The card');
    if (card.deletedAt) throw new AppError(HTTP.CONFLICT, 'This card has already been deleted.');
    const acc = await cardAccounts(tx, card.id);
    if (acc.hold.balance > 0) throw new AppError(HTTP.CONFLICT, 'This card has payments waiting to settle. Try again once they have settled.');
    const remaining = acc.card.balance;
    if (remaining > 0) {
      const wallet = (await findWallet(tx, card.walletId))!;
      const posted = await post(tx, {
        kind: outcome === 'refund' ? 'refund' : 'forfeit',
        reference: newReference(outcome === 'refund' ? 'CRF' : 'CFF'),
        description: outcome === 'refund' ? `Card deleted: balance returned (${card.nickname})` : `Card ended: balance forfeited (${card.nickname})`,
        meta: { card_id: card.id, card_number: card.maskedNumber, fees_total: 0, reason },
        createdBy: me?.id ?? null,
        at: now,
        legs: [
          { accountId: acc.card.id, amount: -remaining },
          { accountId: outcome === 'refund' ? wallet.id : PLATFORM.forfeited, amount: remaining },
        ],
      });
      await tx.insert(cardTransactions).values(
        cardMovement(card.id, outcome, remaining, outcome === 'refund' ? 'Balance returned to the master wallet' : 'Balance forfeited', posted.transferId, now),
      );
    }
    await tx.update(cards).set({ deletedAt: now, endReason: reason, updatedAt: now }).where(eq(cards.id, card.id));
    await emitEvent(tx, card.walletId, me ? 'card.deleted' : 'card.terminated', cardEventData(card, { reason, remaining: formatMoney(remaining), outcome }), now);
    return { card, remaining };
  });
  await ctx.issuer.terminate(result.card.issuerToken).catch((err) => ctx.log.error({ err, cardId }, 'issuer terminate failed; reconcile'));
  return result;
}

export async function deleteCard(ctx: AppContext, me: AuthUser, cardId: string) {
  const card = await cardForCaller(ctx, me, cardId);
  const outcome = card.type === 'premium' ? 'refund' : 'forfeit';
  const { remaining } = await endCard(ctx, me, card.id, outcome, me.role === 'Admin' || me.role === 'Super-Admin' ? 'Deleted by staff' : 'Deleted by its owner');
  return {
    message:
      outcome === 'refund'
        ? `Card deleted. ${formatMoney(remaining)} USD was returned to the master wallet.`
        : `Card deleted. The remaining ${formatMoney(remaining)} USD was forfeited.`,
    returned: outcome === 'refund' ? formatMoney(remaining) : '0.00',
    forfeited: outcome === 'forfeit' ? formatMoney(remaining) : '0.00',
  };
}

/** A card with its details; the full number and CVC only for its owner. */
export async function cardDetail(ctx: AppContext, me: AuthUser, cardId: string): Promise<ApiCardDetail> {
  const card = await cardForCaller(ctx, me, cardId);
  const acc = await cardAccounts(ctx.db, card.id);
  const staff = me.role === 'Admin' || me.role === 'Super-Admin';
  const api = toApiCard(card, { available: acc.card.balance, held: acc.hold.balance }, { staff });
  const detail: ApiCardDetail = {
    card: api,
    details: { card_exp_month: card.expMonth, card_exp_year: card.expYear },
    billing: card.billing as ApiCardDetail['billing'],
  };
  if (!staff && !card.deletedAt) {
    const secret = await ctx.issuer.reveal(card.issuerToken);
    detail.card.card_number = secret.pan;
    detail.details.card_cvv = secret.cvc;
  }
  return detail;
}
