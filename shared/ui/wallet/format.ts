import dayjs from 'dayjs';
import { centsOf, displayMoney, parseMoney } from '../../money';
import { centsText, moneyText, signedMoneyText, walletTxTypeName } from '../../vocabulary';

/**
 * How wallet screens write amounts and dates. Amounts arrive as decimal strings ("1250.00",
 * sometimes "1,250.00"); they are read into cents and written back with thousands separators,
 * never through a float.
 */

/** "1250.5" → "1,250.50"; anything unreadable (or missing) → "-". */
export function amountText(amount: string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '-';
  try {
    return displayMoney(centsOf(amount));
  } catch {
    return amount;
  }
}

/** "USDT 1,250.00" */
export const usdt = (amount: string | null | undefined) => moneyText(amount, 'USDT');

/** "GHS 4,655.00" */
export const ghs = (amount: string | null | undefined) => moneyText(amount, 'GHS');

/** "+ USDT 497.50" for money in, "- USDT 45.50" for money out. */
export const signedUsdt = (amount: string, direction: 'credit' | 'debit') => signedMoneyText(amount, direction, 'USDT');

/** cents → "USDT 1,250.00" */
export const usdtCents = (cents: number) => centsText(cents, 'USDT');

/** An ISO instant in the viewer's time zone: "12 May 2026, 14:05". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = dayjs(iso);
  return d.isValid() ? d.format('D MMM YYYY, HH:mm') : iso;
}

export const txTypeLabel = walletTxTypeName;

/** "ab12…ef90": long hashes and ids in narrow places (the full value stays in the title/copy). */
export function shortId(value: string | null | undefined, head = 8, tail = 6): string {
  if (!value) return '-';
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}

/** A form rule for amounts typed by people ("1,250.50"), with parseMoney's messages. */
export const amountRule = (required = 'Amount is required') => ({
  validator: (_: unknown, value: unknown) => {
    if (value === undefined || value === null || String(value).trim() === '')
      return Promise.reject(new Error(required));
    const r = parseMoney(value);
    return r.ok ? Promise.resolve() : Promise.reject(new Error(r.error));
  },
});

/** cents typed so far, or null while the field is empty or not an amount yet. */
export function typedCents(value: unknown): number | null {
  const r = parseMoney(value);
  return r.ok ? r.cents : null;
}
