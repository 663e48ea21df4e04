import { centsText } from '@shared/vocabulary';
import type { DecidedBy, DeclineCode } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/client';
import { cardTransactions } from '../../db/schema';
import type { AuthorizationDecision, AuthorizationRequest, CompanyAnswer } from '../../issuer/port';
import { IssuerError, approvedDecision } from '../../issuer/port';
import { post } from '../ledger/post';
import { emitEvent } from '../integrations/webhooks';
import { cardDeclineKey, cardPaymentDeclined } from '../notifications/events';
import { mailSoon, notify } from '../notifications/service';
import { type CardAccounts, cardAccounts } from './accounts';
import { type CompanyDecision, askCompany, decisionEndpointOf } from './company-decision';
import { type ControlledPayment, type Decline, cardControlDecline, programDecline } from './controls/decline';
import { cardEventData } from './events';
import type { CardRow } from './presenters';
import { limitDecline, prohibitedMerchant } from './spending';
import {
  insertStep,
  lockAuthorization,
  lockCardById,
  lockCardByToken,
  recorded,
  replayDecision,
  setStreak,
  stepEvent,
  updateAuthorization,
} from './steps';

const INSUFFICIENT = 'Insufficient funds on the card.';

const controlled = (req: AuthorizationRequest, amount = req.amount): ControlledPayment => ({
  amount,
  currency: req.currency,
  merchant: req.merchant,
  mcc: req.mcc,
  country: req.country,
});

/** The card's own state (check 3): deleted, suspended, flagged or frozen cards take no payment. */
function stateDecline(card: CardRow): Decline | null {
  const reason =
    (card.deletedAt && 'The card has been deleted.') ||
    (card.suspended && 'The card is suspended. Please contact support.') ||
    (card.flagged && 'The card is flagged for review. Please contact support.') ||
    (card.state !== 'Active' && 'The card is frozen. Unfreeze it to pay with it.') ||
    null;
  return reason ? { code: 'card_inactive', reason } : null;
}

/**
 * Checks 3 to 7 in order (the program's controls, check 2, come first when `program`): the card's
 * state, the prohibited merchants, the card's controls, the spending limit, the balance. Answers
 * the first decline, or the amount to approve (less than asked when the merchant allows a partial
 * approval and the card holds less).
 */
async function platformChecks(
  tx: Tx,
  card: CardRow,
  p: ControlledPayment,
  available: number,
  now: Date,
  opts: { program: boolean; partialAllowed: boolean },
): Promise<{ decline: Decline } | { amount: number }> {
  const prohibited = prohibitedMerchant(p.merchant);
  const decline =
    (opts.program && (await programDecline(tx, p))) ||
    stateDecline(card) ||
    (prohibited ? { code: 'program_blocked' as const, reason: prohibited } : null) ||
    (await cardControlDecline(tx, card, p, now));
  if (decline) return { decline };
  const limit = await limitDecline(tx, card, p.amount, now);
  if (limit) return { decline: { code: 'spending_limit_exceeded', reason: limit } };
  if (available >= p.amount) return { amount: p.amount };
  if (opts.partialAllowed && available > 0) return { amount: available };
  return { decline: { code: 'insufficient_funds', reason: INSUFFICIENT } };
}

interface Decided {
  decidedBy: DecidedBy;
  ms: number;
}

async function recordDecline(
  ctx: AppContext,
  tx: Tx,
  card: CardRow,
  req: AuthorizationRequest,
  d: Decline,
  ref: string,
  id: string,
  by: Decided,
): Promise<AuthorizationDecision> {
  const now = ctx.now();
  await tx.insert(cardTransactions).values({
    id,
    cardId: card.id,
    kind: 'authorization',
    status: 'declined',
    amount: req.amount,
    currency: req.currency,
    merchant: req.merchant,
    country: req.country,
    mcc: req.mcc,
    description: `Payment at ${req.merchant} declined`,
    declineReason: d.reason,
    declineCode: d.code,
    decidedBy: by.decidedBy,
    decisionMs: by.ms,
    held: 0,
    issuerReference: ref,
    createdAt: now,
    updatedAt: now,
  });
  // Consecutive declines for insufficient balance end basic cards (scheduled job).
  await setStreak(tx, card.id, d.code === 'insufficient_funds', now);
  await emitEvent(
    tx,
    card.walletId,
    'card.authorization.declined',
    cardEventData(tx, card, {
      transaction_id: id,
      decline_reason: d.reason,
      decline_code: d.code,
      amount: formatMoney(req.amount),
      currency: req.currency,
      merchant: req.merchant,
      country: req.country,
      mcc: req.mcc,
    }),
    now,
  );
  // Keyed by the issuer's reference: an authorisation the issuer sends again notifies once.
  await notify(
    tx,
    { owner: card.walletId },
    cardPaymentDeclined(card, { key: ref, amount: req.amount, merchant: req.merchant, reason: d.reason }),
    now,
  );
  return {
    approved: false,
    approvedAmount: 0,
    declineCode: d.code,
    declineReason: d.reason,
    transactionId: id,
    availableDelta: 0,
    authStatus: 'declined',
    authAmount: req.amount,
  };
}

/** Holds the approved amount (card → card_hold) and records the authorisation. */
async function approve(
  ctx: AppContext,
  tx: Tx,
  card: CardRow,
  acc: CardAccounts,
  req: AuthorizationRequest,
  amount: number,
  ref: string,
  id: string,
  by: Decided,
): Promise<AuthorizationDecision> {
  const now = ctx.now();
  const partial = amount < req.amount;
  const posted = await post(tx, {
    kind: 'card_spend',
    reference: `AUTH-${ref}`,
    description: `Payment at ${req.merchant}`,
    meta: { card_id: card.id, card_number: card.maskedNumber, merchant: req.merchant, stage: 'authorized' },
    at: now,
    legs: [
      { accountId: acc.card.id, amount: -amount },
      { accountId: acc.hold.id, amount },
    ],
  });
  await tx.insert(cardTransactions).values({
    id,
    cardId: card.id,
    kind: 'authorization',
    status: 'approved',
    amount,
    held: amount,
    currency: req.currency,
    merchant: req.merchant,
    country: req.country,
    mcc: req.mcc,
    description: partial
      ? `Payment at ${req.merchant}: ${centsText(amount, 'USD')} of ${centsText(req.amount, 'USD')} approved`
      : `Payment at ${req.merchant}`,
    decidedBy: by.decidedBy,
    decisionMs: by.ms,
    issuerReference: ref,
    ledgerTransferId: posted.transferId,
    createdAt: now,
    updatedAt: now,
  });
  await setStreak(tx, card.id, false, now);
  await stepEvent(
    tx,
    card,
    'card.authorization.approved',
    { id, amount, merchant: req.merchant, country: req.country, mcc: req.mcc, currency: req.currency },
    { requested_amount: formatMoney(req.amount) },
    now,
  );
  return approvedDecision(id, amount);
}

const elapsed = (since: number) => Math.round(performance.now() - since);

/**
 * The platform decides an authorisation the issuer brings. Without a company decision endpoint
 * this is one transaction (the hot path). With one, the platform's checks decide first (declines
 * recorded there), the company is asked outside any transaction (no lock held while it thinks),
 * and a second transaction checks the card again and holds what the company approved.
 */
export async function authorize(
  ctx: AppContext,
  token: string,
  req: AuthorizationRequest,
  ref: string,
  asked: CompanyAnswer | null = null,
) {
  const started = performance.now();
  const id = asked?.transactionId ?? crypto.randomUUID();
  let declined = false;
  // The company was asked already (fast-authorize.ts): its answer is taken where the second transaction takes it.
  if (asked)
    return afterCompany(ctx, token, req, ref, {
      id,
      amount: asked.requested,
      company: asked,
      started,
      before: asked.ms,
    });
  const first = await ctx.db.transaction(async (tx) => {
    const card = await lockCardByToken(tx, token);
    const again = await recorded(tx, ref);
    if (again) return { done: await replayDecision(tx, again) };
    // the balance the decision rests on cannot change before the hold is posted
    const acc = await cardAccounts(tx, card.id, { lock: true });
    const now = ctx.now();
    const checked = await platformChecks(tx, card, controlled(req), acc.card.balance, now, {
      program: true,
      partialAllowed: !!req.partialAllowed,
    });
    if ('decline' in checked) {
      declined = true;
      const by = { decidedBy: 'platform' as const, ms: elapsed(started) };
      return { done: await recordDecline(ctx, tx, card, req, checked.decline, ref, id, by) };
    }
    const endpoint = await decisionEndpointOf(tx, card);
    if (!endpoint) {
      const by = { decidedBy: 'platform' as const, ms: elapsed(started) };
      return { done: await approve(ctx, tx, card, acc, req, checked.amount, ref, id, by) };
    }
    return { ask: { endpoint, card, amount: checked.amount } };
  });
  if (first.done) {
    if (declined) mailSoon(ctx, [cardDeclineKey(ref)]);
    return first.done;
  }
  const { endpoint, card, amount } = first.ask;
  const company = await askCompany(ctx, endpoint, card, controlled(req, amount), id);
  return afterCompany(ctx, token, req, ref, { id, amount, company, started });
}

/** The company has answered: the card checked again (its own checks, 3 to 7) and what it approved held, or declined. */
async function afterCompany(
  ctx: AppContext,
  token: string,
  req: AuthorizationRequest,
  ref: string,
  a: {
    id: string;
    /** what the platform's checks approved when the company was asked */
    amount: number;
    company: Pick<CompanyDecision, 'decidedBy' | 'approved' | 'amount'>;
    started: number;
    /** how long the decision had taken before `started` */
    before?: number;
  },
) {
  const { id, amount, company, started } = a;
  let declined = false;
  const answer = await ctx.db.transaction(async (tx) => {
    const card = await lockCardByToken(tx, token);
    const again = await recorded(tx, ref);
    if (again) return replayDecision(tx, again);
    const acc = await cardAccounts(tx, card.id, { lock: true });
    const by = { decidedBy: company.decidedBy, ms: elapsed(started) + (a.before ?? 0) };
    if (!company.approved) {
      declined = true;
      const d: Decline = {
        code: 'declined_by_company',
        reason:
          company.decidedBy === 'stand_in'
            ? 'The card’s company did not answer in time; its rule declines the payment.'
            : 'The card’s company declined the payment.',
      };
      return recordDecline(ctx, tx, card, req, d, ref, id, by);
    }
    const approvedAmount = Math.min(amount, company.amount && company.amount > 0 ? company.amount : amount);
    // The card may have changed while the company thought: its own checks again (3 to 7).
    const checked = await platformChecks(tx, card, controlled(req, approvedAmount), acc.card.balance, ctx.now(), {
      program: false,
      partialAllowed: !!req.partialAllowed,
    });
    if ('decline' in checked) {
      declined = true;
      return recordDecline(ctx, tx, card, req, checked.decline, ref, id, by);
    }
    return approve(ctx, tx, card, acc, req, checked.amount, ref, id, by);
  });
  if (declined) mailSoon(ctx, [cardDeclineKey(ref)]);
  return answer;
}

/** The issuer declined on its side (terminated, frozen or expired at the issuer): recorded, code card_inactive. */
export async function declinedByIssuer(
  ctx: AppContext,
  token: string,
  req: AuthorizationRequest,
  reason: string,
  ref: string,
) {
  const answer = await ctx.db.transaction(async (tx) => {
    const card = await lockCardByToken(tx, token);
    const again = await recorded(tx, ref);
    if (again) return replayDecision(tx, again);
    const d = { code: 'card_inactive' as DeclineCode, reason };
    return recordDecline(ctx, tx, card, req, d, ref, crypto.randomUUID(), { decidedBy: 'platform', ms: 0 });
  });
  mailSoon(ctx, [cardDeclineKey(ref)]);
  return answer;
}

/**
 * The merchant adds to its hold (a hotel, a car rental). The card is checked again for the added
 * amount (state, controls, limit, balance); a declined increment is recorded with its code and
 * leaves the hold as it was.
 */
export function increment(ctx: AppContext, ref: string, stepId: string, amount: number) {
  return ctx.db.transaction(async (tx): Promise<AuthorizationDecision> => {
    const auth = await lockAuthorization(tx, ref);
    const again = await recorded(tx, stepId);
    if (again) return replayDecision(tx, again);
    if (auth.status !== 'approved')
      throw new IssuerError(`Only a pending authorisation can be incremented; this one is ${auth.status}.`);
    const card = await lockCardById(tx, auth.cardId);
    const acc = await cardAccounts(tx, card.id, { lock: true });
    const now = ctx.now();
    const p: ControlledPayment = {
      amount,
      currency: auth.currency,
      merchant: auth.merchant,
      mcc: auth.mcc ?? '0000',
      country: auth.country,
    };
    const checked = await platformChecks(tx, card, p, acc.card.balance, now, { program: true, partialAllowed: false });
    const base = { card, auth, kind: 'increment' as const, amount, issuerReference: stepId, now };
    if ('decline' in checked) {
      const id = await insertStep(tx, {
        ...base,
        status: 'declined',
        description: `${auth.merchant} asked to add ${centsText(amount, 'USD')} to its hold: declined`,
        ledgerTransferId: null,
        declineCode: checked.decline.code,
        declineReason: checked.decline.reason,
      });
      return {
        approved: false,
        approvedAmount: 0,
        declineCode: checked.decline.code,
        declineReason: checked.decline.reason,
        transactionId: id,
        availableDelta: 0,
        authStatus: auth.status,
        authAmount: auth.amount,
      };
    }
    const posted = await post(tx, {
      kind: 'card_spend',
      reference: `INC-${stepId}`,
      description: `${auth.merchant} added ${centsText(amount, 'USD')} to its hold`,
      meta: { card_id: card.id, card_number: card.maskedNumber, merchant: auth.merchant, stage: 'incremented' },
      at: now,
      legs: [
        { accountId: acc.card.id, amount: -amount },
        { accountId: acc.hold.id, amount },
      ],
    });
    const id = await insertStep(tx, {
      ...base,
      description: `${auth.merchant} added ${centsText(amount, 'USD')} to its hold`,
      ledgerTransferId: posted.transferId,
    });
    const total = auth.amount + amount;
    const held = (auth.held ?? 0) + amount;
    await updateAuthorization(tx, auth, { amount: total, held }, now);
    await stepEvent(
      tx,
      card,
      'card.authorization.incremented',
      { ...auth, id: auth.id, amount },
      { step_id: id, authorized_amount: formatMoney(total), held: formatMoney(held) },
      now,
    );
    return approvedDecision(id, amount, total);
  });
}
