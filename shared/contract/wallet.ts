import { z } from 'zod';
import { moneyField } from '../money';
import { pageQuery } from './fields';
import { CHAIN_DEPOSIT_STATUSES, TOPUP_STATES, type TopupState } from './lists';
import type {
  apiChainDeposit,
  apiTopup,
  apiWalletTransaction,
  apiWalletTransfer,
  chainCheck,
  depositAddress,
  momoDetails,
  momoUser,
  recipient,
  topupConfirmed,
  topupInstructions,
  topupTotals,
  transferDone,
  walletTransactionTotals,
} from './responses/wallet';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
// From 1900: the database has no year 0, and nothing here happened before then.
const isRealDay = (v: string) =>
  ISO_DAY.test(v) &&
  v >= '1900-01-01' &&
  !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
  new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

export const dayField = (label: string) =>
  z.string().trim().refine(isRealDay, `${label} must be a date such as 2026-01-31`).optional();

/** start_date and end_date as UTC days, both inclusive. */
export const dateRangeQuery = z
  .object({ start_date: dayField('Start date'), end_date: dayField('End date') })
  .superRefine((v, ctx) => {
    if (v.start_date && v.end_date && v.end_date < v.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'End date must be on or after the start date' });
    }
  });

/** The state from which staff may approve a top-up of each method. */
export const TOPUP_APPROVABLE_FROM = { Tron: 'Hash-provided', Momo: 'MoMo processed' } as const;

/** The states in which a momo agent may confirm a Momo top-up's payment. */
export const MOMO_CONFIRMABLE = ['Pending', 'Hash-provided'] as const satisfies readonly TopupState[];

/** Why an undecided top-up cannot be approved yet (null when it can): the server's refusal, shown before it is tried. */
export function notApprovableYet(t: { method: string; state: string }): string | null {
  if (t.state === 'Approved' || t.state === 'Denied') return null;
  if (t.method === 'Tron' && t.state !== TOPUP_APPROVABLE_FROM.Tron)
    return 'A Tron top-up can be approved once the customer has provided the transaction hash.';
  if (t.method === 'Momo' && t.state !== TOPUP_APPROVABLE_FROM.Momo)
    return 'A Momo top-up can be approved once a momo agent has confirmed the payment.';
  return null;
}
const TOPUP_METHODS = ['tron', 'momo'] as const;

const walletIdField = z.string({ error: 'Wallet is required' }).uuid('Enter a valid wallet id');

export const topupBalanceBody = z.object({
  wallet_id: walletIdField,
  amount: moneyField(),
  method: z.enum(TOPUP_METHODS, { error: 'Method must be tron or momo' }).default('tron'),
});

export const TRON_HASH = /^(0x)?[0-9a-fA-F]{64}$/;

export const topupConfirmBody = z.object({
  reference: z.string({ error: 'Reference is required' }).trim().min(1, 'Reference is required').max(40),
  transaction_hash: z.string().trim().max(100).optional(),
  code: z.string().trim().max(20).optional(),
});

export const transferBody = z.object({
  wallet_id: walletIdField,
  amount: moneyField(),
  reference: z.string().trim().max(140, 'Reference must be at most 140 characters').optional(),
});

/** GET /wallet/recipient/:walletId: the id is checked in the handler, so a malformed one is a 422 on `wallet_id`. */
export const recipientParams = z.object({ walletId: z.string() });
export const recipientWalletId = walletIdField;

export const approveTopupBody = z
  .object({
    topup_id: z.string({ error: 'Top-up is required' }).uuid('Top-up is required'),
    action: z.enum(['approve', 'deny'], { error: 'Action is required' }),
    reason: z.string().trim().max(500, 'Reason must be at most 500 characters').optional(),
    note: z.string().trim().max(500, 'Note must be at most 500 characters').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'deny' && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'A reason is required to deny a top-up' });
  });

export const UNCONFIRMED_NOTE_REQUIRED = 'Say why you approve a payment the chain did not confirm';

/**
 * A Tron top-up whose hash the chain showed paying this wallet this amount. Anything else (not found,
 * another address or amount, the chain not asked or not answering) is approved only with a note.
 */
export function chainConfirmed(t: { method: string; chain_check: ChainCheck | null }): boolean {
  if (t.method !== 'Tron') return true;
  const c = t.chain_check;
  return !!c && c.found && c.matches === true;
}

export const momoConfirmBody = z.object({
  topup_id: z.string({ error: 'Top-up is required' }).uuid('Top-up is required'),
});

export const topupListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    state: z.enum(TOPUP_STATES, { error: 'Unknown state' }).optional(),
    wallet: z.string().uuid('Enter a valid wallet id').optional(),
    company_id: z.string().uuid().optional(),
    individual_id: z.string().uuid().optional(),
    for: z.enum(['company', 'individual']).optional(),
    method: z.enum(['Tron', 'Momo']).optional(),
    /** only the top-ups a momo agent can confirm now (MOMO_CONFIRMABLE) */
    to_confirm: z
      .enum(['true', 'false'], { error: 'to_confirm must be true or false' })
      .transform((v) => v === 'true')
      .optional(),
    /** only the top-ups staff can decide now: a Tron one with its hash, a Momo one an agent confirmed */
    ready: z
      .enum(['true', 'false'], { error: 'ready must be true or false' })
      .transform((v) => v === 'true')
      .optional(),
  }),
);

export const WALLET_TX_TYPES = [
  'deposit',
  'transfer',
  'issuance',
  'topup',
  'withdraw',
  'refund',
  'maintenance',
  'api_fee',
] as const;

/** The wallet movements that concern cards ('Wallet Transactions for Cards', back-office §2.15). */
export const CARD_WALLET_TX_TYPES = ['issuance', 'topup', 'withdraw', 'refund'] as const;

export const walletTransactionsQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    wallet: z.string().uuid('Enter a valid wallet id').optional(),
    type: z.enum(WALLET_TX_TYPES, { error: 'Unknown transaction type' }).optional(),
    company_id: z.string().uuid('Enter a valid company id').optional(),
    individual_id: z.string().uuid('Enter a valid individual id').optional(),
    card_only: z
      .enum(['true', 'false', '1', '0'], { error: 'card_only must be true or false' })
      .transform((v) => v === 'true' || v === '1')
      .optional(),
  }),
);

export const walletTransfersQuery = pageQuery
  .and(dateRangeQuery)
  .and(z.object({ wallet: z.string().uuid('Enter a valid wallet id').optional() }));

export type ApiTopup = z.infer<typeof apiTopup>;

/** What the chain said about a submitted hash: found or not, to where, how much, how deep. */
export type ChainCheck = z.infer<typeof chainCheck>;

export type DepositAddress = z.infer<typeof depositAddress>;

/** A settled USDT transfer to one of the platform's addresses. */
export type ApiChainDeposit = z.infer<typeof apiChainDeposit>;

export const chainDepositListQuery = pageQuery
  .omit({ format: true })
  .and(z.object({ status: z.enum(CHAIN_DEPOSIT_STATUSES, { error: 'Unknown status' }).optional() }));

export const assignChainDepositBody = z.object({
  wallet_id: z.string({ error: 'Wallet is required' }).uuid('Enter a valid wallet id'),
});

export const returnChainDepositBody = z.object({
  note: z
    .string({ error: 'Say how it was returned' })
    .trim()
    .min(1, 'Say how it was returned')
    .max(500, 'Note must be at most 500 characters'),
  return_hash: z
    .string()
    .trim()
    .regex(TRON_HASH, 'A Tron transaction hash is 64 hexadecimal characters')
    .transform((v) => v.replace(/^0x/, '').toLowerCase())
    .optional(),
});

export const sandboxChainTransferBody = z.object({
  to: z
    .string({ error: 'Address is required' })
    .trim()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'Enter a Tron address (34 characters starting with T)'),
  amount: moneyField(),
  confirmations: z.coerce
    .number({ error: 'Confirmations must be a whole number' })
    .int('Confirmations must be a whole number')
    .min(1, 'At least 1 confirmation (1: just mined)')
    .max(10_000, 'At most 10000 confirmations')
    .optional(),
});

export type TopupInstructions = z.infer<typeof topupInstructions>;

export type ApiWalletTransaction = z.infer<typeof apiWalletTransaction>;

export type ApiWalletTransfer = z.infer<typeof apiWalletTransfer>;
/** GET /wallet/recipient/:walletId's answer: whom a transfer would pay, the name shortened. */
export type Recipient = z.infer<typeof recipient>;
/** POST /wallet/transfer's answer. */
export type TransferResult = z.infer<typeof transferDone>;
/** POST /wallet/topup-confirm's answer: a settled matching hash is Approved at once. */
export type TopupConfirmed = z.infer<typeof topupConfirmed>;
/** The `totals` of the top-up lists and of the wallet movements. */
export type TopupTotals = z.infer<typeof topupTotals>;
export type WalletTransactionTotals = z.infer<typeof walletTransactionTotals>;

export type MomoDetails = z.infer<typeof momoDetails>;

/** A customer who may confirm mobile-money payments, as the Super-Admin picks them. */
export type MomoUser = z.infer<typeof momoUser>;
