import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns';
import type { AllowedType } from '../../lib/upload-types';
import { users } from './identity';

/**
 * An uploaded document: stored under DATA_DIR/uploads with a random name, its type known from
 * its content, readable only by the account it belongs to and by staff.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    /** the account the document belongs to: an Individual's user id or a company id */
    accountId: uuid('account_id').notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    field: text('field').notNull(),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').$type<AllowedType>().notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storageName: text('storage_name').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_account_idx').on(t.accountId)],
);

/** A KYC (individual) or KYB (company) submission and its review. */
export const verifications = pgTable(
  'verifications',
  {
    id: id(),
    accountType: text('account_type').notNull(), // 'individual' | 'company'
    accountId: uuid('account_id').notNull(),
    submittedBy: uuid('submitted_by')
      .notNull()
      .references(() => users.id),
    state: text('state').notNull().default('pending'), // 'pending' | 'approved' | 'rejected'
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** field name → upload id */
    documents: jsonb('documents').$type<Record<string, string>>().notNull(),
    reason: text('reason'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('verifications_type_state_idx').on(t.accountType, t.state, t.createdAt),
    index('verifications_account_idx').on(t.accountId),
    // the KYC and KYB lists without a state filter, newest first
    index('verifications_type_created_idx').on(t.accountType, t.createdAt, t.id),
  ],
);

/**
 * The KYC and KYB lists' totals (migration 0054): submissions by account type and state, kept by triggers in
 * per-backend slots as card_count is.
 */
export const verificationCount = pgTable(
  'verification_count',
  {
    accountType: text('account_type').notNull(),
    state: text('state').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountType, t.state, t.slot] })],
);

/** Every staff action, who did it, when, and on what. Rows are never changed or removed. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: uuid('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    actorRole: text('actor_role').notNull(),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    status: bigint('status', { mode: 'number' }).notNull(),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_object_idx').on(t.objectType, t.objectId),
  ],
);

/** An audit row as its writer makes it, but for its time (the writer's clock): plugins/audit.ts. */
export type AuditRow = Omit<typeof auditLog.$inferInsert, 'createdAt'> & { id: string };

/**
 * How many rows audit_log holds, by action and object type (migrations 0030, 0031): the trail's total, unfiltered, by
 * action prefix or by object type, read from these few rows instead of counted over the trail. Each insert statement
 * adds its rows to its backend's slot of each pair, so concurrent audited actions seldom wait on the same row; a total
 * is a sum. The trail is append-only.
 */
export const auditLogCount = pgTable(
  'audit_log_count',
  {
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.action, t.objectType, t.slot] })],
);
