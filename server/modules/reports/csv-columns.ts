import type { ApiCard, ApiCardTransaction, ApiTopup, ApiWalletTransaction, ApiWalletTransfer } from '@shared/contract';
import {
  CARD_TX_KIND_NAMES,
  CARD_TX_STATUS_NAMES,
  TOPUP_STATE_NAMES,
  cardStateName,
  walletTxTypeName,
} from '@shared/vocabulary';
import { categoryLabel } from '@shared/merchant-categories';
import type { CsvColumn } from '../../lib/csv';

/**
 * Column sets of the CSV exports: amounts as exact decimals in numeric columns (the currency in the
 * header) so spreadsheets can sum them, dates in ISO 8601 (UTC), states and kinds by the names both
 * apps show (@shared/vocabulary).
 */

export const TOPUP_COLUMNS: CsvColumn<ApiTopup>[] = [
  { header: 'Reference', value: (t) => t.reference },
  { header: 'Name', value: (t) => t.name },
  { header: 'Account Type', value: (t) => t.name_type },
  { header: 'Wallet', value: (t) => t.wallet_id },
  { header: 'Method', value: (t) => t.method },
  { header: 'Amount (USDT)', value: (t) => t.amount, numeric: true },
  { header: 'Fee (USDT)', value: (t) => t.fee, numeric: true },
  { header: 'Credited (USDT)', value: (t) => t.credited, numeric: true },
  { header: 'Amount to send (GHS)', value: (t) => t.momo_amount, numeric: true },
  { header: 'Transaction Hash', value: (t) => t.transaction_hash },
  { header: 'State', value: (t) => TOPUP_STATE_NAMES[t.state] },
  { header: 'Reason', value: (t) => t.reason },
  { header: 'Balance Before', value: (t) => t.balance_before, numeric: true },
  { header: 'Balance After', value: (t) => t.balance_after, numeric: true },
  { header: 'Created', value: (t) => t.created_at },
  { header: 'Last Modified', value: (t) => t.updated_at },
];

export const WALLET_TX_COLUMNS: CsvColumn<ApiWalletTransaction>[] = [
  { header: 'Reference', value: (t) => t.trans_ref },
  { header: 'Transaction Type', value: (t) => walletTxTypeName(t.type) },
  { header: 'Direction', value: (t) => t.direction },
  { header: 'Amount', value: (t) => t.amount, numeric: true },
  { header: 'Total Fees', value: (t) => t.fees, numeric: true },
  { header: 'Associated Card', value: (t) => t.card_number },
  { header: 'Description', value: (t) => t.description },
  { header: 'Balance Before', value: (t) => t.balance_before, numeric: true },
  { header: 'Balance After', value: (t) => t.balance_after, numeric: true },
  { header: 'Date', value: (t) => t.created_at },
];

export const TRANSFER_COLUMNS: CsvColumn<ApiWalletTransfer>[] = [
  { header: 'Transaction Id', value: (t) => t.trans_ref },
  { header: 'Type', value: (t) => t.type },
  { header: 'From Wallet', value: (t) => t.wallet_from },
  { header: 'From', value: (t) => t.from_name },
  { header: 'To Wallet', value: (t) => t.wallet_to },
  { header: 'To', value: (t) => t.to_name },
  { header: 'Amount (USDT)', value: (t) => t.amount, numeric: true },
  { header: 'Reference', value: (t) => t.reference },
  { header: 'Transaction By', value: (t) => t.transferer },
  { header: 'Status', value: (t) => t.status },
  { header: 'Balance Before', value: (t) => t.balance_before, numeric: true },
  { header: 'Balance After', value: (t) => t.balance_after, numeric: true },
  { header: 'Date', value: (t) => t.created_at },
];

export const CARD_COLUMNS: CsvColumn<ApiCard>[] = [
  { header: 'Card Name', value: (c) => c.cardholder },
  { header: 'Card Nickname', value: (c) => c.nickname },
  { header: 'Owner', value: (c) => c.owner_name },
  { header: 'Owner Type', value: (c) => c.owner_type },
  { header: 'Purpose', value: (c) => c.brand },
  { header: 'Card Type', value: (c) => c.type },
  { header: 'Card Number', value: (c) => c.masked_number },
  { header: 'Balance (USD)', value: (c) => c.available, numeric: true },
  { header: 'Ledger (USD)', value: (c) => c.ledger, numeric: true },
  { header: 'Spending Limit (USD)', value: (c) => c.spending_limit, numeric: true },
  { header: 'Spending Control', value: (c) => c.spending_control },
  { header: 'Status', value: (c) => cardStateName(c) },
  { header: 'Flagged', value: (c) => (c.flagged ? 'yes' : 'no') },
  { header: 'Flag Reason', value: (c) => c.flag_reason },
  { header: 'Suspended', value: (c) => (c.suspended ? 'yes' : 'no') },
  { header: 'Date Created', value: (c) => c.created_at },
];

export const CARD_TX_COLUMNS: CsvColumn<ApiCardTransaction>[] = [
  { header: 'Description', value: (t) => t.description },
  { header: 'Kind', value: (t) => CARD_TX_KIND_NAMES[t.kind] },
  { header: 'Status', value: (t) => CARD_TX_STATUS_NAMES[t.status] },
  { header: 'Amount', value: (t) => t.amount, numeric: true },
  { header: 'Currency', value: (t) => t.currency },
  { header: 'Merchant', value: (t) => t.merchant },
  { header: 'MCC', value: (t) => t.mcc },
  { header: 'Category', value: (t) => (t.merchant_category ? categoryLabel(t.merchant_category) : null) },
  { header: 'Country', value: (t) => t.country },
  { header: 'Decline Code', value: (t) => t.decline_code },
  { header: 'Decline Reason', value: (t) => t.decline_reason },
  { header: 'Date Created', value: (t) => t.date_created },
  { header: 'Date Updated', value: (t) => t.date_updated },
];
