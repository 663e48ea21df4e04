import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cardTransactions, cards } from './cards';
import { createdAt, id, ts, updatedAt } from './columns';

/**
 * A card's owner contests a cleared payment (issue 36): submitted → under_review → won | lost | withdrawn.
 * Amounts in cents; `provisional` is what the card was credited when it went to the issuer, `credited` what the
 * card holds of it now (the provisional credit, or the credit of a won dispute).
 */
export const cardDisputes = pgTable(
  'card_disputes',
  {
    id: id(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    /** the payment disputed: an authorisation with a clearing, or a force-post */
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => cardTransactions.id),
    walletId: uuid('wallet_id').notNull(),
    /** DISPUTE_REASONS */
    reason: text('reason').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    explanation: text('explanation').notNull(),
    /** uploads (server/lib/uploads.ts) of the owner's wallet */
    evidence: uuid('evidence').array().notNull().default(sql`'{}'::uuid[]`),
    /** DISPUTE_STATES */
    state: text('state').notNull(),
    provisional: bigint('provisional', { mode: 'number' }).notNull().default(0),
    credited: bigint('credited', { mode: 'number' }).notNull().default(0),
    /** the issuer's id of the dispute, once it has it */
    issuerReference: text('issuer_reference'),
    /** the issuer's id of its outcome message: performed once */
    resolutionReference: text('resolution_reference'),
    createdBy: uuid('created_by').notNull(),
    submittedAt: ts('submitted_at'),
    resolvedAt: ts('resolved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('card_disputes_open_unique')
      .on(t.transactionId)
      .where(sql`${t.state} IN ('submitted', 'under_review')`),
    uniqueIndex('card_disputes_resolution_unique').on(t.resolutionReference),
    index('card_disputes_created_idx').on(t.createdAt, t.id),
    index('card_disputes_wallet_created_idx').on(t.walletId, t.createdAt),
    index('card_disputes_state_created_idx').on(t.state, t.createdAt),
  ],
);

/** A dispute's history: each state it reached, who moved it (a person, or the issuer) and why. */
export const cardDisputeEvents = pgTable(
  'card_dispute_events',
  {
    id: id(),
    disputeId: uuid('dispute_id')
      .notNull()
      .references(() => cardDisputes.id),
    state: text('state').notNull(),
    note: text('note'),
    actorId: uuid('actor_id'),
    /** the person's name and role, or "Card issuer" */
    actor: text('actor').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('card_dispute_events_dispute_idx').on(t.disputeId, t.createdAt)],
);
