import { z } from 'zod';
import { ROLES, VERIFICATION_STATES } from '../roles';
import { id, timestamp, personFields } from './blocks';

const verificationState = z
  .enum(VERIFICATION_STATES)
  .describe('Verification state: Unverified, pending (in review) or Verified');

export const apiUser = z
  .strictObject({
    ...personFields,
    role: z.enum(ROLES),
    state: verificationState.describe(
      "The user's verification state (the company's for company users; staff are Verified)",
    ),
    entities: z
      .array(z.string())
      .describe("Capabilities granted by configuration, e.g. 'momo' for mobile-money payment confirmers"),
    company_id: id.nullable(),
    wallet_id: id
      .nullable()
      .describe(
        "The master wallet id: the user's own for an Individual, the company's for company users, null for staff",
      ),
    created_at: timestamp,
  })
  .meta({ id: 'ApiUser', description: 'The signed-in user.' });

export const apiCompany = z
  .strictObject({
    id,
    company_name: z.string(),
    company_website: z.string(),
    company_email: z.string(),
    company_phone: z.string(),
    state: verificationState,
  })
  .meta({ id: 'ApiCompany' });

export const apiVerificationStatus = z
  .strictObject({
    state: z.enum(['pending', 'approved', 'rejected']),
    reason: z.string().nullable().describe('Why it was rejected'),
    submitted_at: timestamp,
    decided_at: timestamp.nullable(),
  })
  .meta({ id: 'ApiVerificationStatus', description: "The customer's latest KYC/KYB submission." });

const profileShape = {
  user: apiUser,
  company: apiCompany.nullable().describe('The company of a company user; null otherwise'),
  verification: apiVerificationStatus
    .nullable()
    .describe('The latest KYC/KYB submission; null when none (and for staff)'),
};

export const profilePayload = z.strictObject(profileShape).meta({ id: 'ProfilePayload' });

export const sessionPayload = z
  .strictObject({
    access_token: z.string().describe('Send as `Authorization: Bearer <access_token>`'),
    expires_at: timestamp.describe('When the session ends at the latest (it also ends after 30 idle minutes)'),
    ...profileShape,
    recovery_codes: z
      .array(z.string())
      .optional()
      .describe(
        'auth-confirm only: 10 single-use recovery codes (like ABCDE-23456), shown this once; login-recover takes one in place of the authenticator code',
      ),
    recovery_codes_left: z
      .number()
      .int()
      .optional()
      .describe('login-recover only: how many unused recovery codes remain'),
  })
  .meta({ id: 'SessionPayload', description: 'A new session, with the profile.' });

export const loginChallenge = z
  .strictObject({
    token: z.string().describe('Send with the six-digit code to auth-confirm (first login) or login-confirm'),
    qrcode: z
      .string()
      .optional()
      .describe('First login only: a data: URL of the QR code to scan into an authenticator app'),
    secret: z.string().optional().describe('First login only: the TOTP secret, for typing in by hand'),
  })
  .meta({ id: 'LoginChallenge', description: 'The password was right; the second factor is next.' });

export const recoveryCodesIssued = z.strictObject({
  recovery_codes: z.array(z.string()).describe('10 new single-use codes; the earlier ones no longer work'),
  message: z.string(),
});

export const twoFactorStatus = z.strictObject({
  enabled: z.boolean().describe('Whether two-factor authentication is set up'),
  recovery_codes_left: z.number().int().describe('Unused recovery codes'),
});

export const authenticatorEnrolment = z.strictObject({
  qrcode: z.string().describe('Base64 of an SVG QR code to scan into the new authenticator app'),
  secret: z.string().describe('The new TOTP secret, for typing in by hand'),
});

export const individualRegistered = z.strictObject({ id, email: z.string(), message: z.string() });

export const companyRegistered = z.strictObject({
  id: id.describe("The admin user's id"),
  company_id: id,
  email: z.string(),
  message: z.string(),
});

export const resetRequested = z.strictObject({ code: z.literal(202), message: z.string() });

export const passwordSet = z.strictObject({ email: z.string(), message: z.string() });

export const helpdeskSent = z.strictObject({ id, message: z.string() });
