import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns';
import { users } from './identity';
import { ledgerTransfers } from './ledger';

/**
 * The platform's view of a prepaid card. The number and CVC live only at the issuer (encrypted);
 * here are its token, last four digits and masked number.
 */
export const cards = pgTable(
  'cards',
  {
    id: id(),
    /** the master wallet that owns the card: an Individual's user id or a company id */
    walletId: uuid('wallet_id').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    nickname: text('nickname').notNull(),
    purpose: text('purpose').notNull(), // 'media' (Visa) | 'general' (Mastercard) | 'tokencard'
    type: text('type').notNull(), // 'basic' | 'premium'
    issuerToken: text('issuer_token').notNull(),
    last4: text('last4').notNull(),
    maskedNumber: text('masked_number').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    billing: jsonb('billing').$type<Record<string, string>>().notNull(),
    state: text('state').notNull().default('Active'), // 'Active' | 'Deactivated'
    deletedAt: ts('deleted_at'),
    /** why a card ended: 'deleted' by its owner, or a scheduled termination's reason */
    endReason: text('end_reason'),
    flagged: boolean('flagged').notNull().default(false),
    flagReason: text('flag_reason'),
    flaggedAt: ts('flagged_at'),
    suspended: boolean('suspended').notNull().default(false),
    suspendReason: text('suspend_reason'),
    suspendAt: ts('suspend_at'),
    unsuspendAt: ts('unsuspend_at'),
    /** Visa only: cents per period, and the period */
    spendingLimit: bigint('spending_limit', { mode: 'number' }),
    spendingControl: text('spending_control'), // 'day' | 'week' | 'month' | 'lifetime'
    additionalSpendingLimit: bigint('additional_spending_limit', { mode: 'number' }).notNull().default(0),
    /** consecutive authorisations declined for insufficient balance (reset by an approval) */
    insufficientStreak: integer('insufficient_streak').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('cards_issuer_token_unique').on(t.issuerToken),
    index('cards_wallet_created_idx').on(t.walletId, t.createdAt),
    index('cards_created_idx').on(t.createdAt),
    // the card search's exact match on the last four digits
    index('cards_last4_idx').on(t.last4),
    // flagged cards are few: the staff's flagged filter pages and counts them without reading every card
    index('cards_flagged_created_idx').on(t.createdAt, t.id).where(sql`flagged`),
  ],
);

/**
 * How many cards there are, by owner kind, purpose, type, whether active and whether deleted (migration 0031): the
 * staff's card list's total under any of those filters, read from these few rows instead of counted over every card
 * (and, for the owner kind, joined to companies). Each statement adds the cards it inserts, changes or removes to its
 * backend's slot; a total is a sum over the slots.
 */
export const cardCount = pgTable(
  'card_count',
  {
    ownerType: text('owner_type').notNull(), // 'company' | 'individual'
    purpose: text('purpose').notNull(),
    type: text('type').notNull(),
    /** state = 'Active' (whether or not deleted) */
    active: boolean('active').notNull(),
    /** deleted_at is set */
    deleted: boolean('deleted').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerType, t.purpose, t.type, t.active, t.deleted, t.slot] })],
);

/** What happened on a card at merchants: authorisations, their reversal or settlement, and declines. */
export const cardTransactions = pgTable(
  'card_transactions',
  {
    id: id(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** 'authorization' | 'increment' | 'reversal' | 'clearing' | 'merchant_refund' | 'force_post' | 'expiry' (and the platform's own: 'load', …) */
    kind: text('kind').notNull(),
    /** an authorisation: 'approved' (pending) | 'declined' | 'reversed' | 'settled' | 'expired'; a step: 'completed' | 'declined' */
    status: text('status').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('USD'),
    merchant: text('merchant').notNull(),
    country: text('country').notNull(),
    description: text('description').notNull(),
    declineReason: text('decline_reason'),
    /** the merchant's category code (ISO 18245), four digits */
    mcc: text('mcc'),
    /** a stable code beside the readable reason (DECLINE_CODES) */
    declineCode: text('decline_code'),
    /** 'platform' | 'company' | 'stand_in' (DECIDED_BY) */
    decidedBy: text('decided_by'),
    /** how long the decision took, in milliseconds */
    decisionMs: integer('decision_ms'),
    /** a step of an authorisation's life points at its authorisation */
    authorizationId: uuid('authorization_id'),
    /** an authorisation: what it still holds (migration 0037) */
    held: bigint('held', { mode: 'number' }),
    /** what the step gave back from the hold to the card: a reversal, an expiry, a clearing's closing remainder */
    released: bigint('released', { mode: 'number' }).notNull().default(0),
    /** what a clearing or force-post took straight from the card's available balance (beyond any hold) */
    fromAvailable: bigint('from_available', { mode: 'number' }).notNull().default(0),
    issuerReference: text('issuer_reference'),
    ledgerTransferId: uuid('ledger_transfer_id').references(() => ledgerTransfers.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('card_transactions_card_created_idx').on(t.cardId, t.createdAt),
    index('card_transactions_auth_idx').on(t.authorizationId),
    index('card_transactions_kind_created_idx').on(t.kind, t.createdAt),
    // an issuer message is performed once
    uniqueIndex('card_transactions_issuer_reference_unique').on(t.issuerReference),
    index('card_transactions_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.kind} = 'authorization' AND ${t.status} = 'approved'`),
  ],
);

/** One row per scheduled job and period, so a job runs once per period whatever runs it. */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: id(),
    job: text('job').notNull(),
    period: text('period').notNull(),
    startedAt: createdAt(),
    finishedAt: ts('finished_at'),
    summary: jsonb('summary').$type<Record<string, unknown>>(),
  },
  (t) => [unique('job_runs_job_period_unique').on(t.job, t.period)],
);

/**
 * Each card's searched text, and nothing else (migration 0056, kept by triggers): a search's total counts these rows, a
 * quarter of the cards' pages. The nickname and the cardholder's full name, lower-cased, a newline between
 * (cw_card_haystack); deleted cards too, as the staff's list has them. No key: equal rows are interchangeable.
 */
export const cardSearch = pgTable('card_search', {
  haystack: text('haystack').notNull(),
});
