import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns';

/**
 * One row: a check value derived from ENCRYPTION_KEY, so an instance started with another key
 * refuses to start instead of failing to open every sealed value later.
 */
export const keyChecks = pgTable('key_checks', {
  id: integer('id').primaryKey(),
  checkValue: text('check_value').notNull(),
  /** the random secret recovery codes are keyed with, sealed under the current key (rotate-key re-seals it) */
  recoveryKey: text('recovery_key'),
  /** check values of keys rotate-key replaced: an instance started with one is refused */
  retiredChecks: text('retired_checks').array().notNull().default(sql`'{}'`),
  createdAt: createdAt(),
});

/** Idempotency records: one per (principal, key); replayed for 24 hours at least. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull(), // 'in_flight' | 'done'
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    responseContentType: text('response_content_type'),
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
  },
  // created_at: the hourly prune reads the old end of the table only.
  (t) => [primaryKey({ columns: [t.principal, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
