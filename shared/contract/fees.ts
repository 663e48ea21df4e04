import { z } from 'zod';
import { dateRangeQuery } from './wallet';
import { pageQuery } from './fields';
import type { apiFee } from './responses';

/** A fee value: up to 2 decimals, as a number or a string ("1.50"), into hundredths. */
const feeValueField = z
  .unknown()
  .transform((v, ctx) => {
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    if (s === '') {
      ctx.addIssue({ code: 'custom', message: 'Value is required' });
      return z.NEVER;
    }
    const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: 'Enter a value such as 1.50 (at most 2 decimals)' });
      return z.NEVER;
    }
    return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
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
export const MAX_FEE_VALUE = { percentage: 100_00, fixed: 10_000_00 } as const;

const FEE_RANGE_MESSAGE = {
  percentage: 'A percentage fee must be between 0 and 100',
  fixed: 'A fixed fee must be between 0.00 and 10,000.00 USD',
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

/** '15.5', '15.50' and '015.5000' are one rate, kept as '15.50': at least 2 decimals, no padding beyond. */
export function canonicalRate(v: string): string {
  const [whole = '0', frac = ''] = v.split('.');
  const digits = frac.replace(/0+$/, '').padEnd(2, '0');
  return `${BigInt(whole).toString()}.${digits}`;
}

export const momoUsersQuery = z.object({
  search: z.string().trim().max(100, 'Search is at most 100 characters').optional(),
});

export const momoSyncBody = z.object({
  momo_name: z.string({ error: 'Momo Name is required' }).trim().min(1, 'Momo Name is required').max(100),
  momo_number: z.string({ error: 'Momo Number is required' }).trim().min(1, 'Momo Number is required').max(30),
  network: z.string({ error: 'Mobile Network is required' }).trim().min(1, 'Mobile Network is required').max(60),
  rate: z
    .union([z.number(), z.string()], { error: 'Rate is required' })
    .transform((v) => String(v).trim())
    .refine(
      (v) => /^\d{1,6}(\.\d{1,4})?$/.test(v) && Number(v) > 0,
      'Rate must be a number above 0 with at most 4 decimals',
    )
    .transform(canonicalRate),
  flat_fee: z
    .union([z.number(), z.string()], { error: 'Flat Fee is required' })
    .transform((v) => String(v).trim())
    .refine((v) => /^\d{1,9}(\.\d{1,2})?$/.test(v), 'Flat Fee must be a number with at most 2 decimals'),
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
