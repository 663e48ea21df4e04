import type { DecidedBy } from '@shared/contract';
import type { AppContext } from '../../context';
import type { ControlledPayment } from './controls/decline';
import type { CardRow } from './presenters';

/** The company's answer to an authorisation that passed the platform's own checks. */
export interface CompanyDecision {
  decidedBy: Exclude<DecidedBy, 'platform'>;
  approved: boolean;
  /** a smaller amount the company approves (partial approval), in cents */
  amount?: number;
  /** how long the decision took */
  ms: number;
}

/**
 * Asks the card's company, when it registered an authorisation-decision endpoint; null when it
 * did not (the platform decides alone). Called outside any database transaction: it may take up
 * to the endpoint's deadline.
 */
export async function askCompany(
  _ctx: AppContext,
  _card: CardRow,
  _payment: ControlledPayment,
  _transactionId: string,
): Promise<CompanyDecision | null> {
  return null;
}
