import { z } from 'zod';
import { emailField, passwordField, phoneField, requiredString, websiteField } from './fields';
import type {
  apiCompany,
  apiUser,
  apiVerificationStatus,
  loginChallenge,
  profilePayload,
  sessionPayload,
} from './responses/account';

const confirmMatches = <T extends { password?: unknown; confirm_password?: unknown }>(v: T, ctx: z.RefinementCtx) => {
  if (v.password !== v.confirm_password) {
    ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'Passwords do not match' });
  }
};

const names = {
  first_name: requiredString('First Name is required', 100),
  last_name: requiredString('Last Name is required', 100),
};

export const registerIndividualBody = z
  .object({
    ...names,
    email: emailField(),
    password: passwordField(),
    confirm_password: z.string({ error: 'Confirm Password is required' }),
    phone_number: phoneField(),
  })
  .superRefine(confirmMatches);

export const registerCompanyBody = z
  .object({
    ...names,
    email: emailField(),
    password: passwordField(),
    confirm_password: z.string({ error: 'Confirm Password is required' }),
    company_name: requiredString('Company Name is required'),
    company_website: websiteField(),
    company_email: emailField('Company Email is required'),
    company_phone: phoneField('Company Phone Number is required', 'Valid Company Phone Number is required'),
  })
  .superRefine(confirmMatches);

export const loginBody = z.object({
  email: emailField(),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(128, 'Password is too long'),
});

const codeField = z
  .string({ error: 'Authentication code is required' })
  .trim()
  .regex(/^\d{6}$/, 'Authentication code must be six digits');

export { LOGIN_EXPIRED, LOGIN_MESSAGES } from './login-messages';

export const confirmBody = z.object({
  token: z.string({ error: 'Login token is required' }).min(1, 'Login token is required').max(200),
  code: codeField,
});

export const resetBody = z.object({ email: emailField() });

/** Recovery codes are ten letters and digits, shown as two groups of five; spaces and dashes are ignored. */
const RECOVERY_CODE_PATTERN = /^[A-Z2-9]{10}$/;
const normaliseRecoveryCode = (s: string) => s.toUpperCase().replace(/[\s-]/g, '');
const recoveryCodeField = z
  .string({ error: 'Recovery code is required' })
  .max(40, 'Enter the code as shown, like ABCDE-23456')
  .transform(normaliseRecoveryCode)
  .refine((s) => s.length > 0, 'Recovery code is required')
  .refine((s) => s.length === 0 || RECOVERY_CODE_PATTERN.test(s), 'Enter the code as shown, like ABCDE-23456');

export const recoverBody = z.object({
  token: z.string({ error: 'Login token is required' }).min(1, 'Login token is required').max(200),
  recovery_code: recoveryCodeField,
});

/**
 * Regenerating recovery codes or moving to a new authenticator: the password and either a code of the
 * current authenticator or (its phone lost) one of the recovery codes, which is then used up.
 */
export const secondFactorCheckBody = z
  .object({
    // Optional here and required below, so a body missing both is told of both at once.
    password: z.string({ error: 'Current password is required' }).max(128).optional(),
    code: codeField.optional(),
    recovery_code: recoveryCodeField.optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'Current password is required' });
    if (v.code === undefined && v.recovery_code === undefined) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'Authentication code is required' });
    }
  });
export const enrolConfirmBody = z.object({ code: codeField });

export const resetTwoFactorBody = z.object({ reason: requiredString('Reason is required', 500) });

export const newPasswordBody = z
  .object({
    token: z.string({ error: 'The link is incomplete' }).min(1, 'The link is incomplete').max(200),
    password: passwordField(),
    confirm_password: z.string({ error: 'Confirm Password is required' }),
  })
  .superRefine(confirmMatches);

export const acceptInviteBody = z.object({
  ...names,
  password: passwordField(),
  token: z.string({ error: 'The invitation link is incomplete' }).min(1, 'The invitation link is incomplete').max(200),
  phone_number: phoneField(),
});

export const helpdeskBody = z.object({
  name: requiredString('Name is required'),
  email: emailField(),
  subject: requiredString('Subject is required'),
  message: requiredString('Message is required', 5000),
});

export const updateIndividualBody = z.object({
  ...names,
  phone_number: phoneField(),
});

export const updateCompanyBody = z.object({
  company_name: requiredString('Company Name is required'),
  company_website: websiteField(),
  company_phone: phoneField('Company Phone Number is required', 'Valid Company Phone Number is required'),
});

export const changePasswordBody = z
  .object({
    old_password: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(128, 'Password must be at most 128 characters'),
    new_password: passwordField('New password is required'),
    confirm_password: passwordField('Confirm password is required'),
  })
  .superRefine((v, ctx) => {
    if (v.new_password !== v.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'Passwords do not match' });
    }
  });

/** What the API says about the signed-in user. */
export type ApiUser = z.infer<typeof apiUser>;

export type ApiCompany = z.infer<typeof apiCompany>;

export type LoginChallenge = z.infer<typeof loginChallenge>;

/** The customer's latest KYC/KYB submission, so screens can say where it stands. */
export type ApiVerificationStatus = z.infer<typeof apiVerificationStatus>;

export type ProfilePayload = z.infer<typeof profilePayload>;

export type SessionPayload = z.infer<typeof sessionPayload>;
