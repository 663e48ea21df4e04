import type { DeclineCode } from '@shared/contract';

/**
 * How the platform reaches a card issuer. The built-in sandbox implements it completely; a real
 * issuer would be another implementation of the same port.
 */

export type Brand = 'visa' | 'mastercard' | 'tokenised';

export interface Billing {
  AdrLine1: string;
  AdrLine2: string;
  City: string;
  State: string;
  Country: string;
  ZipCode: string;
}

interface IssuedCard {
  token: string;
  last4: string;
  expMonth: number;
  expYear: number;
  billing: Billing;
}

interface RevealedCard {
  pan: string;
  cvc: string;
  expMonth: number;
  expYear: number;
}

/**
 * The issuer refused or failed. `retryable`: the same operation (same id) may succeed later
 * (the issuer was down, or its answer never came); otherwise it never will (an unknown or
 * terminated card, not enough funds on it).
 */
export class IssuerError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/**
 * Every operation that changes something at the issuer carries the platform's operation id
 * (`opId`): the issuer performs an id once, and answers a repeat with the first outcome, so a
 * retry after a crash or a lost answer never loads a card twice.
 */
export interface CardIssuer {
  issue(input: { brand: Brand; holder: string; opId: string }): Promise<IssuedCard>;
  /** moves funds onto the card at the issuer */
  load(token: string, cents: number, opId: string): Promise<void>;
  /** moves funds off the card at the issuer; fails when the card holds less */
  unload(token: string, cents: number, opId: string): Promise<void>;
  freeze(token: string, opId: string): Promise<void>;
  unfreeze(token: string, opId: string): Promise<void>;
  /** ends the card for good; whatever it holds is returned to the platform */
  terminate(token: string, opId: string): Promise<void>;
  reveal(token: string): Promise<RevealedCard>;
  /** what the issuer holds on each of these cards (for reconciliation); a card it does not know is absent */
  balances(tokens: string[]): Promise<Map<string, number>>;
  /**
   * Files a dispute of a payment (issue 36); `provisional` is what the issuer credits the card while it
   * decides. Answers the issuer's id of the dispute. The issuer tells its outcome later (disputeResolved).
   */
  dispute(token: string, filing: DisputeFiling, opId: string): Promise<{ reference: string }>;
  /** takes a dispute back; a provisional credit leaves the card */
  withdrawDispute(token: string, disputeId: string, opId: string): Promise<void>;
}

/** A dispute as the platform files it with the issuer. */
export interface DisputeFiling {
  /** the platform's id of the dispute */
  disputeId: string;
  /** the issuer's reference of the payment disputed */
  paymentReference: string | null;
  amount: number;
  reason: string;
  provisional: number;
}

/** An issuer call that took longer than the client waits: its outcome is unknown, a retry (same id) settles it. */
class IssuerTimeout extends IssuerError {
  constructor(ms: number) {
    super(`The card issuer did not answer within ${ms / 1000} s.`, true);
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new IssuerTimeout(ms)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A merchant's authorisation request, as the card network brings it to the issuer. */
export interface AuthorizationRequest {
  amount: number;
  currency: string;
  merchant: string;
  /** the merchant's category code, four digits */
  mcc: string;
  country: string;
  /** the merchant accepts a smaller approved amount (partial approval) */
  partialAllowed?: boolean;
}

/** A message with no authorisation before it (a refund or a force-post). */
export interface MerchantMessage {
  amount: number;
  merchant: string;
  mcc: string;
  country: string;
}

export interface AuthorizationDecision {
  approved: boolean;
  /** what was approved (less than asked on a partial approval), 0 when declined */
  approvedAmount: number;
  declineCode: DeclineCode | null;
  declineReason: string | null;
  /** the platform's card transaction that recorded it */
  transactionId: string;
  /** how the card's available balance moved (the issuer's balance moves the same) */
  availableDelta: number;
  /** the authorisation's status and approved total after the message */
  authStatus: string;
  authAmount: number;
  /** the platform's row of it, when the answer brings it along (the caller need not read it again) */
  row?: unknown;
}

/** An approval of `amount` that holds it (`authAmount`: the authorisation's approved total after it, when incremented). */
export const approvedDecision = (
  transactionId: string,
  amount: number,
  authAmount = amount,
): AuthorizationDecision => ({
  approved: true,
  approvedAmount: amount,
  declineCode: null,
  declineReason: null,
  transactionId,
  availableDelta: -amount,
  authStatus: 'approved',
  authAmount,
});

/**
 * The card's company's answer to a payment, when the platform asked it before the issuer recorded the message (the
 * one-call path): the message carries it, so the platform does not ask again, even when the message is sent again.
 */
export interface CompanyAnswer {
  /** the transaction id the company was told */
  transactionId: string;
  decidedBy: 'company' | 'stand_in';
  approved: boolean;
  /** what the platform's checks approved when the company was asked, in cents */
  requested: number;
  /** a smaller amount the company approved, in cents */
  amount?: number;
  /** how long the decision had taken by then */
  ms: number;
}

/** The platform's answer to a step of an authorisation's life (or a message without one). */
export interface StepOutcome {
  transactionId: string;
  availableDelta: number;
  /** the authorisation's status and approved total after the step, when the step has one */
  authStatus: string | null;
  authAmount: number | null;
  message: string;
}

/**
 * The platform's side of authorisations: the issuer asks it to approve or decline each one and
 * tells it every later message. Each message carries the issuer's id of it (`stepId`; the
 * authorisation's own reference for the authorisation): the platform performs an id once and
 * answers a repeat with the first outcome, so the issuer may send a message again after a crash.
 * A message that does not fit the authorisation's state is refused with an IssuerError.
 */
export interface AuthorizationHandler {
  authorize(
    token: string,
    req: AuthorizationRequest,
    issuerReference: string,
    company?: CompanyAnswer | null,
  ): Promise<AuthorizationDecision>;
  declinedByIssuer(
    token: string,
    req: AuthorizationRequest,
    reason: string,
    issuerReference: string,
  ): Promise<AuthorizationDecision>;
  increment(issuerReference: string, stepId: string, amount: number): Promise<AuthorizationDecision>;
  /** the whole held amount when `amount` is null */
  reverse(issuerReference: string, stepId: string, amount: number | null): Promise<StepOutcome>;
  /** `amount` null: the held amount (a settlement) */
  clear(issuerReference: string, stepId: string, amount: number | null, close: boolean): Promise<StepOutcome>;
  expire(issuerReference: string, stepId: string, days: number): Promise<StepOutcome>;
  /** `original`: the issuer reference of the payment refunded, if any */
  refund(token: string, stepId: string, msg: MerchantMessage, original: string | null): Promise<StepOutcome>;
  forcePost(token: string, stepId: string, msg: MerchantMessage): Promise<StepOutcome>;
  /** the issuer decided a dispute (by the platform's id of it) */
  disputeResolved(disputeId: string, stepId: string, outcome: 'won' | 'lost'): Promise<StepOutcome>;
}

export const brandOfPurpose = (purpose: string): Brand =>
  purpose === 'media' ? 'visa' : purpose === 'general' ? 'mastercard' : 'tokenised';
