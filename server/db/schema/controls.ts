import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { cards } from './cards';

const names = (name: string) => text(name).array().notNull().default(sql`'{}'::text[]`);

/**
 * A card's own controls (issue 32): merchant categories and countries allowed or blocked, the most one
 * payment may take, and how many approvals an interval allows. No row: no controls.
 */
export const cardControls = pgTable('card_controls', {
  cardId: uuid('card_id')
    .primaryKey()
    .references(() => cards.id),
  allowedCategories: names('allowed_categories'),
  blockedCategories: names('blocked_categories'),
  allowedCountries: names('allowed_countries'),
  blockedCountries: names('blocked_countries'),
  /** cents; null: no limit */
  perTransactionLimit: bigint('per_transaction_limit', { mode: 'number' }),
  maxApprovalsCount: integer('max_approvals_count'),
  /** APPROVAL_INTERVALS */
  maxApprovalsInterval: text('max_approvals_interval'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

/** One row (id 1): what the program blocks on every card, checked before anything else. */
export const programControls = pgTable('program_controls', {
  id: integer('id').primaryKey(),
  blockedCategories: names('blocked_categories'),
  blockedCountries: names('blocked_countries'),
  /** a dispute sent to the issuer credits the card at once, taken back if it is lost (issue 36) */
  provisionalCredit: boolean('provisional_credit').notNull().default(false),
  /** null while the defaults of migration 0038 hold */
  updatedAt: ts('updated_at'),
  updatedBy: uuid('updated_by'),
});
