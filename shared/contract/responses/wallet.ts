import { z } from 'zod';
import { CHAIN_DEPOSIT_REASONS, CHAIN_DEPOSIT_STATUSES, TOPUP_STATES } from '../lists';
import { freeForm, id, money, timestamp } from './blocks';

export const topupMethod = z.enum(['Tron', 'Momo']);

const personName = z.strictObject({ first_name: z.string(), last_name: z.string() });

export const chainCheck = z
  .strictObject({
    checked_at: timestamp,
    found: z.boolean(),
    unavailable: z.boolean().optional(),
    to: z.string().optional(),
    amount: money.optional(),
    confirmations: z.number().int().optional(),
    settled: z.boolean().optional(),
    matches: z.boolean().optional(),
  })
  .meta({ id: 'ChainCheck', description: 'What the chain said about a submitted transaction hash.' });

export const apiTopup = z
  .strictObject({
    id,
    reference: z.string(),
    code: z.string().describe('Short code the customer quotes when paying by mobile money'),
    name: z.string().describe("The wallet owner's name"),
    name_type: z.enum(['Individual', 'Company']),
    wallet_id: id,
    amount: money,
    method: topupMethod,
    transaction_hash: z.string().nullable(),
    state: z.enum(TOPUP_STATES),
    reason: z.string().nullable().describe('Why it was denied'),
    fee: money.nullable(),
    credited: money.nullable().describe('What the wallet received (amount less fee), once approved'),
    momo_amount: money.nullable().describe('Mobile money only: the amount to send, in GHS'),
    balance_before: money.nullable(),
    balance_after: money.nullable(),
    loader: z
      .strictObject({ first_name: z.string(), last_name: z.string(), role: z.string() })
      .nullable()
      .describe('Who requested it'),
    company: z.string().nullable(),
    fees_meta: freeForm('The fee breakdown of an approved top-up').nullable(),
    credited_automatically: z
      .boolean()
      .describe('Approved by the chain (the deposit watcher, or the hash checked on the chain), not by a person'),
    decided_by: personName.nullable().describe('The staff member who approved or denied it'),
    chain_check: chainCheck.nullable().describe('Tron: what the chain said about the submitted hash'),
    note: z
      .string()
      .nullable()
      .describe("Staff's note with the decision (required to approve a hash the chain did not confirm); staff only"),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ApiTopup', description: 'A wallet top-up request.' });

export const depositAddress = z
  .strictObject({
    address: z.string().describe('A Tron base58check address (34 characters, starting with T), this wallet’s own'),
    network: z.literal('Tron USDT (TRC20)'),
  })
  .meta({ id: 'DepositAddress', description: 'Where USDT sent on Tron credits this wallet by itself.' });

export const apiChainDeposit = z
  .strictObject({
    id,
    hash: z.string().describe('The Tron transaction id'),
    log_index: z.number().int().describe('Which USDT transfer of the transaction'),
    to: z.string(),
    from: z.string(),
    amount: money,
    block_number: z.number().int(),
    block_time: timestamp,
    status: z.enum(CHAIN_DEPOSIT_STATUSES),
    reason: z
      .enum(CHAIN_DEPOSIT_REASONS)
      .nullable()
      .describe('Why staff decide: no-wallet, below-minimum or amount-mismatch'),
    wallet_id: id.nullable(),
    name: z.string().nullable(),
    topup_reference: z.string().nullable(),
    note: z.string().nullable(),
    return_hash: z.string().nullable(),
    decided_by: personName.nullable(),
    decided_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiChainDeposit', description: 'A settled USDT transfer to one of the platform’s addresses.' });

export const topupInstructions = z
  .strictObject({
    reference: z.string(),
    code: z.string(),
    method: topupMethod,
    amount: money,
    tron: z
      .strictObject({ network: z.string(), address: z.string() })
      .optional()
      .describe('Tron top-ups: where to send the USDT'),
    momo: z
      .strictObject({
        network: z.string(),
        momo_number: z.string(),
        momo_name: z.string(),
        amount_to_send: money.describe('In GHS'),
        currency: z.literal('GHS'),
        pay_reference: z.string(),
      })
      .optional()
      .describe('Mobile-money top-ups: whom to pay, how much and with which reference'),
  })
  .meta({ id: 'TopupInstructions', description: 'How to pay a top-up.' });

export const topupConfirmed = z.strictObject({
  message: z.string(),
  reference: z.string(),
  state: z.enum(TOPUP_STATES),
  transaction_hash: z.string().nullable(),
  chain_check: chainCheck.nullable(),
});

export const sandboxChainTransfer = z.strictObject({
  hash: z.string().describe('64 hexadecimal characters, like a Tron transaction id'),
});

export const topupDecision = z.strictObject({ message: z.string(), state: z.enum(['Approved', 'Denied']) });

export const momoProcessed = z.strictObject({ message: z.string(), state: z.literal('MoMo processed') });

export const recipient = z
  .strictObject({
    name: z.string().describe('A person: first name and the initial of the last ("Yaw T."); a company: its name'),
    type: z.enum(['individual', 'company']),
  })
  .meta({ id: 'Recipient', description: 'Whom a transfer to this wallet pays.' });

export const transferDone = z
  .strictObject({
    message: z.string(),
    id,
    trans_ref: z.string(),
    wallet_from: id,
    wallet_to: id,
    to_name: z.string(),
    amount: money,
    reference: z.string().nullable(),
    status: z.literal('Completed'),
    balance_before: money.describe("The sender's balance before"),
    balance_after: money.describe("The sender's balance after"),
    created_at: timestamp,
  })
  .meta({ id: 'TransferResult' });

export const apiWalletTransaction = z
  .strictObject({
    id,
    trans_ref: z.string(),
    type: z.string().describe('deposit, transfer, issuance, topup, withdraw, refund, maintenance, api_fee, …'),
    direction: z.enum(['credit', 'debit']),
    amount: money,
    fees: money,
    fees_meta: freeForm('The fee breakdown, with the balances before and after').nullable(),
    card_number: z.string().nullable().describe('Masked number of the card concerned, if any'),
    description: z.string().nullable(),
    balance_before: money,
    balance_after: money,
    created_at: timestamp,
  })
  .meta({ id: 'ApiWalletTransaction', description: 'One movement of a master wallet.' });

export const walletTransactionTotals = z.strictObject({ amount: money, fees: money });

export const apiWalletTransfer = z
  .strictObject({
    id,
    trans_ref: z.string(),
    wallet_from: z.string(),
    wallet_to: z.string(),
    from_name: z.string().nullable(),
    to_name: z.string().nullable(),
    amount: money,
    reference: z.string().nullable(),
    transferer: z.string().nullable().describe('Who made the transfer'),
    type: z
      .enum(['Debit', 'Credit', 'Transfer'])
      .describe("Debit or Credit from the named wallet's side; Transfer in staff's unfiltered list"),
    status: z.literal('Completed'),
    balance_before: money.nullable(),
    balance_after: money.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ApiWalletTransfer', description: 'A wallet-to-wallet transfer.' });

export const topupTotals = z.strictObject({
  amount: money.describe('Every top-up matching the filters'),
  received: money.describe('Approved: credited to wallets'),
  pending: money.describe('Not decided yet (Pending, Hash-provided, MoMo processed)'),
  denied: money,
});

export const momoUser = z
  .strictObject({
    id: z.string().uuid(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    company_name: z.string().nullable().describe('The company of a company user'),
  })
  .meta({ id: 'MomoUser', description: 'A customer who may confirm mobile-money payments.' });

export const momoDetails = z
  .strictObject({
    rate: z.string().describe('GHS per USD, up to 4 decimals'),
    flat_fee: money.describe('In GHS'),
    network: z.string(),
    momo_number: z.string(),
    momo_name: z.string(),
    momo_alert_emails: z.array(z.string()).optional().describe('Super-Admin only'),
    entity_users: z.array(z.string()).optional().describe('Super-Admin only: ids of the users who confirm payments'),
    confirmation_users: z
      .array(momoUser)
      .optional()
      .describe('Super-Admin only: the users of entity_users, by name and email'),
  })
  .meta({ id: 'MomoDetails', description: 'Where and how customers pay by mobile money.' });
