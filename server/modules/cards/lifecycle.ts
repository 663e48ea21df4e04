import { and, eq, inArray, sql } from 'drizzle-orm';
import { centsText } from '@shared/vocabulary';
import { formatMoney } from '@shared/money';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { cardTransactions } from '../../db/schema';
import type { MerchantMessage, StepOutcome } from '../../issuer/port';
import { IssuerError } from '../../issuer/port';
import { PLATFORM } from '../ledger/accounts';
import { post } from '../ledger/post';
import { cardHoldExpired, cardInDebt, cardRefundReceived } from '../notifications/events';
import { notify } from '../notifications/service';
import { cardAccounts } from './accounts';
import type { CardRow } from './presenters';
import {
  type CardTx,
  availableAfter,
  insertStep,
  lockAuthorization,
  lockCardById,
  lockCardByToken,
  recorded,
  replayStep,
  stepEvent,
  updateAuthorization,
} from './steps';

/**
 * The life of an authorisation after its approval, as Stripe Issuing models it: reversals (whole
 * or partial), clearings (captures) of any amount with or without closing the authorisation,
 * expiry of a hold never cleared, and the messages without an authorisation: refunds and
 * force-posts. Each step is one transaction: one posting, one row, the authorisation updated.
 */

const usd = (cents: number) => centsText(cents, 'USD');

/** One step on an authorisation: locked, a repeat answered, the card and its accounts at hand. */
function onAuthorization(
  ctx: AppContext,
  ref: string,
  stepId: string,
  work: (tx: Tx, auth: CardTx, card: CardRow, now: Date) => Promise<StepOutcome>,
) {
  return ctx.db.transaction(async (tx) => {
    const auth = await lockAuthorization(tx, ref);
    const again = await recorded(tx, stepId);
    if (again) return replayStep(tx, again);
    const card = await lockCardById(tx, auth.cardId);
    return work(tx, auth, card, ctx.now());
  });
}

async function toldInDebt(tx: Tx, card: CardRow, available: number, rowId: string, merchant: string, now: Date) {
  if (available < 0)
    await notify(tx, { owner: card.walletId }, cardInDebt(card, { id: rowId, debt: -available, merchant }), now);
}

/** Held money back to the card: all of it when `amount` is null; a partial reversal leaves the rest pending. */
export function reverse(ctx: AppContext, ref: string, stepId: string, amount: number | null) {
  return onAuthorization(ctx, ref, stepId, async (tx, auth, card, now) => {
    const held = auth.held ?? 0;
    if (auth.status !== 'approved' || held <= 0)
      throw new IssuerError(`Only a pending authorisation can be reversed; this one is ${auth.status}.`);
    const amt = amount ?? held;
    if (amt > held) throw new IssuerError(`Only ${usd(held)} is held; ${usd(amt)} cannot be reversed.`);
    const acc = await cardAccounts(tx, card.id);
    const rest = held - amt;
    const description = rest
      ? `${auth.merchant} released ${usd(amt)} of its hold; ${usd(rest)} still held`
      : `${auth.merchant} released its hold of ${usd(amt)}`;
    const posted = await post(tx, {
      kind: 'card_spend',
      reference: `REV-${stepId}`,
      description,
      meta: { card_id: card.id, card_number: card.maskedNumber, merchant: auth.merchant, stage: 'reversed' },
      at: now,
      legs: [
        { accountId: acc.hold.id, amount: -amt },
        { accountId: acc.card.id, amount: amt },
      ],
    });
    const id = await insertStep(tx, {
      card,
      auth,
      kind: 'reversal',
      amount: amt,
      description,
      issuerReference: stepId,
      ledgerTransferId: posted.transferId,
      released: amt,
      now,
    });
    // Stripe's `closed`: a payment that cleared in part and released the rest was paid, not reversed.
    const status = rest ? 'approved' : (await clearedAny(tx, auth.id)) ? 'settled' : 'reversed';
    await updateAuthorization(tx, auth, { status, held: rest }, now);
    await stepEvent(
      tx,
      card,
      rest ? 'card.authorization.partially_reversed' : 'card.authorization.reversed',
      { ...auth, id: auth.id, amount: amt },
      { step_id: id, held: formatMoney(rest) },
      now,
    );
    return {
      transactionId: id,
      availableDelta: amt,
      authStatus: status,
      authAmount: auth.amount,
      message: description,
    };
  });
}

/** Whether a clearing has taken part of this authorisation already. */
async function clearedAny(tx: Tx, authId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: cardTransactions.id })
    .from(cardTransactions)
    .where(and(eq(cardTransactions.authorizationId, authId), eq(cardTransactions.kind, 'clearing')))
    .limit(1);
  return !!row;
}

/**
 * The merchant takes its final amount (`amount` null: what is held). The hold it consumes is
 * released; more than the hold comes from the available balance (which may go negative: a debt);
 * closing gives the rest of the hold back and settles the authorisation. A clearing after the
 * authorisation expired or was reversed (a late clearing) is posted from the available balance.
 */
export function clear(ctx: AppContext, ref: string, stepId: string, amount: number | null, close: boolean) {
  return onAuthorization(ctx, ref, stepId, async (tx, auth, card, now) => {
    if (auth.status === 'declined') throw new IssuerError('A declined payment cannot be cleared.');
    if (auth.status === 'settled') throw new IssuerError('This payment has already been cleared and closed.');
    const pending = auth.status === 'approved';
    const held = pending ? (auth.held ?? 0) : 0;
    const amt = amount ?? held;
    if (amt <= 0) throw new IssuerError('Nothing is held to clear; give the amount to clear.');
    const consumed = Math.min(amt, held);
    const fromAvailable = amt - consumed;
    const released = pending && close ? held - consumed : 0;
    const rest = held - consumed - released;
    const acc = await cardAccounts(tx, card.id);
    const m = auth.merchant;
    const description = !pending
      ? `Late clearing from ${m}: ${usd(amt)} after the hold was ${auth.status}`
      : fromAvailable > 0
        ? `${m} cleared ${usd(amt)}, ${usd(fromAvailable)} more than the ${usd(held)} held`
        : released > 0
          ? `${m} cleared ${usd(amt)} of ${usd(held)} held; ${usd(released)} released`
          : rest > 0
            ? `${m} cleared ${usd(amt)} of ${usd(held)} held; ${usd(rest)} still held`
            : `${m} cleared ${usd(amt)}`;
    const posted = await post(tx, {
      kind: 'card_spend',
      reference: `CLR-${stepId}`,
      description,
      meta: { card_id: card.id, card_number: card.maskedNumber, merchant: m, stage: 'cleared' },
      at: now,
      legs: [
        { accountId: acc.hold.id, amount: -(consumed + released) },
        { accountId: acc.card.id, amount: released - fromAvailable },
        { accountId: PLATFORM.cardIssuer, amount: amt },
      ],
      mayGoNegative: [acc.card.id],
    });
    const id = await insertStep(tx, {
      card,
      auth,
      kind: 'clearing',
      amount: amt,
      description,
      issuerReference: stepId,
      ledgerTransferId: posted.transferId,
      released,
      fromAvailable,
      now,
    });
    const status = pending ? (close || rest === 0 ? 'settled' : 'approved') : auth.status;
    if (pending) await updateAuthorization(tx, auth, { status, held: rest }, now);
    const extra = { step_id: id, held: formatMoney(rest), released: formatMoney(released) };
    // One event a clearing: `settled` (its name before issue 32) when it closes the authorisation, else `cleared`.
    const type = pending && status === 'settled' ? 'card.authorization.settled' : 'card.authorization.cleared';
    await stepEvent(tx, card, type, { ...auth, id: auth.id, amount: amt }, extra, now);
    await toldInDebt(tx, card, availableAfter(posted, acc.card.id), id, m, now);
    return {
      transactionId: id,
      availableDelta: released - fromAvailable,
      authStatus: status,
      authAmount: auth.amount,
      message: description,
    };
  });
}

/** A hold pending longer than the expiry goes back to the card; the authorisation is expired. */
export function expire(ctx: AppContext, ref: string, stepId: string, days: number) {
  return onAuthorization(ctx, ref, stepId, async (tx, auth, card, now) => {
    if (auth.status !== 'approved')
      throw new IssuerError(`Only a pending authorisation can expire; this one is ${auth.status}.`);
    const held = auth.held ?? 0;
    const acc = await cardAccounts(tx, card.id);
    const description = `Hold at ${auth.merchant} expired after ${days} days; ${usd(held)} released`;
    const posted = held
      ? await post(tx, {
          kind: 'card_spend',
          reference: `EXP-${stepId}`,
          description,
          meta: { card_id: card.id, card_number: card.maskedNumber, merchant: auth.merchant, stage: 'expired' },
          at: now,
          legs: [
            { accountId: acc.hold.id, amount: -held },
            { accountId: acc.card.id, amount: held },
          ],
        })
      : null;
    const id = await insertStep(tx, {
      card,
      auth,
      kind: 'expiry',
      amount: held,
      description,
      issuerReference: stepId,
      ledgerTransferId: posted?.transferId ?? null,
      released: held,
      now,
    });
    await updateAuthorization(tx, auth, { status: 'expired', held: 0 }, now);
    await stepEvent(
      tx,
      card,
      'card.authorization.expired',
      { ...auth, id: auth.id, amount: held },
      { step_id: id },
      now,
    );
    if (held)
      await notify(
        tx,
        { owner: card.walletId },
        cardHoldExpired(card, { id, amount: held, merchant: auth.merchant, days }),
        now,
      );
    return {
      transactionId: id,
      availableDelta: held,
      authStatus: 'expired',
      authAmount: auth.amount,
      message: description,
    };
  });
}

/** What a payment cleared (an authorisation's clearings, or a force-post) and what was refunded of it. */
async function refundable(tx: Tx, original: CardTx) {
  const [r] = await tx
    .select({
      cleared: sql<string>`coalesce(sum(${cardTransactions.amount}) filter (where ${cardTransactions.kind} = 'clearing'), 0)`,
      refunded: sql<string>`coalesce(sum(${cardTransactions.amount}) filter (where ${cardTransactions.kind} = 'merchant_refund'), 0)`,
    })
    .from(cardTransactions)
    .where(
      and(
        eq(cardTransactions.authorizationId, original.id),
        inArray(cardTransactions.kind, ['clearing', 'merchant_refund']),
      ),
    );
  const cleared = original.kind === 'force_post' ? original.amount : Number(r?.cleared ?? 0);
  return cleared - Number(r?.refunded ?? 0);
}

/** One message without an authorisation (refund, force-post): the card locked, a repeat answered. */
function onCard(
  ctx: AppContext,
  token: string,
  stepId: string,
  work: (tx: Tx, card: CardRow, now: Date) => Promise<StepOutcome>,
) {
  return ctx.db.transaction(async (tx) => {
    const card = await lockCardByToken(tx, token);
    const again = await recorded(tx, stepId);
    if (again) return replayStep(tx, again);
    if (card.deletedAt) throw new IssuerError('The card has been deleted.');
    return work(tx, card, ctx.now());
  });
}

/** A merchant pays money back to the card: for an earlier payment (at most what it cleared less what was refunded) or not. */
export function refund(
  ctx: AppContext,
  token: string,
  stepId: string,
  msg: MerchantMessage,
  originalRef: string | null,
) {
  return onCard(ctx, token, stepId, async (tx, card, now) => {
    let original: CardTx | null = null;
    if (originalRef) {
      const [o] = await tx
        .select()
        .from(cardTransactions)
        .where(
          and(
            eq(cardTransactions.issuerReference, originalRef),
            eq(cardTransactions.cardId, card.id),
            inArray(cardTransactions.kind, ['authorization', 'force_post']),
          ),
        )
        .for('update');
      if (!o) throw new IssuerError('The platform does not know this payment on this card.');
      const left = await refundable(tx, o);
      if (msg.amount > left)
        throw new IssuerError(`At most ${usd(left)} of this payment can be refunded (what was cleared, less refunds).`);
      original = o;
    }
    const acc = await cardAccounts(tx, card.id);
    const description = `Refund from ${msg.merchant}`;
    const posted = await post(tx, {
      kind: 'card_spend',
      reference: `RFD-${stepId}`,
      description,
      meta: { card_id: card.id, card_number: card.maskedNumber, merchant: msg.merchant, stage: 'refunded' },
      at: now,
      legs: [
        { accountId: PLATFORM.cardIssuer, amount: -msg.amount },
        { accountId: acc.card.id, amount: msg.amount },
      ],
    });
    const id = await insertStep(tx, {
      card,
      auth: original,
      kind: 'merchant_refund',
      amount: msg.amount,
      description,
      issuerReference: stepId,
      ledgerTransferId: posted.transferId,
      merchant: msg.merchant,
      mcc: msg.mcc,
      country: msg.country,
      now,
    });
    await stepEvent(
      tx,
      card,
      'card.authorization.refunded',
      { id, ...msg },
      { original_transaction_id: original?.id ?? null },
      now,
    );
    const available = availableAfter(posted, acc.card.id);
    await notify(
      tx,
      { owner: card.walletId },
      cardRefundReceived(card, { id, amount: msg.amount, merchant: msg.merchant, available }),
      now,
    );
    return { transactionId: id, availableDelta: msg.amount, authStatus: null, authAmount: null, message: description };
  });
}

/** A clearing with no authorisation before it: taken from the available balance, which may go negative (a debt). */
export function forcePost(ctx: AppContext, token: string, stepId: string, msg: MerchantMessage) {
  return onCard(ctx, token, stepId, async (tx, card, now) => {
    const acc = await cardAccounts(tx, card.id);
    const description = `Charge from ${msg.merchant} without authorisation`;
    const posted = await post(tx, {
      kind: 'card_spend',
      reference: `FRC-${stepId}`,
      description,
      meta: { card_id: card.id, card_number: card.maskedNumber, merchant: msg.merchant, stage: 'force_posted' },
      at: now,
      legs: [
        { accountId: acc.card.id, amount: -msg.amount },
        { accountId: PLATFORM.cardIssuer, amount: msg.amount },
      ],
      mayGoNegative: [acc.card.id],
    });
    const id = await insertStep(tx, {
      card,
      auth: null,
      kind: 'force_post',
      amount: msg.amount,
      description,
      issuerReference: stepId,
      ledgerTransferId: posted.transferId,
      merchant: msg.merchant,
      mcc: msg.mcc,
      country: msg.country,
      fromAvailable: msg.amount,
      now,
    });
    await stepEvent(tx, card, 'card.authorization.force_posted', { id, ...msg }, {}, now);
    await toldInDebt(tx, card, availableAfter(posted, acc.card.id), id, msg.merchant, now);
    return { transactionId: id, availableDelta: -msg.amount, authStatus: null, authAmount: null, message: description };
  });
}
