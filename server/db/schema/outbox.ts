import { bigint, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, id, ts } from './columns';
import { cards } from './cards';

/**
 * The card issuer's outbox: each operation the platform owes the issuer, written in the same
 * transaction as the posting or state change it belongs to, performed by a worker with retries
 * (server/modules/cards/outbox.ts). The id is the operation id the issuer deduplicates on.
 */
export const issuerOperations = pgTable(
  'issuer_operations',
  {
    id: id(),
    /** the order operations were owed in: a card's operations reach the issuer in this order */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** 'issue' | 'load' | 'unload' | 'freeze' | 'unfreeze' | 'terminate' | 'dispute' | 'withdraw_dispute' */
    operation: text('operation').notNull(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    cardToken: text('card_token').notNull(),
    amount: bigint('amount', { mode: 'number' }),
    /** why it is owed: 'card-creation' | 'card-funding' | 'card-withdrawal' | 'card-deletion' | 'card-termination' | 'maintenance' | 'freeze' | 'unfreeze' | 'compensation' */
    purpose: text('purpose').notNull(),
    /** what success and a final failure set off (refunds, the withdrawal's posting, a request's answer) */
    plan: jsonb('plan').$type<Record<string, unknown>>().notNull().default({}),
    /** 'pending' | 'done' | 'failed' */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** when it may next be tried; pushed forward while a worker holds it (its lease) */
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    /** the ledger transfer that gave the customer their money back after a final failure */
    compensationTransferId: uuid('compensation_transfer_id'),
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    // A card's oldest pending operation goes first (outbox.ts claims only that one).
    index('issuer_operations_card_pending_idx').on(t.cardId, t.seq).where(sql`state = 'pending'`),
    index('issuer_operations_due_idx').on(t.nextAttemptAt).where(sql`state = 'pending'`),
    index('issuer_operations_card_idx').on(t.cardId, t.createdAt),
    index('issuer_operations_failed_idx').on(t.completedAt).where(sql`state = 'failed'`),
  ],
);

/** Each reconciliation of the ledger with the issuer: when, how many cards, and what did not match. */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: id(),
    runAt: ts('run_at').notNull(),
    checked: integer('checked').notNull(),
    drift: jsonb('drift')
      .$type<Array<{ card_id: string; ledger: string; issuer: string | null; reason: string }>>()
      .notNull()
      .default([]),
    /** 'job' | 'cli' | 'staff' */
    trigger: text('trigger').notNull(),
  },
  (t) => [index('reconciliation_runs_run_at_idx').on(t.runAt)],
);
