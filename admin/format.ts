import { amountText } from '@shared/ui/wallet/format';
export { DAY, dayPickerProps } from '@shared/ui/forms';
export { dateTime } from '@shared/ui/wallet/format';

/** How the back-office shows amounts and dates: API decimal strings in, never floats. */

/** "1250.00" → "1,250.00 USDT" (wallet amounts are USDT, fees and cards USD). */
export function amount(value: string | null | undefined, currency: 'USDT' | 'USD' | 'GHS' = 'USDT'): string {
  if (value === null || value === undefined || value === '') return '-';
  return `${amountText(value)} ${currency}`;
}

/** "1250.00" → "1,250.00" (no currency, for "old → new" pairs). */
export const plain = (value: string) => amountText(value);
