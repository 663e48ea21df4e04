/** Wallet screens and pieces shared by the customer portal and the back-office. */
export { BalanceCard } from './BalanceCard';
export { DetailRows, DetailsDrawer, useDetails } from './DetailsDrawer';
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
} from './format';
export { refreshWallet, WALLET_KEYS } from './keys';
export { PAGE_SIZE, PagedTable, type CompactRow } from './PagedTable';
export { DirectionTag, TopupStateTag, topupStateName } from './StateTag';
export { feeLabel, TopupDetails, TransferDetails, WalletTransactionDetails } from './TransactionDetails';
export { useIsPhone } from './useIsPhone';
export { useWalletBalance } from './useWalletBalance';
export { useLiveWallet } from './useLiveWallet';
export { WalletTransactionsScreen } from './WalletTransactionsScreen';
