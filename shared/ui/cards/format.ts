import dayjs from 'dayjs';
import { type ApiCard, type ApiCardTransaction, type SpendingControl, brandOf } from '../../contract';
import {
  CARD_TX_KIND_NAMES,
  CARD_TX_STATUS_NAMES,
  CARD_TX_STEP_NAMES,
  type Currency,
  centsText,
  moneyText,
  signedMoneyText,
} from '../../vocabulary';

/** How card screens write amounts, dates and card words. Cards and their fees are in USD. */

/** "USD 1,250.00"; a missing amount is a dash. */
export const usd = (amount: string | null | undefined) => moneyText(amount, 'USD');

/** cents → "USD 1,250.00" */
export const usdCents = (cents: number) => centsText(cents, 'USD');

/** Empty cells show a dash. */
export const dash = (v: string | null | undefined) => (v == null || String(v).trim() === '' ? '-' : v);

export const cardTypeLabel = (type: string | null | undefined) =>
  type === 'premium' ? 'Premium' : type === 'basic' ? 'Basic' : dash(type);

/** "Premium Visa", "Basic Mastercard", "Premium Tokenised Card". */
export const cardKind = (type: string, purpose: string) =>
  `${cardTypeLabel(type)} ${brandOf(purpose).replace(/s$/, '')}`;

/** A card in a selector: 'card number (nickname)'. */
export const cardOptionLabel = (c: Pick<ApiCard, 'masked_number' | 'nickname'>) => `${c.masked_number} (${c.nickname})`;

export const CONTROL_LABELS: Record<SpendingControl, string> = {
  day: 'Day',
  week: 'Week',
  month: 'Month',
  lifetime: 'Lifetime',
};
const CONTROL_WORDS: Record<SpendingControl, string> = {
  day: 'per day',
  week: 'per week',
  month: 'per month',
  lifetime: 'in total',
};
export const controlWords = (c: SpendingControl | null | undefined) => CONTROL_WORDS[c ?? 'lifetime'];

/** "12 May 2026" */
export const dateOnly = (iso: string | null | undefined) => {
  if (!iso) return '-';
  const d = dayjs(iso);
  return d.isValid() ? d.format('D MMM YYYY') : iso;
};

/** "05/2029" in the details table; the card face writes the year with 2 digits. */
export const expiryText = (month: number, year: number, shortYear = false) =>
  `${String(month).padStart(2, '0')}/${shortYear ? String(year).slice(-2) : year}`;

/** "4532 0112 3456 7890" from a full number, in groups of four. */
export const groupDigits = (pan: string) => pan.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

const TX_STATUS_LABELS: Record<ApiCardTransaction['status'], string> = CARD_TX_STATUS_NAMES;
const TX_STATUS_COLORS: Record<ApiCardTransaction['status'], string> = {
  approved: 'gold',
  declined: 'red',
  reversed: 'default',
  settled: 'green',
  expired: 'default',
  completed: 'green',
};
export const TX_KIND_LABELS: Record<ApiCardTransaction['kind'], string> = CARD_TX_KIND_NAMES;

const STEP_COLORS: Record<keyof typeof CARD_TX_STEP_NAMES, string> = {
  increment: 'gold',
  reversal: 'default',
  clearing: 'green',
  merchant_refund: 'blue',
  force_post: 'purple',
  expiry: 'default',
};

/**
 * A row's tag: a payment by its status (Pending, Settled, Reversed, Expired, Declined), a later step
 * of it by what it did (Hold increased, Cleared, Reversed, Refund, …), the platform's own movements
 * by their status.
 */
export function txTag(t: Pick<ApiCardTransaction, 'kind' | 'status'>): { label: string; color: string } {
  if (t.status !== 'declined' && t.kind in CARD_TX_STEP_NAMES) {
    const step = t.kind as keyof typeof CARD_TX_STEP_NAMES;
    return { label: CARD_TX_STEP_NAMES[step], color: STEP_COLORS[step] };
  }
  return { label: TX_STATUS_LABELS[t.status], color: TX_STATUS_COLORS[t.status] };
}

/** Steps inside a payment's hold: its row's amount (all approved, increments included) already carries the minus. */
const HOLD_STEPS: ReadonlySet<ApiCardTransaction['kind']> = new Set(['increment', 'clearing']);

/** Money back on the card: loads, refunds, and holds released. */
const CREDITS: ReadonlySet<ApiCardTransaction['kind']> = new Set([
  'load',
  'merchant_refund',
  'reversal',
  'expiry',
  'dispute_credit',
]);

/**
 * An amount as it moved the card, in its currency: loads, refunds and released holds in (+),
 * payments, charges and fees out (-). A declined, reversed or expired payment moved
 * nothing in the end and carries no sign; nor do an increment and a clearing, which add to or take what
 * the payment holds (the payment's row, approved in total, carries the minus).
 */
export function signedCardAmount(t: Pick<ApiCardTransaction, 'kind' | 'status' | 'amount' | 'currency'>): string {
  const currency = (t.currency || 'USD') as Currency;
  if (t.status === 'declined' || t.status === 'reversed' || t.status === 'expired' || HOLD_STEPS.has(t.kind))
    return moneyText(t.amount, currency);
  return signedMoneyText(t.amount, CREDITS.has(t.kind) ? 'credit' : 'debit', currency);
}
