import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { users } from './identity';

/**
 * Statement matching (issue 36): each outside party's columns and matching rules, kept once per source. No row
 * while the built-in defaults (server/modules/statements/sources.ts) are in force.
 */
export const statementSources = pgTable('statement_sources', {
  source: text('source').primaryKey(),
  mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull(),
  rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
  updatedBy: uuid('updated_by').references(() => users.id),
  updatedAt: ts('updated_at').notNull(),
});

/** An uploaded statement and the result of matching it, once per file: the same bytes again answer this row. */
export const statements = pgTable(
  'statements',
  {
    id: id(),
    source: text('source').notNull(),
    fileName: text('file_name').notNull(),
    contentHash: text('content_hash').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    lineCount: integer('line_count').notNull(),
    /** the mapping and rules it was matched with, as they were */
    mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull(),
    rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
    matched: integer('matched').notNull(),
    missingOurs: integer('missing_ours').notNull(),
    missingTheirs: integer('missing_theirs').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('statements_source_hash_unique').on(t.source, t.contentHash),
    index('statements_created_idx').on(t.createdAt),
  ],
);

/**
 * The result, an item per statement line (matched, or missing on our side) and per ledger movement of the
 * period that no line matched (missing on theirs). Unmatched items are settled by a staff note.
 */
export const statementItems = pgTable(
  'statement_items',
  {
    id: id(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => statements.id),
    /** 'matched' | 'missing_ours' | 'missing_theirs' */
    status: text('status').notNull(),
    /** the line's number in the file (header is 1); null for a ledger movement */
    line: integer('line'),
    at: ts('at').notNull(),
    /** signed cents, positive into the platform (as the line's sign convention gives it) */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    reference: text('reference'),
    /** the ledger movements matched, or the one missing on theirs: [{ transfer_id, reference, kind, amount, at }] */
    ledger: jsonb('ledger').$type<Array<Record<string, unknown>>>().notNull().default([]),
    reason: text('reason'),
    note: text('note'),
    resolvedBy: uuid('resolved_by').references(() => users.id),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    index('statement_items_statement_status_idx').on(t.statementId, t.status, t.line),
    index('statement_items_open_idx')
      .on(t.statementId)
      .where(sql`${t.status} <> 'matched' and ${t.resolvedAt} is null`),
  ],
);
