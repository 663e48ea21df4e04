/**
 * The lists both a topic's requests and its answers name (states, kinds, types). A leaf: it imports
 * no other contract file, so every topic and answer file can take from it without a loop.
 */

export const CARD_PURPOSES = ['media', 'general', 'tokencard'] as const;
export type CardPurpose = (typeof CARD_PURPOSES)[number];
export const CARD_TYPES = ['basic', 'premium'] as const;
export type CardType = (typeof CARD_TYPES)[number];
export const SPENDING_CONTROLS = ['day', 'week', 'month', 'lifetime'] as const;
export type SpendingControl = (typeof SPENDING_CONTROLS)[number];

export const TOPUP_STATES = ['Pending', 'Hash-provided', 'MoMo processed', 'Approved', 'Denied'] as const;
export type TopupState = (typeof TOPUP_STATES)[number];

export const CHAIN_DEPOSIT_STATUSES = ['Unassigned', 'Credited', 'Assigned', 'Returned'] as const;
export type ChainDepositStatus = (typeof CHAIN_DEPOSIT_STATUSES)[number];
/** why staff must decide: to an address of no wallet, below the minimum top-up, or not the amount its top-up expects */
export const CHAIN_DEPOSIT_REASONS = ['no-wallet', 'below-minimum', 'amount-mismatch'] as const;

/** Why a card's owner disputes a payment (issue 36; Stripe Issuing's reasons, adapted). */
export const DISPUTE_REASONS = [
  'fraudulent',
  'not_received',
  'duplicate',
  'canceled',
  'not_as_described',
  'incorrect_amount',
  'other',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];
/** submitted → under_review (sent to the issuer) → won | lost; the owner may withdraw it while it is open. */
export const DISPUTE_STATES = ['submitted', 'under_review', 'won', 'lost', 'withdrawn'] as const;
export type DisputeState = (typeof DISPUTE_STATES)[number];

export const CUSTOMER_STATES = ['Verified', 'In-review', 'Unverified', 'Deactivated'] as const;

/** What the notification centre tells people, by type, and whether mail may be turned off. */
export const NOTIFICATION_TYPES = {
  transfer_received: { label: 'Transfer received', group: 'money' },
  topup_approved: { label: 'Top-up approved', group: 'money' },
  topup_denied: { label: 'Top-up denied', group: 'money' },
  card_payment_declined: { label: 'Card payment declined', group: 'money' },
  card_terminated: { label: 'Card terminated', group: 'money' },
  maintenance_fee_charged: { label: 'Card maintenance fee charged', group: 'money' },
  verification_approved: { label: 'Verification approved', group: 'account' },
  verification_rejected: { label: 'Verification rejected', group: 'account' },
  two_factor_reset: { label: 'Two-factor authentication reset', group: 'security' },
  api_credentials_generated: { label: 'API credentials generated', group: 'security' },
  api_credentials_revoked: { label: 'API credentials revoked', group: 'security' },
  verification_submitted: { label: 'Verification waiting for review', group: 'staff' },
  topup_review: { label: 'Top-up waiting for review', group: 'staff' },
  deposit_unassigned: { label: 'Deposit waiting for staff', group: 'staff' },
  approval_requested: { label: 'Request waiting for approval', group: 'staff' },
  approval_decided: { label: 'Your request decided', group: 'staff' },
  card_refund_received: { label: 'Card refund received', group: 'money' },
  card_hold_expired: { label: 'Card hold expired', group: 'money' },
  card_in_debt: { label: 'Card in debt', group: 'money' },
  balance_low: { label: 'Balance below its alert', group: 'staff' },
  card_dispute_updated: { label: 'Card dispute updated', group: 'money' },
} as const;

export type NotificationType = keyof typeof NOTIFICATION_TYPES;
export type NotificationGroup = (typeof NOTIFICATION_TYPES)[NotificationType]['group'];

/** Why an authorisation was declined, as a stable code beside its readable reason (Stripe Issuing's style). */
export const DECLINE_CODES = [
  'card_inactive',
  'insufficient_funds',
  'spending_limit_exceeded',
  'per_transaction_limit_exceeded',
  'velocity_count_exceeded',
  'merchant_category_blocked',
  'merchant_country_blocked',
  'program_blocked',
  'declined_by_company',
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** Who decided an authorisation: the platform's own checks, the company's decision endpoint, or its on_timeout rule. */
export const DECIDED_BY = ['platform', 'company', 'stand_in'] as const;
export type DecidedBy = (typeof DECIDED_BY)[number];
