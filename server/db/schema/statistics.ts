import { bigint, boolean, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/*
 * The Statistics screen's kept totals per UTC day (migration 0055; server/db/sql/statistics.sql): kept by triggers in
 * the writing transaction, each statement adding to its backend's slot (pg_backend_pid() % 16). A figure for a range
 * of days is a sum over its days and slots, read instead of the rows themselves (a year of a busy ledger).
 */

/** Net amount posted per day to wallet, card and card-hold accounts; purpose is the card's ('' for wallets). */
export const balanceDayTotals = pgTable(
  'balance_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    accountKind: text('account_kind').notNull(),
    purpose: text('purpose').notNull(),
    slot: integer('slot').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.accountKind, t.purpose, t.slot] })],
);

/** Ledger transfers per day and kind, with the sum of their meta.fees_total. */
export const transferDayTotals = pgTable(
  'transfer_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    slot: integer('slot').notNull(),
    transfers: bigint('transfers', { mode: 'number' }).notNull(),
    fees: bigint('fees', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.slot] })],
);

/** Top-ups per day of their decision ('-infinity' when undecided), method and state. */
export const topupDayTotals = pgTable(
  'topup_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    method: text('method').$type<'Tron' | 'Momo'>().notNull(),
    state: text('state').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.method, t.state, t.slot] })],
);

/** Card transactions per day made, kind and status. */
export const cardTransactionDayTotals = pgTable(
  'card_transaction_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.status, t.slot] })],
);

/** Cards per day made, as card_count counts them. */
export const cardDayTotals = pgTable(
  'card_day_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    ownerType: text('owner_type').notNull(), // 'company' | 'individual'
    purpose: text('purpose').notNull(),
    type: text('type').notNull(),
    /** state = 'Active' (whether or not deleted) */
    active: boolean('active').notNull(),
    /** deleted_at is set */
    deleted: boolean('deleted').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.ownerType, t.purpose, t.type, t.active, t.deleted, t.slot] })],
);
