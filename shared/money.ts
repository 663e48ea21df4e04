import { z } from 'zod';
import { type DecimalProblem, formatDecimal, parseDecimal, unitsOf } from './decimal';

/**
 * Money is integer minor units (cents) everywhere; numbers cross the API as decimal strings
 * with exactly two decimals. No floating point touches an amount.
 */

/** 100 million in cents: far above any real payment, far below 2^53. */
export const MAX_AMOUNT_CENTS = 10_000_000_000;

export type ParsedMoney = { ok: true; cents: number } | { ok: false; error: string };

/** What a person is told, by the one parser's problem. */
const MONEY_PROBLEM: Record<DecimalProblem, string> = {
  missing: 'Amount is required',
  negative: 'The amount must be more than zero',
  zero: 'The amount must be more than zero',
  'too-many-decimals': 'Use at most 2 decimal places',
  'not-a-number': 'Enter an amount such as 25.00',
  'too-large': 'The amount is too large',
};

/** Accepts "1,250.5", "1250.50", 1250.5; refuses signs, more than 2 decimals, text and zero. */
export function parseMoney(input: unknown, opts: { allowZero?: boolean; max?: number } = {}): ParsedMoney {
  const r = parseDecimal(input, {
    scale: 2,
    max: opts.max ?? MAX_AMOUNT_CENTS,
    allowZero: opts.allowZero,
    commas: true,
  });
  return r.ok ? { ok: true, cents: r.units } : { ok: false, error: MONEY_PROBLEM[r.problem] };
}

/** cents → "1250.00" (what the API answers) */
export function formatMoney(cents: number): string {
  return formatDecimal(cents, 2);
}

/** cents → "1,250.00" (what people read) */
export function displayMoney(cents: number): string {
  const [whole, frac] = formatMoney(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** An API amount string ("1250.00") → cents; throws on anything else (trusted input only). */
export function centsOf(amount: string): number {
  return unitsOf(amount, { scale: 2, max: Number.MAX_SAFE_INTEGER, allowZero: true, commas: true, signed: true });
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
