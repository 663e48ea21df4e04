import type { DecidedBy } from '@shared/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { ControlledPayment } from './controls/decline';
import type { CardRow } from './presenters';

/** A company's registered authorisation-decision endpoint. */
export interface DecisionEndpoint {
  companyId: string;
  url: string;
  timeoutMs: number;
  onTimeout: 'approve' | 'decline';
}

/** The company's answer to an authorisation that passed the platform's own checks. */
export interface CompanyDecision {
  decidedBy: Exclude<DecidedBy, 'platform'>;
  approved: boolean;
  /** a smaller amount the company approves (partial approval), in cents */
  amount?: number;
  /** how long the decision took */
  ms: number;
}

/** The endpoint of the card's company, or null (individuals' cards, or none registered): the platform decides alone. */
export async function decisionEndpointOf(_db: DbOrTx, _card: CardRow): Promise<DecisionEndpoint | null> {
  return null;
}

/**
 * Asks the company. Called outside any database transaction: it takes at most the endpoint's
 * deadline (plus a little), and never throws: no answer, an error or a reply that is not a
 * decision applies `on_timeout` (decidedBy 'stand_in').
 */
export async function askCompany(
  _ctx: AppContext,
  endpoint: DecisionEndpoint,
  _card: CardRow,
  _payment: ControlledPayment,
  _transactionId: string,
): Promise<CompanyDecision> {
  return { decidedBy: 'stand_in', approved: endpoint.onTimeout === 'approve', ms: 0 };
}
