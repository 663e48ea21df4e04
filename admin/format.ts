export { DAY, dayPickerProps } from '@shared/ui/forms';
export { dateTime } from '@shared/ui/wallet/format';

/** How the back-office shows dates; amounts are written by the one shared money formatter (@shared/vocabulary). */
