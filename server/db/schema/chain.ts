import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from './columns';
import { users } from './identity';

/**
 * A master wallet's own Tron deposit address, m/44'/195'/0'/0/{index} under the operator's xpub
 * (`xpub_id` names which, so a new key never reuses an old key's numbers). Addresses of an earlier
 * key stay here and stay watched: money sent to them still arrives.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    address: text('address').primaryKey(),
    /** null: an address under our key that no wallet holds (deposits to it go to staff) */
    walletId: uuid('wallet_id'),
    xpubId: text('xpub_id').notNull(),
    derivationIndex: integer('derivation_index').notNull(),
    /** the watcher asks the chain for transfers from this moment on (it moves forward as they settle) */
    scanFrom: ts('scan_from').notNull(),
    /** when the watcher last asked; the oldest is asked first */
    scannedAt: ts('scanned_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deposit_addresses_key_index_unique').on(t.xpubId, t.derivationIndex),
    index('deposit_addresses_wallet_idx').on(t.walletId),
    index('deposit_addresses_scanned_idx').on(t.scannedAt),
  ],
);

/**
 * Every settled USDT transfer the platform has seen to one of its addresses, once per (hash, log
 * index): the row is the claim, so a deposit is credited once, ever, whichever path or instance
 * sees it first. Credited: a top-up took it. Unassigned: staff decide (Assigned to a wallet, or
 * Returned to the sender).
 */
export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: id(),
    hash: text('hash').notNull(),
    logIndex: integer('log_index').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    /** USDT has 6 decimals on Tron: the amount as sent, in millionths */
    amountMicro: bigint('amount_micro', { mode: 'number' }).notNull(),
    /** what it is worth in the platform's cents (millionths below a cent are not credited) */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTime: ts('block_time').notNull(),
    status: text('status').notNull(), // 'Credited' | 'Unassigned' | 'Assigned' | 'Returned'
    /** why staff must decide: 'no-wallet' | 'below-minimum' | 'amount-mismatch' */
    reason: text('reason'),
    walletId: uuid('wallet_id'),
    topupId: uuid('topup_id'),
    note: text('note'),
    returnHash: text('return_hash'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: ts('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('chain_deposits_hash_log_unique').on(t.hash, t.logIndex),
    index('chain_deposits_open_idx').on(t.createdAt).where(sql`${t.status} = 'Unassigned'`),
    index('chain_deposits_wallet_idx').on(t.walletId),
    index('chain_deposits_created_idx').on(t.createdAt, t.id),
    index('chain_deposits_status_created_idx').on(t.status, t.createdAt, t.id),
  ],
);

/**
 * The chain deposits list's totals (migration 0057): deposits by status, kept by triggers in per-backend slots as
 * card_count is.
 */
export const chainDepositCount = pgTable(
  'chain_deposit_count',
  {
    status: text('status').notNull(),
    slot: integer('slot').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.status, t.slot] })],
);

/** What the chain said about a hash a customer submitted, kept on the top-up for staff (one definition, the API's). */
export type { ChainCheck } from '@shared/contract/wallet';

/** The sandbox chain's own ledger of USDT transfers: what TronGrid would answer for mainnet. */
export const sandboxChainTransfers = pgTable(
  'sandbox_chain_transfers',
  {
    hash: text('hash').notNull(),
    logIndex: integer('log_index').notNull().default(0),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amountMicro: bigint('amount_micro', { mode: 'number' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTime: ts('block_time').notNull(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    uniqueIndex('sandbox_chain_transfers_pk').on(t.hash, t.logIndex),
    index('sandbox_chain_transfers_to_idx').on(t.toAddress, t.blockTime),
  ],
);
