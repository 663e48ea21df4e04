import { bigint, boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { users } from './identity';

/** Maker-checker (issue 33): whether an action needs a second person, from which amount (cents; null: any). */
export const approvalPolicies = pgTable('approval_policies', {
  action: text('action').primaryKey(),
  required: boolean('required').notNull().default(false),
  minAmount: bigint('min_amount', { mode: 'number' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

/** A staff request a policy held back: the request as made, replayed once when a second person approves. */
export const approvals = pgTable(
  'approvals',
  {
    id: id(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    amount: bigint('amount', { mode: 'number' }),
    summary: text('summary').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    body: jsonb('body').$type<unknown>(),
    initiatorId: uuid('initiator_id')
      .notNull()
      .references(() => users.id),
    initiatorEmail: text('initiator_email').notNull(),
    /** APPROVAL_STATES; 'approved' with no result yet: claimed, being performed (or its process died) */
    state: text('state').notNull().default('pending'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedByEmail: text('decided_by_email'),
    reason: text('reason'),
    resultStatus: integer('result_status'),
    resultBody: jsonb('result_body').$type<unknown>(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    decidedAt: ts('decided_at'),
  },
  (t) => [index('approvals_state_created_idx').on(t.state, t.createdAt)],
);
