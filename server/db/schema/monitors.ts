import { bigint, boolean, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';

/**
 * Balance alerts (issue 36, migration 0047): one monitor per account. The ledger's trigger
 * (server/db/sql/monitors.sql) keeps `balance` and decides each crossing under this row's lock.
 */
export const balanceMonitors = pgTable(
  'balance_monitors',
  {
    id: id(),
    /** a wallet id, 'fees', or 'master:general' | 'master:media' | 'master:tokencard' */
    account: text('account').notNull(),
    /** what the alert and the list call the account */
    label: text('label').notNull(),
    currency: text('currency').notNull(),
    /** cents: the alert sounds when a posting takes the balance below this */
    below: bigint('below', { mode: 'number' }).notNull(),
    /** cents: the account's balance (a master balance: the sum of its cards' available balances) */
    balance: bigint('balance', { mode: 'number' }).notNull(),
    /** below the threshold and alerted; armed again once the balance is back at or above it */
    fired: boolean('fired').notNull(),
    /** how many times it alerted */
    crossings: integer('crossings').notNull().default(0),
    firedAt: ts('fired_at'),
    createdBy: uuid('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('balance_monitors_account_unique').on(t.account)],
);
