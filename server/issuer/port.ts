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

export interface IssuedCard {
  token: string;
  last4: string;
  expMonth: number;
  expYear: number;
  billing: Billing;
}

export interface RevealedCard {
  pan: string;
  cvc: string;
  expMonth: number;
  expYear: number;
}

export class IssuerError extends Error {}

export interface CardIssuer {
  issue(input: { brand: Brand; holder: string }): Promise<IssuedCard>;
  /** moves funds onto the card at the issuer */
  load(token: string, cents: number): Promise<void>;
  /** moves funds off the card at the issuer; fails when the card holds less */
  unload(token: string, cents: number): Promise<void>;
  freeze(token: string): Promise<void>;
  unfreeze(token: string): Promise<void>;
  /** ends the card for good; whatever it holds is returned to the platform */
  terminate(token: string): Promise<void>;
  reveal(token: string): Promise<RevealedCard>;
}

/** A merchant's authorisation request, as the card network brings it to the issuer. */
export interface AuthorizationRequest {
  amount: number;
  currency: string;
  merchant: string;
  country: string;
}

export interface AuthorizationDecision {
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
  declinedByIssuer(token: string, req: AuthorizationRequest, reason: string, issuerReference: string): Promise<AuthorizationDecision>;
  reversed(issuerReference: string): Promise<void>;
  settled(issuerReference: string): Promise<void>;
}

export const brandOfPurpose = (purpose: string): Brand => (purpose === 'media' ? 'visa' : purpose === 'general' ? 'mastercard' : 'tokenised');
