import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { cardTransactions, cards } from '../../db/schema';
import type { AuthorizationHandler, AuthorizationRequest } from '../../issuer/port';
import { IssuerError } from '../../issuer/port';
import { PLATFORM } from '../ledger/accounts';
import { post } from '../ledger/post';
import { cardAccounts } from './accounts';
import { emitEvent } from '../integrations/webhooks';
import { formatMoney } from '@shared/money';
import { cardEventData } from './events';
import { limitDecline, prohibitedMerchant } from './spending';
import { cardDeclineKey, cardPaymentDeclined } from '../notifications/events';
import { mailSoon, notify } from '../notifications/service';

const INSUFFICIENT = 'Insufficient funds on the card.';

const payment = (req: AuthorizationRequest) => ({
  amount: formatMoney(req.amount),
  currency: req.currency,
  merchant: req.merchant,
  country: req.country,
});

/**
 * Serialises the decisions on one card. NO KEY UPDATE, not UPDATE: a funding, withdrawal or
 * maintenance fee inserting the card's movement (a foreign key to this row) after locking the
 * card's ledger account must not wait for this lock, or the two deadlock.
 */
async function lockCardByToken(tx: Tx, token: string) {
  const [card] = await tx.select().from(cards).where(eq(cards.issuerToken, token)).for('no key update');
  if (!card) throw new IssuerError('The platform does not know this card.');
  return card;
}

async function recordDecline(
  ctx: AppContext,
  tx: Tx,
  card: typeof cards.$inferSelect,
  req: AuthorizationRequest,
  reason: string,
  ref: string,
) {
  const cardId = card.id;
  const id = crypto.randomUUID();
  const now = ctx.now();
  await tx.insert(cardTransactions).values({
    id,
    cardId,
    kind: 'authorization',
    status: 'declined',
    amount: req.amount,
    currency: req.currency,
    merchant: req.merchant,
    country: req.country,
    description: `Payment at ${req.merchant} declined`,
    declineReason: reason,
    issuerReference: ref,
    createdAt: now,
    updatedAt: now,
  });
  // Consecutive declines for insufficient balance end basic cards (scheduled job).
  await tx
    .update(cards)
    .set({ insufficientStreak: reason === INSUFFICIENT ? sql`${cards.insufficientStreak} + 1` : 0, updatedAt: now })
    .where(eq(cards.id, cardId));
  await emitEvent(
    tx,
    card.walletId,
    'card.authorization.declined',
    cardEventData(tx, card, { transaction_id: id, decline_reason: reason, ...payment(req) }),
    now,
  );
  // Keyed by the issuer's reference: an authorisation the issuer sends again notifies once.
  await notify(
    tx,
    { owner: card.walletId },
    cardPaymentDeclined(card, { key: ref, amount: req.amount, merchant: req.merchant, reason }),
    now,
  );
  return id;
}

/**
 * The platform decides every authorisation the issuer brings: the card's own rules (deleted,
 * suspended, flagged, frozen, prohibited merchants, spending limit) and its ledger balance. An
 * approval holds the amount (card → card_hold) until the payment settles or is reversed.
 */
export function authorizationHandler(ctx: AppContext): AuthorizationHandler {
  return {
    async authorize(token, req, ref) {
      let declined = false;
      const answer = await ctx.db.transaction(async (tx) => {
        const card = await lockCardByToken(tx, token);
        const now = ctx.now();
        // the balance the decision rests on cannot change before the hold is posted
        const acc = await cardAccounts(tx, card.id, { lock: true });
        const reason =
          (card.deletedAt && 'The card has been deleted.') ||
          (card.suspended && 'The card is suspended. Please contact support.') ||
          (card.flagged && 'The card is flagged for review. Please contact support.') ||
          (card.state !== 'Active' && 'The card is frozen. Unfreeze it to pay with it.') ||
          prohibitedMerchant(req.merchant) ||
          (await limitDecline(tx, card, req.amount, now)) ||
          (acc.card.balance < req.amount ? INSUFFICIENT : null);
        if (reason) {
          const transactionId = await recordDecline(ctx, tx, card, req, reason, ref);
          declined = true;
          return { approved: false, declineReason: reason, transactionId };
        }
        const posted = await post(tx, {
          kind: 'card_spend',
          reference: `AUTH-${ref}`,
          description: `Payment at ${req.merchant}`,
          meta: { card_id: card.id, card_number: card.maskedNumber, merchant: req.merchant, stage: 'authorized' },
          at: now,
          legs: [
            { accountId: acc.card.id, amount: -req.amount },
            { accountId: acc.hold.id, amount: req.amount },
          ],
        });
        const transactionId = crypto.randomUUID();
        await tx.insert(cardTransactions).values({
          id: transactionId,
          cardId: card.id,
          kind: 'authorization',
          status: 'approved',
          amount: req.amount,
          currency: req.currency,
          merchant: req.merchant,
          country: req.country,
          description: `Payment at ${req.merchant}`,
          issuerReference: ref,
          ledgerTransferId: posted.transferId,
          createdAt: now,
          updatedAt: now,
        });
        await tx.update(cards).set({ insufficientStreak: 0, updatedAt: now }).where(eq(cards.id, card.id));
        await emitEvent(
          tx,
          card.walletId,
          'card.authorization.approved',
          cardEventData(tx, card, { transaction_id: transactionId, ...payment(req) }),
          now,
        );
        return { approved: true, declineReason: null, transactionId };
      });
      if (declined) mailSoon(ctx, [cardDeclineKey(ref)]);
      return answer;
    },

    async declinedByIssuer(token, req, reason, ref) {
      const answer = await ctx.db.transaction(async (tx) => {
        const card = await lockCardByToken(tx, token);
        return {
          approved: false,
          declineReason: reason,
          transactionId: await recordDecline(ctx, tx, card, req, reason, ref),
        };
      });
      mailSoon(ctx, [cardDeclineKey(ref)]);
      return answer;
    },

    reversed: (ref) => release(ctx, ref, 'reversed'),
    settled: (ref) => release(ctx, ref, 'settled'),
  };
}

/** A held amount goes back to the card (reversal) or out to the issuer (settlement). */
async function release(ctx: AppContext, ref: string, outcome: 'reversed' | 'settled') {
  await ctx.db.transaction(async (tx) => {
    const [auth] = await tx
      .select()
      .from(cardTransactions)
      .where(and(eq(cardTransactions.issuerReference, ref), eq(cardTransactions.kind, 'authorization')))
      .for('update');
    if (auth?.status !== 'approved') throw new IssuerError('This authorisation is not waiting to settle.');
    const acc = await cardAccounts(tx, auth.cardId);
    const [card] = await tx.select().from(cards).where(eq(cards.id, auth.cardId));
    const now = ctx.now();
    await post(tx, {
      kind: 'card_spend',
      reference: `${outcome === 'reversed' ? 'REV' : 'SET'}-${ref}`,
      description: `${outcome === 'reversed' ? 'Reversal of' : 'Settlement of'} payment at ${auth.merchant}`,
      meta: { card_id: auth.cardId, card_number: card?.maskedNumber, merchant: auth.merchant, stage: outcome },
      at: now,
      legs: [
        { accountId: acc.hold.id, amount: -auth.amount },
        { accountId: outcome === 'reversed' ? acc.card.id : PLATFORM.cardIssuer, amount: auth.amount },
      ],
    });
    await tx.update(cardTransactions).set({ status: outcome, updatedAt: now }).where(eq(cardTransactions.id, auth.id));
    if (card) {
      await emitEvent(
        tx,
        card.walletId,
        `card.authorization.${outcome}`,
        cardEventData(tx, card, {
          transaction_id: auth.id,
          amount: formatMoney(auth.amount),
          currency: auth.currency,
          merchant: auth.merchant,
          country: auth.country,
        }),
        now,
      );
    }
  });
}
