import { sql } from 'drizzle-orm';
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
    mcc: text('mcc'),
    status: text('status').notNull(), // 'approved' | 'declined' | 'reversed' | 'settled' | 'expired'
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

/**
 * Every message the sandbox sent the platform about a card, recorded before it is sent: 'pending'
 * until the sandbox has moved its own balance by what the platform answered. A message left
 * pending (the process died in between) is sent again with the same id; the platform answers
 * it without doing it twice.
 */
export const sandboxMessages = pgTable(
  'sandbox_messages',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    cardToken: text('card_token').notNull(),
    authorizationId: uuid('authorization_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state').notNull().default('pending'), // 'pending' | 'done'
    availableDelta: bigint('available_delta', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_messages_pending_idx').on(t.createdAt).where(sql`${t.state} = 'pending'`),
    uniqueIndex('sandbox_messages_expiry_unique').on(t.authorizationId).where(sql`${t.kind} = 'expiry'`),
  ],
);

/** The sandbox issuer's own record of a dispute the platform sent it (issue 36): open until it decides. */
export const sandboxDisputes = pgTable(
  'sandbox_disputes',
  {
    id: id(),
    /** the platform's dispute id */
    platformReference: uuid('platform_reference').notNull(),
    cardToken: text('card_token').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** what the issuer credited the card when the dispute arrived */
    provisional: bigint('provisional', { mode: 'number' }).notNull().default(0),
    status: text('status').notNull().default('open'), // 'open' | 'won' | 'lost' | 'withdrawn'
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('sandbox_disputes_platform_unique').on(t.platformReference)],
);
