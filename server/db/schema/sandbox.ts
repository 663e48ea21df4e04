import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';

/**
 * The built-in sandbox card issuer's own books: what a real issuer keeps on its side.
 * The platform reaches it only through the issuer port (server/issuer/port.ts).
 */
export const sandboxCards = pgTable(
  'sandbox_cards',
  {
    id: id(),
    token: text('token').notNull(),
    brand: text('brand').notNull(), // 'visa' | 'mastercard' | 'tokenised'
    /** AES-256-GCM sealed under ENCRYPTION_KEY */
    panSealed: text('pan_sealed').notNull(),
    cvcSealed: text('cvc_sealed').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    holder: text('holder').notNull(),
    billing: jsonb('billing').$type<Record<string, string>>().notNull(),
    status: text('status').notNull().default('active'), // 'active' | 'frozen' | 'terminated'
    /** funds held at the issuer for this card, in cents */
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('sandbox_cards_token_unique').on(t.token)],
);

export const sandboxAuthorizations = pgTable(
  'sandbox_authorizations',
  {
    id: id(),
    cardToken: text('card_token').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    merchant: text('merchant').notNull(),
    country: text('country').notNull(),
    status: text('status').notNull(), // 'approved' | 'declined' | 'reversed' | 'settled'
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sandbox_authorizations_card_idx').on(t.cardToken)],
);

/** Operations the sandbox has performed, by the caller's operation id: a retry is answered, not done again. */
export const sandboxOperations = pgTable('sandbox_operations', {
  opId: uuid('op_id').primaryKey(),
  operation: text('operation').notNull(),
  cardToken: text('card_token'),
  /** what the first call answered (the issued card for 'issue') */
  result: jsonb('result').$type<Record<string, unknown>>().notNull().default({}),
  /** how many times the id came again after it was done (each answered, none performed) */
  repeats: integer('repeats').notNull().default(0),
  createdAt: createdAt(),
});
