import { centsText } from '@shared/vocabulary';
import type { NotificationEvent } from './service';

/**
 * What each event says, in one place: titles short enough for the bell (they are also the mail's
 * subject), bodies one sentence a line, amounts as the rest of the product writes them, reasons
 * included. Keys name the event once, so the same event never notifies anyone twice.
 */

type Topup = { id: string; reference: string; amount: number; method: string; walletId: string };

export const topupDecisionKey = (topupId: string) => `topup:${topupId}:decided`;

export function topupDecided(
  t: Topup,
  decision: 'Approved' | 'Denied',
  d: { credited?: number; fee?: number; reason?: string },
): NotificationEvent {
  const what = `Your ${t.method} top-up ${t.reference} of ${centsText(t.amount, 'USDT')}`;
  if (decision === 'Denied')
    return {
      type: 'topup_denied',
      title: `Your wallet top-up ${t.reference} was denied`,
      body: `${what} was denied.\nReason: ${d.reason}`,
      link: '/portal/wallet-loads',
      eventKey: topupDecisionKey(t.id),
    };
  const credited = centsText(d.credited ?? t.amount, 'USDT');
  return {
    type: 'topup_approved',
    title: `Your wallet top-up ${t.reference} was approved`,
    body: `${what} was approved.\n${d.fee ? `${credited} was credited to your master wallet (fee ${centsText(d.fee, 'USDT')}).` : `${credited} was credited to your master wallet.`}`,
    link: '/portal/wallet-loads',
    eventKey: topupDecisionKey(t.id),
  };
}

const topupReviewKey = (topupId: string) => `topup:${topupId}:review`;

/** Staff: a top-up reached the state it can be approved from (Tron: hash given; Momo: an agent confirmed it). */
export const topupReview = (t: Topup, owner: { name: string; type: 'Individual' | 'Company' }): NotificationEvent => ({
  type: 'topup_review',
  title: `Top-up ${t.reference} is waiting for review`,
  body:
    t.method === 'Tron'
      ? `${owner.name} gave the transaction hash of a Tron top-up of ${centsText(t.amount, 'USDT')}.`
      : `A momo agent confirmed the mobile-money payment of ${owner.name}'s top-up of ${centsText(t.amount, 'USDT')}.`,
  // Staff Wallet Loads of that account (its own filter), where Approve and Deny are.
  link: `/admin/wallet-loads?${new URLSearchParams({ [owner.type === 'Company' ? 'company_id' : 'individual_id']: t.walletId, acc_name: owner.name })}`,
  eventKey: topupReviewKey(t.id),
});

type Card = { id: string; nickname: string; last4?: string | null };
const cardName = (c: Card) => (c.last4 ? `${c.nickname} (•••• ${c.last4})` : c.nickname);
const cardLink = (c: Card) => `/portal/prepaid-cards/${c.id}`;

/** By the issuer's reference of the authorisation: the issuer sending it again is the same event. */
export const cardDeclineKey = (issuerReference: string) => `card-auth:${issuerReference}:declined`;

export const cardPaymentDeclined = (
  c: Card,
  tx: { key: string; amount: number; merchant: string; reason: string },
): NotificationEvent => ({
  type: 'card_payment_declined',
  title: `Card payment of ${centsText(tx.amount, 'USD')} declined`,
  body: `A payment of ${centsText(tx.amount, 'USD')} at ${tx.merchant} with your card ${cardName(c)} was declined.\nReason: ${tx.reason}`,
  link: cardLink(c),
  eventKey: cardDeclineKey(tx.key),
});

export const cardTerminatedKey = (cardId: string) => `card:${cardId}:terminated`;

export const cardTerminated = (
  c: Card,
  reason: string,
  money: { outcome: 'refund' | 'forfeit'; remaining: number },
): NotificationEvent => ({
  type: 'card_terminated',
  title: `Your card ${c.nickname} was terminated`,
  body: [
    `Your card ${cardName(c)} was terminated and can no longer be used.`,
    `Reason: ${reason.replace(/^Terminated: /, '')}`,
    ...(money.remaining > 0
      ? [
          money.outcome === 'refund'
            ? `${centsText(money.remaining, 'USD')} was returned to your master wallet.`
            : `The remaining ${centsText(money.remaining, 'USD')} was forfeited.`,
        ]
      : []),
  ].join('\n'),
  link: '/portal/prepaid-cards',
  eventKey: cardTerminatedKey(c.id),
});

const monthName = (period: string) =>
  new Date(`${period}-01T00:00:00Z`).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export const maintenanceFeeKey = (cardId: string, period: string) => `card:${cardId}:maintenance:${period}`;

export const maintenanceFeeCharged = (c: Card, amount: number, period: string): NotificationEvent => ({
  type: 'maintenance_fee_charged',
  title: `Maintenance fee of ${centsText(amount, 'USD')} charged`,
  body: `The monthly maintenance fee of ${centsText(amount, 'USD')} for ${monthName(period)} was taken from your card ${cardName(c)}.`,
  link: cardLink(c),
  eventKey: maintenanceFeeKey(c.id, period),
});

export const verificationDecisionKey = (verificationId: string) => `verification:${verificationId}:decided`;

export function verificationDecided(
  v: { id: string; kind: 'KYC' | 'KYB' },
  approved: boolean,
  reason?: string,
): NotificationEvent {
  if (approved)
    return {
      type: 'verification_approved',
      title: `Your ${v.kind} verification was approved`,
      body: `Your ${v.kind} verification was approved. Your account is now verified: you can create unlimited cards${v.kind === 'KYB' ? ' and use the API settings' : ''}.`,
      link: '/portal/kycverifications',
      eventKey: verificationDecisionKey(v.id),
    };
  return {
    type: 'verification_rejected',
    title: `Your ${v.kind} verification was not approved`,
    body: `Your ${v.kind} verification was not approved.\nReason: ${reason ?? 'not given'}\nYou may correct the details or documents and submit it again from your dashboard.`,
    link: '/portal/kycverifications',
    eventKey: verificationDecisionKey(v.id),
  };
}

const verificationSubmittedKey = (verificationId: string) => `verification:${verificationId}:submitted`;

export const verificationSubmitted = (v: { id: string; kind: 'KYC' | 'KYB'; name: string }): NotificationEvent => ({
  type: 'verification_submitted',
  title: `New ${v.kind} verification from ${v.name}`,
  body: `${v.name} submitted a ${v.kind} verification. It is waiting for review.`,
  link: `/admin/verifications-${v.kind === 'KYC' ? 'individuals' : 'companies'}/${v.id}`,
  eventKey: verificationSubmittedKey(v.id),
});

export const apiCredentialsKey = (clientId: string, what: 'generated' | 'revoked') => `api-client:${clientId}:${what}`;

export const apiCredentials = (clientId: string, what: 'generated' | 'revoked', by: string): NotificationEvent => ({
  type: what === 'generated' ? 'api_credentials_generated' : 'api_credentials_revoked',
  title: what === 'generated' ? 'New API credentials were generated' : 'API credentials were revoked',
  body:
    what === 'generated'
      ? `${by} generated API credentials for your company (client id ${clientId}). Any earlier credentials stopped working.`
      : `${by} revoked your company's API credentials (client id ${clientId}). Integrations using them no longer work.`,
  link: '/portal/apisettings',
  eventKey: apiCredentialsKey(clientId, what),
});

const DEPOSIT_REASONS = {
  'no-wallet': 'it was sent to the shared deposit address and no top-up named its hash',
  'below-minimum': 'it is below the USDT 1.00 minimum top-up',
  'amount-mismatch': 'a top-up named its hash but expected another amount',
} as const;

/** Staff: a settled deposit no top-up could take; they assign or return it on Chain Deposits. */
export const depositUnassigned = (
  d: { id: string; hash: string; amount: number },
  reason: keyof typeof DEPOSIT_REASONS,
): NotificationEvent => ({
  type: 'deposit_unassigned',
  title: `A deposit of ${centsText(d.amount, 'USDT')} waits for staff`,
  body: `A USDT deposit (transaction ${d.hash.slice(0, 12)}…) was not credited because ${DEPOSIT_REASONS[reason]}. Assign it to a wallet or return it.`,
  link: '/admin/chain-deposits',
  eventKey: `deposit:${d.id}:unassigned`,
});

/** A merchant paid money back to the card (issue 32). */
export const cardRefundReceived = (
  c: Card,
  r: { id: string; amount: number; merchant: string; available: number },
): NotificationEvent => ({
  type: 'card_refund_received',
  title: `Refund of ${centsText(r.amount, 'USD')} from ${r.merchant}`,
  body: `${r.merchant} refunded ${centsText(r.amount, 'USD')} to your card ${cardName(c)}.\nAvailable on the card: ${centsText(r.available, 'USD')}.`,
  link: cardLink(c),
  eventKey: `card-tx:${r.id}:refund`,
});

/** A hold the merchant never cleared went back to the card. */
export const cardHoldExpired = (
  c: Card,
  h: { id: string; amount: number; merchant: string; days: number },
): NotificationEvent => ({
  type: 'card_hold_expired',
  title: `Hold of ${centsText(h.amount, 'USD')} at ${h.merchant} released`,
  body: `The hold of ${centsText(h.amount, 'USD')} at ${h.merchant} on your card ${cardName(c)} expired after ${h.days} days. The amount is available again.`,
  link: cardLink(c),
  eventKey: `card-tx:${h.id}:expired`,
});

/** A clearing or a charge took more than the card held: the next funding repays it first. */
export const cardInDebt = (c: Card, d: { id: string; debt: number; merchant: string }): NotificationEvent => ({
  type: 'card_in_debt',
  title: `Your card ${c.nickname} owes ${centsText(d.debt, 'USD')}`,
  body: `${d.merchant} charged more than your card ${cardName(c)} held. The card owes ${centsText(d.debt, 'USD')}; your next funding of the card repays it first.`,
  link: cardLink(c),
  eventKey: `card-tx:${d.id}:debt`,
});
