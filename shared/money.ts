import { z } from 'zod';

/**
 * Money is integer minor units (cents) everywhere; numbers cross the API as decimal strings
 * with exactly two decimals. No floating point touches an amount.
 */

/** 100 million in cents: far above any real payment, far below 2^53. */
export const MAX_AMOUNT_CENTS = 10_000_000_000;

export type ParsedMoney = { ok: true; cents: number } | { ok: false; error: string };

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Accepts "1,250.5", "1250.50", 1250.5; refuses signs, more than 2 decimals, text and zero. */
export function parseMoney(input: unknown, opts: { allowZero?: boolean; max?: number } = {}): ParsedMoney {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, error: 'Enter an amount such as 25.00' };
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim().replace(/,/g, '');
  } else {
    return { ok: false, error: 'Amount is required' };
  }
  if (text === '') return { ok: false, error: 'Amount is required' };
  if (/^-/.test(text)) return { ok: false, error: 'The amount must be more than zero' };
  const m = DECIMAL.exec(text);
  if (!m) {
    if (/^\d+\.\d{3,}$/.test(text)) return { ok: false, error: 'Use at most 2 decimal places' };
    return { ok: false, error: 'Enter an amount such as 25.00' };
  }
  const whole = m[1]!.replace(/^0+(?=\d)/, '');
  if (whole.length > 14) return { ok: false, error: 'The amount is too large' };
  const cents = Number(whole) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return { ok: false, error: 'The amount is too large' };
  if (cents === 0 && !opts.allowZero) return { ok: false, error: 'The amount must be more than zero' };
  if (cents > (opts.max ?? MAX_AMOUNT_CENTS)) return { ok: false, error: 'The amount is too large' };
  return { ok: true, cents };
}

/** cents → "1250.00" (what the API answers) */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** cents → "1,250.00" (what people read) */
export function displayMoney(cents: number): string {
  const [whole, frac] = formatMoney(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** An API amount string ("1250.00") → cents; throws on anything else (trusted input only). */
export function centsOf(amount: string): number {
  const r = parseMoney(amount, { allowZero: true, max: Number.MAX_SAFE_INTEGER });
  if (!r.ok) {
    const neg = /^-/.test(amount.trim())
      ? parseMoney(amount.trim().slice(1), { allowZero: true, max: Number.MAX_SAFE_INTEGER })
      : r;
    if (neg.ok) return -neg.cents;
    throw new Error(`not an amount: ${amount}`);
  }
  return r.cents;
}

/** A zod field for amounts in requests: a number or a string, into cents. */
export const moneyField = (required = 'Amount is required', opts: { allowZero?: boolean } = {}) =>
  z
    .unknown()
    .transform((v, ctx) => {
      if (v === undefined || v === null || v === '') {
        ctx.addIssue({ code: 'custom', message: required });
        return z.NEVER;
      }
      const r = parseMoney(v, opts);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.error });
        return z.NEVER;
      }
      return r.cents;
    })
    // What the OpenAPI document shows (the transform itself has no JSON Schema): the canonical forms.
    .meta({
      description: `An amount in USD: a decimal string with at most two decimals ("25.00"), or a number. At most ${formatMoney(MAX_AMOUNT_CENTS)}${opts.allowZero ? '' : '; more than zero'}.`,
      anyOf: [
        { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' },
        {
          type: 'number',
          ...(opts.allowZero ? { minimum: 0 } : { exclusiveMinimum: 0 }),
          maximum: MAX_AMOUNT_CENTS / 100,
        },
      ],
    });

/** Round half up of a / b for non-negative integers, exactly. */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  return (a * 2n + b) / (2n * b);
}
