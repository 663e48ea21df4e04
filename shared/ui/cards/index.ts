/** Card screens and pieces shared by the customer portal and the back-office (no app imports here). */
export { CardDetail, type CardDetailProps } from './CardDetail';
export { type ConfirmedCardAction, deleteItems, freezeItems, useConfirmCardAction } from './confirmCardAction';
export { CardFilterDrawer, type CardFilterValues } from './CardFilterForm';
export { CardFace, faceOf, type FaceVariant } from './CardFace';
export { CardTransactionsScreen, type CardTransactionsScreenProps } from './CardTransactionsScreen';
export { CardTransactionDetails, CardTransactionsTable, TxDescription, TxStatusTag } from './CardTransactionsTable';
export { FeeLines, FeePreview } from './FeeLines';
export {
  CONTROL_LABELS,
  cardKind,
  cardOptionLabel,
  cardTypeLabel,
  controlWords,
  dash,
  dateOnly,
  expiryText,
  usd,
  usdCents,
} from './format';
export {
  type CardListFilters,
  type CardScope,
  useCardDetail,
  useCardFeeSchedule,
  useCardList,
  useOwnCardSource,
} from './hooks';
export { CARD_KEYS, refreshCards } from './keys';
export { StatusTag } from './StatusTag';
