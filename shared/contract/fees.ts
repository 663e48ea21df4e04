import { z } from 'zod';
import { type DecimalRule, formatDecimal, parseDecimal } from '../decimal';
import { pageQuery, phoneField } from './fields';
import type { apiFee } from './responses/fees';
import { dateRangeQuery } from './wallet';

/** Fee values, rates and flat fees by the one parser; the bounds are those the contract has always had. */
const FEE_VALUE_RULE: DecimalRule = { scale: 2, max: 999_999_999_99, allowZero: true };
const RATE_RULE: DecimalRule = { scale: 4, max: 999_999_9999 };
const FLAT_FEE_RULE: DecimalRule = FEE_VALUE_RULE;

const FEE_VALUE_INVALID = 'Enter a value such as 1.50 (at most 2 decimals)';
const RATE_INVALID = 'Rate must be a number above 0 with at most 4 decimals';
const FLAT_FEE_INVALID = 'Flat Fee must be a number with at most 2 decimals';

/** A fee value: up to 2 decimals, as a number or a string ("1.50"), into hundredths. */
const feeValueField = z
  .unknown()
  .transform((v, ctx) => {
    const r = parseDecimal(v, FEE_VALUE_RULE);
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.problem === 'missing' ? 'Value is required' : FEE_VALUE_INVALID });
      return z.NEVER;
    }
    return r.units;
  })
  .meta({
    // what the OpenAPI document shows for the transform
    description:
      'A percentage (0 to 100) or a fixed amount in USD (0.00 to 10,000.00), as the fee type says: at most two decimals, as a string ("1.50") or a number.',
    anyOf: [
      { type: 'string', pattern: '^\\d{1,9}(\\.\\d{1,2})?$' },
      { type: 'number', minimum: 0 },
    ],
  });

export const updateFeeBody = z
  .object({
    value: feeValueField,
    /** 1 = Active, 0 = Inactive (the form sends a number), or the words */
    status: z
      .union([z.literal(1), z.literal(0), z.literal('1'), z.literal('0'), z.literal('Active'), z.literal('Inactive')])
      .optional(),
    for: z.enum(['default', 'company']).optional(),
    for_id: z.string().uuid().nullish(),
    // Read-only on the form; accepted and ignored so the form can send the row as it is.
    name: z.string().optional(),
    type: z.string().optional(),
    for_name: z.string().nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.for === 'company' && !v.for_id)
      ctx.addIssue({ code: 'custom', path: ['for_id'], message: 'Company is required' });
  });

/** The most a fee may be, in hundredths: 100 % for a percentage, 10,000.00 USD for a fixed fee. */
const MAX_FEE_VALUE = { percentage: 100_00, fixed: 10_000_00 } as const;

const FEE_RANGE_MESSAGE = {
  percentage: 'A percentage fee must be between 0 and 100',
  fixed: 'A fixed fee must be between USD 0.00 and USD 10,000.00',
} as const;

/**
 * Why a value (hundredths; never negative once parsed) is out of range for a fee of this type, or
 * null. The server asks it with the stored type (a request's `type` is ignored), the form with the row's.
 */
export function feeOutOfRange(type: 'percentage' | 'fixed', hundredths: number): string | null {
  return hundredths > MAX_FEE_VALUE[type] ? FEE_RANGE_MESSAGE[type] : null;
}

/** The staff form's check of a typed value: the server's own parsing, then the range. */
export function feeValueProblem(type: 'percentage' | 'fixed', raw: unknown): string | null {
  const parsed = feeValueField.safeParse(raw);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Enter a valid value';
  return feeOutOfRange(type, parsed.data);
}

export const feeListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    for: z.enum(['default', 'company']).optional(),
    for_id: z.string().uuid().optional(),
  }),
);

export type ApiFee = z.infer<typeof apiFee>;

const anEmail = z.email();
const aUuid = z.string().uuid();

/** A rate in ten-thousandths → '15.50': at least 2 decimals, no trailing zeros beyond ('12.345'). */
export function rateText(units: number): string {
  return formatDecimal(units, 4).replace(/(\.\d{2}\d*?)0+$/, '$1');
}

/** A decimal field typed by a person: `invalid` for anything the one parser refuses, else the units. */
const typedDecimal = (rule: DecimalRule, required: string, invalid: string) =>
  z.union([z.number(), z.string()], { error: required }).transform((v, ctx) => {
    const r = parseDecimal(v, rule);
    if (r.ok) return r.units;
    ctx.addIssue({ code: 'custom', message: invalid });
    return z.NEVER;
  });

/** The back-office form's checks of a typed rate and flat fee: the server's own parsing. */
export const rateProblem = (raw: string): string | null => (parseDecimal(raw, RATE_RULE).ok ? null : RATE_INVALID);
export const flatFeeProblem = (raw: string): string | null =>
  parseDecimal(raw, FLAT_FEE_RULE).ok ? null : FLAT_FEE_INVALID;

export const momoUsersQuery = z.object({
  search: z.string().trim().max(100, 'Search is at most 100 characters').optional(),
});

export const momoSyncBody = z.object({
  momo_name: z.string({ error: 'Momo Name is required' }).trim().min(1, 'Momo Name is required').max(100),
  momo_number: phoneField('Momo Number is required', 'Valid Momo Number is required'),
  network: z.string({ error: 'Mobile Network is required' }).trim().min(1, 'Mobile Network is required').max(60),
  /** kept as text in one form ('15.5', 15.5 and '015.5000' are all '15.50') */
  rate: typedDecimal(RATE_RULE, 'Rate is required', RATE_INVALID).transform(rateText),
  /** into pesewas */
  flat_fee: typedDecimal(FLAT_FEE_RULE, 'Flat Fee is required', FLAT_FEE_INVALID),
  momo_alert_emails: z
    .union([z.array(z.string()), z.string()], { error: 'MoMo Alert Emails are required' })
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((x) => x.trim().toLowerCase()).filter(Boolean))
    // checked as a whole so the error names the field the person filled in, not an element of it
    .refine((v) => v.length > 0, 'MoMo Alert Emails are required')
    .refine((v) => v.every((e) => anEmail.safeParse(e).success), 'Each alert email must be a valid email address'),
  entity_users: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((v) =>
      v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).map((x) => x.trim()).filter(Boolean),
    )
    .refine((v) => v.every((id) => aUuid.safeParse(id).success), 'Each confirmation user id must be a user id (UUID)'),
});
