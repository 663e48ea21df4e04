import { z } from 'zod';
import { pageQuery, requiredString } from './fields';
import type { apiDocument, apiVerificationDetail, apiVerificationRow } from './responses/verification';
import { dateRangeQuery } from './wallet';

export const ID_TYPES = ['passport', 'driver-license', 'national-id'] as const;

/** KYC text fields (the files travel beside them in the multipart form). */
export const kycFields = z.object({
  id_type: z.enum(ID_TYPES, { error: 'Identification type is required' }).default('national-id'),
  issued_id: requiredString('Issued id details is required', 100),
});
export const KYC_FILES = {
  address_proof: 'Address proof is required',
  selfie_image: 'Selfie with Id is required',
} as const;

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

export const kybFields = z.object({
  registered_name: requiredString('Registered Business name is required', 200),
  company_profile: requiredString('Company profile is required', 5000),
  tax_number: requiredString('Company Tax ID is required', 100),
  incorporation_date: z
    .string({ error: 'Company Incorporation Date is required' })
    .trim()
    .min(1, 'Company Incorporation Date is required')
    .refine(isDay, 'Company Incorporation Date must be a date such as 2015-06-30'),
  operation_countries: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  publicly_listed: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
    .optional()
    .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes'),
});
export const KYB_FILES = {
  shareholder_passport: 'Shareholder passport is required',
  incorporation_certificate: null,
  license: null,
} as const;

export const decideBody = z
  .object({
    verification_id: z.string({ error: 'Verification is required' }).uuid('Verification is required'),
    decision: z.enum(['approve', 'reject'], { error: 'Decision must be approve or reject' }),
    reason: z.string().trim().max(500, 'Reason must be at most 500 characters').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.decision === 'reject' && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'A reason is required to reject a verification' });
  });

export const verificationListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    state: z.enum(['pending', 'approved', 'rejected'], { error: 'Unknown state' }).optional(),
    name: z.string().trim().max(100).optional(),
  }),
);

export type ApiDocument = z.infer<typeof apiDocument>;

export type ApiVerificationRow = z.infer<typeof apiVerificationRow>;

export type ApiVerificationDetail = z.infer<typeof apiVerificationDetail>;
