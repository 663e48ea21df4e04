import type { DeclineCode } from '@shared/contract';
import type { DbOrTx } from '../../../db/client';
import type { CardRow } from '../presenters';

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

/** The program's controls bind every card and are checked first (code `program_blocked`). */
export async function programDecline(_db: DbOrTx, _payment: ControlledPayment): Promise<Decline | null> {
  return null;
}

/**
 * The card's own controls: categories, countries, the per-transaction limit and the count of
 * approvals in an interval (`merchant_category_blocked`, `merchant_country_blocked`,
 * `per_transaction_limit_exceeded`, `velocity_count_exceeded`).
 */
export async function cardControlDecline(
  _db: DbOrTx,
  _card: CardRow,
  _payment: ControlledPayment,
  _now: Date,
): Promise<Decline | null> {
  return null;
}
