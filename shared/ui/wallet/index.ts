/** Wallet screens and pieces shared by the customer portal and the back-office. */
export { BalanceCard } from './BalanceCard';
export { DateRangeFilter, type DayRange } from './DateRangeFilter';
export { DetailRows, DetailsDrawer, type DetailRow, useDetails } from './DetailsDrawer';
export {
  amountRule,
  amountText,
  dateTime,
  ghs,
  shortId,
  signedUsdt,
  txTypeLabel,
  typedCents,
  usdt,
  usdtCents,
  TX_TYPE_LABELS,
} from './format';
export { refreshWallet, WALLET_KEYS } from './keys';
export { PAGE_SIZE, PagedTable, type CompactRow, type PagedTableProps } from './PagedTable';
export { DirectionTag, TopupStateTag, customerTopupState, topupStateColor } from './StateTag';
export { FeeBreakdown, feeLabel, TopupDetails, TransferDetails, WalletTransactionDetails } from './TransactionDetails';
export { useIsPhone } from './useIsPhone';
export { useWalletBalance, walletBalanceQuery, type WalletBalance } from './useWalletBalance';
export { useLiveWallet } from './useLiveWallet';
export { WalletTransactionsScreen, type WalletTransactionsScreenProps } from './WalletTransactionsScreen';
export { StatementButton, type StatementButtonProps } from './StatementButton';
