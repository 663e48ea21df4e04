import type { ChainDepositStatus, TopupState } from './contract/lists';
import { centsOf, displayMoney } from './money';

/**
 * The one vocabulary both apps, the CSV exports, the mails and the audit trail use: what people
 * read for each state the API names, and how money is written. The API's own values stay as they
 * are (the API is public); only these display names are shown.
 */

export type Currency = 'USDT' | 'USD' | 'GHS';

/** cents → "USDT 1,250.00" (currency first, thousands separators, two decimals). */
export const centsText = (cents: number, currency: Currency) => `${currency} ${displayMoney(cents)}`;

/** An API amount ("1250.00", "1,250.5") → "USDT 1,250.00"; missing → "-"; unreadable text as it came. */
export function moneyText(amount: string | null | undefined, currency: Currency): string {
  if (amount === null || amount === undefined || amount === '') return '-';
  try {
    return centsText(centsOf(amount), currency);
  } catch {
    return `${currency} ${amount}`;
  }
}

/** "+ USDT 497.50" for money in, "- USD 45.50" for money out: the one signed form. */
export const signedMoneyText = (amount: string, direction: 'credit' | 'debit', currency: Currency) =>
  `${direction === 'debit' ? '-' : '+'} ${moneyText(amount.replace(/^-/, ''), currency)}`;

export const TOPUP_STATE_NAMES: Record<TopupState, string> = {
  Pending: 'Pending',
  // The hash (or the Momo payment) is in and the operator decides: the customer portal spec's word.
  'Hash-provided': 'Processing',
  'MoMo processed': 'MoMo processed',
  Approved: 'Approved',
  Denied: 'Denied',
};

/** A verification submission. */
export const VERIFICATION_STATE_NAMES: Record<'pending' | 'approved' | 'rejected', string> = {
  pending: 'In-review',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** A person's or company's state: the user answer says pending, staff lists say In-review. */
export const ACCOUNT_STATE_NAMES: Record<string, string> = {
  Unverified: 'Unverified',
  pending: 'In-review',
  'In-review': 'In-review',
  Verified: 'Verified',
  Deactivated: 'Deactivated',
};

export const CHAIN_DEPOSIT_STATUS_NAMES: Record<ChainDepositStatus, string> = {
  Unassigned: 'Unassigned',
  Credited: 'Credited',
  Assigned: 'Assigned',
  Returned: 'Returned',
};

/** A card payment the issuer approved is still on hold: Pending until it settles (or is reversed, or expires). */
export const CARD_TX_STATUS_NAMES: Record<
  'approved' | 'declined' | 'reversed' | 'settled' | 'expired' | 'completed',
  string
> = {
  approved: 'Pending',
  declined: 'Declined',
  reversed: 'Reversed',
  settled: 'Settled',
  expired: 'Expired',
  completed: 'Completed',
};

/** Each card transaction's kind: a payment's steps as a merchant sends them, and the platform's own movements. */
export const CARD_TX_KIND_NAMES: Record<
  | 'authorization'
  | 'increment'
  | 'reversal'
  | 'clearing'
  | 'merchant_refund'
  | 'force_post'
  | 'expiry'
  | 'load'
  | 'withdrawal'
  | 'maintenance'
  | 'refund'
  | 'forfeit'
  | 'dispute_credit'
  | 'dispute_debit',
  string
> = {
  authorization: 'Payment',
  increment: 'Hold increased',
  reversal: 'Hold released',
  clearing: 'Payment cleared',
  merchant_refund: 'Refund',
  force_post: 'Charge without authorisation',
  expiry: 'Hold expired',
  load: 'Card load',
  withdrawal: 'Withdrawal',
  maintenance: 'Maintenance fee',
  refund: 'Balance returned',
  forfeit: 'Balance forfeited',
  dispute_credit: 'Dispute credit',
  dispute_debit: 'Dispute credit taken back',
};

/** A card dispute's reason and state, as people read them (issue 36). */
export const DISPUTE_REASON_NAMES = {
  fraudulent: 'Fraudulent',
  not_received: 'Not received',
  duplicate: 'Duplicate',
  canceled: 'Canceled',
  not_as_described: 'Not as described',
  incorrect_amount: 'Incorrect amount',
  other: 'Other',
} as const;
export const DISPUTE_STATE_NAMES = {
  submitted: 'Submitted',
  under_review: 'Under review',
  won: 'Won',
  lost: 'Lost',
  withdrawn: 'Withdrawn',
} as const;

/** A payment's later steps, as their rows' tags read (the payment itself reads its status). */
export const CARD_TX_STEP_NAMES: Record<
  'increment' | 'reversal' | 'clearing' | 'merchant_refund' | 'force_post' | 'expiry',
  string
> = {
  increment: 'Hold increased',
  reversal: 'Reversed',
  clearing: 'Cleared',
  merchant_refund: 'Refund',
  force_post: 'Charge without authorisation',
  expiry: 'Expired',
};

/** What a person calls each kind of wallet movement. */
const WALLET_TX_TYPE_NAMES: Record<string, string> = {
  deposit: 'Wallet Top Up',
  transfer: 'Transfer',
  issuance: 'Card Issuance',
  topup: 'Card Top Up',
  withdraw: 'Card Withdrawal',
  refund: 'Refund',
  maintenance: 'Card Maintenance',
  api_fee: 'API Fee',
};

export const walletTxTypeName = (type: string) =>
  WALLET_TX_TYPE_NAMES[type] ?? type.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

type CardFacts = { state: string; is_deleted?: boolean; flagged?: boolean; suspended?: boolean };

/** A card's state: Deleted once deleted, else Active or Deactivated (frozen). */
export const cardStateName = (c: Pick<CardFacts, 'state' | 'is_deleted'>) => (c.is_deleted ? 'Deleted' : c.state);

/** What a card's badges say, in order: its state, then Flagged and Suspended when staff set them. */
export function cardBadges(c: CardFacts): Array<{ text: string; tone: 'ok' | 'bad' | 'muted' | 'warn' }> {
  const state = cardStateName(c);
  const held = !c.is_deleted && (c.flagged || c.suspended);
  const badges: Array<{ text: string; tone: 'ok' | 'bad' | 'muted' | 'warn' }> = [
    // A flagged or suspended card refuses payments: its Active is no green "all is well".
    { text: state, tone: state !== 'Active' ? 'bad' : held ? 'muted' : 'ok' },
  ];
  if (!c.is_deleted && c.flagged) badges.push({ text: 'Flagged', tone: 'bad' });
  if (!c.is_deleted && c.suspended) badges.push({ text: 'Suspended', tone: 'warn' });
  return badges;
}
