import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ChainCheck } from './chain';
import { createdAt, id, ts, updatedAt } from './columns';
import { ledgerTransfers } from './ledger';
import { users } from './identity';

/**
 * A request to load a master wallet: Pending → Hash-provided (Tron hash, or Momo "Paid")
 * → MoMo processed (Momo, by an agent) → Approved (credited once) or Denied (with a reason).
 */
export const topups = pgTable(
  'topups',
  {
    id: id(),
    walletId: uuid('wallet_id').notNull(),
    reference: text('reference').notNull(),
    /** short code the customer quotes with a mobile-money payment */
    code: text('code').notNull(),
    method: text('method').$type<'Tron' | 'Momo'>().notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    state: text('state').notNull().default('Pending'),
    transactionHash: text('transaction_hash'),
    reason: text('reason'),
    /** what the customer was asked to send by mobile money, in pesewas, and the rate used */
    momoAmount: bigint('momo_amount', { mode: 'number' }),
    momoRate: text('momo_rate'),
    momoFlatFee: bigint('momo_flat_fee', { mode: 'number' }),
    fee: bigint('fee', { mode: 'number' }),
    feesMeta: jsonb('fees_meta').$type<Record<string, unknown>>(),
    ledgerTransferId: uuid('ledger_transfer_id').references(() => ledgerTransfers.id),
    /** null for a top-up the deposit watcher opened for a deposit nobody announced */
    createdBy: uuid('created_by').references(() => users.id),
    processedBy: uuid('processed_by').references(() => users.id),
    processedAt: ts('processed_at'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: ts('decided_at'),
    /** approved by the deposit watcher or the hash's own check on the chain, not by a person */
    creditedAutomatically: boolean('credited_automatically').notNull().default(false),
    /** the settled on-chain transfer that paid it (chain_deposits.id) */
    chainDepositId: uuid('chain_deposit_id'),
    /** what the chain said about the submitted hash, for staff */
    chainCheck: jsonb('chain_check').$type<ChainCheck>(),
    /** staff's note with the decision: required to approve a hash the chain did not confirm */
    decisionNote: text('decision_note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('topups_reference_unique').on(t.reference),
    index('topups_wallet_created_idx').on(t.walletId, t.createdAt),
    index('topups_state_updated_idx').on(t.state, t.updatedAt),
    index('topups_state_decided_idx').on(t.state, t.decidedAt),
    // the staff's top-up lists, newest change first
    index('topups_updated_idx').on(t.updatedAt, t.id),
    // their date filter, which is on the day a top-up was made
    index('topups_created_idx').on(t.createdAt),
  ],
);

/**
 * How many top-ups there are and their amounts, by method, owner kind and state (migration 0031): the staff's top-up
 * lists' total and sums, unfiltered or by those three, read from these few rows instead of summed over every top-up.
 * Each statement adds what it inserts, changes or removes to its backend's slot; a figure is a sum over the slots.
 */
export const keptTopupTotals = pgTable(
  'topup_totals',
  {
    method: text('method').notNull(),
    ownerType: text('owner_type').notNull(), // 'company' | 'individual'
    state: text('state').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.method, t.ownerType, t.state, t.slot] })],
);

/** The mobile-money settings: one row. */
export const momoSettings = pgTable('momo_settings', {
  id: integer('id').primaryKey().default(1),
  momoName: text('momo_name').notNull(),
  momoNumber: text('momo_number').notNull(),
  network: text('network').notNull(),
  /** GHS per USDT as a decimal string with up to 4 places */
  rate: text('rate').notNull(),
  /** GHS added to every mobile-money payment, in pesewas */
  flatFee: bigint('flat_fee', { mode: 'number' }).notNull(),
  alertEmails: jsonb('alert_emails').$type<string[]>().notNull().default([]),
  entityUsers: jsonb('entity_users').$type<string[]>().notNull().default([]),
  updatedBy: uuid('updated_by'),
  updatedAt: updatedAt(),
});

/**
 * The fee schedule: the default set (for = 'default') and per-company overrides
 * (for = 'company', for_id = company id). Values are hundredths: 150 = 1.50% or 1.50 USD.
 */
export const fees = pgTable(
  'fees',
  {
    id: id(),
    name: text('name').notNull(),
    type: text('type').notNull(), // 'percentage' | 'fixed'
    value: bigint('value', { mode: 'number' }).notNull(),
    status: text('status').notNull().default('Active'), // 'Active' | 'Inactive'
    for: text('for').notNull().default('default'),
    forId: uuid('for_id'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('fees_name_for_unique').on(t.name, t.for, t.forId).nullsNotDistinct()],
);
