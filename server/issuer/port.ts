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
  country: string;
}

interface AuthorizationDecision {
  approved: boolean;
  declineReason: string | null;
  /** the platform's card transaction that recorded it */
  transactionId: string;
}

/**
 * The platform's side of authorisations: the issuer asks it to approve or decline each one
 * (balance, flags, suspension, spending limits) and tells it about reversals and settlements.
 */
export interface AuthorizationHandler {
  authorize(token: string, req: AuthorizationRequest, issuerReference: string): Promise<AuthorizationDecision>;
  declinedByIssuer(
    token: string,
    req: AuthorizationRequest,
    reason: string,
    issuerReference: string,
  ): Promise<AuthorizationDecision>;
  reversed(issuerReference: string): Promise<void>;
  settled(issuerReference: string): Promise<void>;
}

export const brandOfPurpose = (purpose: string): Brand =>
  purpose === 'media' ? 'visa' : purpose === 'general' ? 'mastercard' : 'tokenised';
