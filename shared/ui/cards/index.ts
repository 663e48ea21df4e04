/** Card screens and pieces shared by the customer portal and the back-office (no app imports here). */
export { CardDetail } from './CardDetail';
export { type ConfirmedCardAction, deleteItems, freezeItems, useConfirmCardAction } from './confirmCardAction';
export { overBalanceRule, useConfirmCardMoney, withinCardBalance } from './confirmCardMoney';
export { CountrySelect, MerchantCategorySelect } from './ControlSelects';
export { CardFilterDrawer, type CardFilterValues } from './CardFilterForm';
export { CardTransactionsScreen } from './CardTransactionsScreen';
export { FeePreview } from './FeeLines';
export {
  CONTROL_LABELS,
  cardOptionLabel,
  cardTypeLabel,
  controlWords,
  dash,
  dateOnly,
  usd,
} from './format';
export {
  type CardListFilters,
  useCardFeeSchedule,
  useCardList,
  useOwnCardSource,
} from './hooks';
export { CARD_KEYS, refreshCards } from './keys';
export { StatusTag } from './StatusTag';
