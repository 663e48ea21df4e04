import type { ApprovalInterval, DeclineCode } from '@shared/contract';
import { categoryLabel, categoryOf, countryName } from '@shared/merchant-categories';
import { centsText } from '@shared/vocabulary';
import type { DbOrTx } from '../../../db/client';
import type { CardRow } from '../presenters';
import { approvalsSince, controlsOfCard, programControlsRow } from './queries';

/** A declined authorisation: its stable code and the sentence people read. */
export interface Decline {
  code: DeclineCode;
  reason: string;
}

/** What the controls look at in an authorisation (amounts in cents). */
export interface ControlledPayment {
  amount: number;
  currency: string;
  merchant: string;
  /** four digits */
  mcc: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
}

const DAY = 86_400_000;

/** Where the current interval started, in UTC: the day, the ISO week (Monday), the month, the year, or ever. */
export function intervalStart(interval: ApprovalInterval, now: Date): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (interval) {
    case 'daily':
      return new Date(Date.UTC(y, m, d));
    case 'weekly':
      return new Date(Date.UTC(y, m, d) - ((now.getUTCDay() + 6) % 7) * DAY);
    case 'monthly':
      return new Date(Date.UTC(y, m, 1));
    case 'yearly':
      return new Date(Date.UTC(y, 0, 1));
    default:
      return new Date(0);
  }
}

const PER: Record<ApprovalInterval, string> = {
  daily: 'per day',
  weekly: 'per week',
  monthly: 'per month',
  yearly: 'per year',
  all_time: 'in total',
};

const kindOf = (category: string | null) =>
  category ? categoryLabel(category).toLowerCase() : 'this kind of merchant';
const country = (code: string) => countryName(code.toUpperCase());

/** The program's controls bind every card and are checked first (code `program_blocked`). */
export async function programDecline(db: DbOrTx, payment: ControlledPayment): Promise<Decline | null> {
  const program = await programControlsRow(db);
  if (!program) return null;
  const category = categoryOf(payment.mcc ?? null);
  if (category && program.blockedCategories.includes(category))
    return { code: 'program_blocked', reason: `Payments to ${kindOf(category)} are not allowed with any card.` };
  const where = (payment.country ?? '').toUpperCase();
  if (where && program.blockedCountries.includes(where))
    return {
      code: 'program_blocked',
      reason: `Payments to merchants in ${country(where)} are not allowed with any card.`,
    };
  return null;
}

/**
 * The card's own controls: categories, countries, the per-transaction limit and the count of
 * approvals in an interval (`merchant_category_blocked`, `merchant_country_blocked`,
 * `per_transaction_limit_exceeded`, `velocity_count_exceeded`).
 */
export async function cardControlDecline(
  db: DbOrTx,
  card: CardRow,
  payment: ControlledPayment,
  now: Date,
): Promise<Decline | null> {
  const c = await controlsOfCard(db, card.id);
  if (!c) return null;
  const category = categoryOf(payment.mcc ?? null);
  if (
    (c.allowedCategories.length && !(category && c.allowedCategories.includes(category))) ||
    (category && c.blockedCategories.includes(category))
  )
    return {
      code: 'merchant_category_blocked',
      reason: `This card's controls do not allow payments to ${kindOf(category)}.`,
    };
  const where = (payment.country ?? '').toUpperCase();
  if ((c.allowedCountries.length && !c.allowedCountries.includes(where)) || c.blockedCountries.includes(where))
    return {
      code: 'merchant_country_blocked',
      reason: `This card's controls do not allow payments to merchants in ${where ? country(where) : 'an unknown country'}.`,
    };
  if (c.perTransactionLimit != null && payment.amount > c.perTransactionLimit)
    return {
      code: 'per_transaction_limit_exceeded',
      reason: `This payment is over the card's limit of ${centsText(c.perTransactionLimit, 'USD')} per payment.`,
    };
  if (c.maxApprovalsCount != null && c.maxApprovalsInterval) {
    const interval = c.maxApprovalsInterval as ApprovalInterval;
    const n = await approvalsSince(db, card.id, intervalStart(interval, now));
    if (n >= c.maxApprovalsCount)
      return {
        code: 'velocity_count_exceeded',
        reason: `This card has reached its limit of ${c.maxApprovalsCount} approved ${c.maxApprovalsCount === 1 ? 'payment' : 'payments'} ${PER[interval]}.`,
      };
  }
  return null;
}
