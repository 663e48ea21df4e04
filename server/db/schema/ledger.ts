import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';

/**
 * Double-entry ledger. Every money movement is one transfer whose entries sum to zero.
 * Amounts are integer minor units (cents; USDT and USD at 1:1). Entries are immutable:
 * a trigger refuses UPDATE and DELETE; mistakes are corrected by new transfers.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: id(),
    /** 'wallet' | 'card' | 'fee_income' | 'tron_deposits' | 'momo_deposits' | 'card_issuer' */
    kind: text('kind').notNull(),
    /** the wallet's owner (user id of an Individual, company id), the card id, or null for platform accounts */
    ownerId: uuid('owner_id'),
    currency: text('currency').notNull().default('USDT'),
    /** outside-world accounts may go negative: they stand for money outside the platform */
    allowNegative: boolean('allow_negative').notNull().default(false),
    /** the running sum of this account's entries, maintained in the same transaction */
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    /** a balance monitor watches it (issue 36): only then does the ledger's monitor trigger run for it */
    monitored: boolean('monitored').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_kind_owner_unique').on(t.kind, t.ownerId),
    uniqueIndex('ledger_accounts_platform_unique').on(t.kind).where(sql`owner_id is null`),
    // A card's available account may owe (issue 32, migration 0037): only postings that say so take it there (post.ts mayGoNegative).
    check('ledger_accounts_non_negative', sql`${t.allowNegative} or ${t.balance} >= 0 or ${t.kind} = 'card'`),
  ],
);

export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: id(),
    /** 'topup' | 'transfer' | 'issuance' | 'topup_card' | 'withdraw' | 'maintenance' | 'card_spend' | … */
    kind: text('kind').notNull(),
    /** the human reference (trans_ref) */
    reference: text('reference').notNull(),
    description: text('description'),
    /** fee breakdown and anything the reports show about the movement */
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transfers_reference_unique').on(t.reference),
    index('ledger_transfers_kind_created_idx').on(t.kind, t.createdAt),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    /** insertion order: an account's last entry is its highest seq (created_at ties within a transaction) */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    transferId: uuid('transfer_id')
      .notNull()
      .references(() => ledgerTransfers.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** signed: positive credits the account, negative debits it */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceBefore: bigint('balance_before', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // a balance at an instant (issue 36): the last entry at or before it, one lookup
    index('ledger_entries_account_created_seq_idx').on(t.accountId, t.createdAt, t.seq),
    index('ledger_entries_transfer_idx').on(t.transferId),
    index('ledger_entries_account_seq_idx').on(t.accountId, t.seq),
    check('ledger_entries_nonzero', sql`${t.amount} <> 0`),
    check('ledger_entries_arithmetic', sql`${t.balanceAfter} = ${t.balanceBefore} + ${t.amount}`),
  ],
);

/**
 * The totals line of the staff's wallet lists without a wallet (count, amounts and fees of the
 * movements of master wallets per UTC day and transfer kind), kept by a statement trigger on
 * ledger_entries (migration 0018): each posting adds rows, never updates one, so concurrent
 * postings do not wait on each other; compactWalletTotals (housekeeping) folds them per day.
 */
export const walletMovementTotals = pgTable(
  'wallet_movement_totals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    entries: bigint('entries', { mode: 'number' }).notNull(),
    /** sum of |amount| */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** sum of the transfer's meta.fees_total, once per entry (as the list's totals add them) */
    fees: bigint('fees', { mode: 'number' }).notNull(),
    /** entries with amount < 0: the staff's wallet-transfers list counts these */
    debits: bigint('debits', { mode: 'number' }).notNull(),
  },
  (t) => [index('wallet_movement_totals_kind_day_idx').on(t.kind, t.day)],
);

/**
 * The entries of master wallets, kept beside the ledger by the statement trigger that keeps
 * wallet_movement_totals (migration 0023), for the staff's wallet lists over all wallets: newest first,
 * by transfer kind, and the wallet-to-wallet debits. The ledger's own entries cannot be read newest
 * first across every wallet without walking every card and platform entry as well. Append-only, as the
 * ledger is. One wallet's lists read its ledger account's entries directly.
 */
export const walletEntries = pgTable(
  'wallet_entries',
  {
    entryId: uuid('entry_id').notNull(),
    transferId: uuid('transfer_id').notNull(),
    /** the wallet's ledger account (migration 0049): one wallet's own lists read its entries by it */
    accountId: uuid('account_id').notNull(),
    /** the transfer's kind */
    kind: text('kind').notNull(),
    /** the entry takes money out of the wallet (amount < 0) */
    debit: boolean('debit').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('wallet_entries_time_idx').on(t.createdAt, t.entryId),
    index('wallet_entries_kind_time_idx').on(t.kind, t.createdAt, t.entryId),
    index('wallet_entries_transfer_debits_idx')
      .on(t.createdAt, t.transferId)
      .where(sql`${t.kind} = 'transfer' and ${t.debit}`),
    index('wallet_entries_account_time_idx').on(t.accountId, t.createdAt, t.entryId),
    index('wallet_entries_account_kind_time_idx').on(t.accountId, t.kind, t.createdAt, t.entryId),
  ],
);

/**
 * One wallet's totals per UTC day and transfer kind (migration 0049), kept by the same statement
 * trigger as wallet_entries: the totals line of a wallet's own lists, and the day a deep page
 * starts on, without walking the wallet's entries. A row is updated in place by each posting,
 * which holds the wallet's account locked meanwhile.
 */
export const walletAccountTotals = pgTable(
  'wallet_account_totals',
  {
    accountId: uuid('account_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    entries: bigint('entries', { mode: 'number' }).notNull(),
    /** sum of |amount| */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** sum of the transfer's meta.fees_total, once per entry */
    fees: bigint('fees', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day, t.kind] })],
);
