import { z } from 'zod';
import { toE164 } from '../phone';

/** Field builders shared by the client forms and the server, so both say the same thing. */

export const requiredString = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

export const emailField = (required = 'Email is required') =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(254, 'Email must be at most 254 characters')
    .toLowerCase()
    .pipe(z.email('Enter a valid email address'));

/**
 * A phone number, checked against its country and stored in E.164 ("+233241234567"); a trunk 0 after the
 * country code is dropped. The one rule of every field that takes a phone.
 */
export const phoneField = (required = 'Phone Number is required', invalid = 'Valid Phone Number is required') =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(40, invalid)
    .transform((v, ctx) => {
      const e164 = toE164(v);
      if (e164) return e164;
      ctx.addIssue({ code: 'custom', message: invalid });
      return z.NEVER;
    });

/** A UUID of any version, as ids are written: the screens' test of a value that may be an id. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const PASSWORD_POLICY_MESSAGE =
  'Password must be at least 8 characters and include a lowercase letter, an uppercase letter, a digit and a special character';

/** The hint under a new password's field: the rule meetsPasswordPolicy enforces, said before it refuses. */
export const PASSWORD_HINT =
  'At least 8 characters with a lowercase letter, an uppercase letter, a digit and a special character.';

export function meetsPasswordPolicy(v: string): boolean {
  return v.length >= 8 && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && /[^A-Za-z0-9]/.test(v);
}

export const passwordField = (required = 'Password is required') =>
  z
    .string({ error: required })
    .min(1, required)
    .max(128, 'Password must be at most 128 characters')
    .refine(meetsPasswordPolicy, PASSWORD_POLICY_MESSAGE);

export const websiteField = (required = 'Company Website is required') =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(253, 'Must be at most 253 characters')
    .refine(isWebsite, 'Enter a valid website address, such as https://example.com');

export function isWebsite(v: string): boolean {
  try {
    const url = new URL(/^https?:\/\//i.test(v) ? v : `https://${v}`);
    return (url.protocol === 'https:' || url.protocol === 'http:') && /^[^.\s]+(\.[^.\s]+)+$/.test(url.hostname);
  } catch {
    return false;
  }
}

/** An id in a path. One that is not a uuid names nothing: the server answers 404, as for an unknown id. */
export const uuidParam = z.string().uuid();
/** The params of a path whose one parameter is `:id` (`/cards/:id`, `/wallet/chain-deposits/:id/assign`). */
export const idParams = z.object({ id: uuidParam });

export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page must be a whole number from 1' })
    .int('page must be a whole number from 1')
    .min(1, 'page must be a whole number from 1')
    .default(1),
  per_page: z.coerce
    .number({ error: 'per_page must be a whole number from 1 to 100' })
    .int('per_page must be a whole number from 1 to 100')
    .min(1, 'per_page must be a whole number from 1 to 100')
    .max(100, 'per_page must be a whole number from 1 to 100')
    .default(25),
  /** csv streams the whole filtered list as a download instead of one page */
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** The full-name input of the sign-up, invite and add-user forms: split at the first space. */
export function splitFullName(fullName: string): { first_name: string; last_name: string } {
  const trimmed = fullName.trim().replace(/\s+/g, ' ');
  const at = trimmed.indexOf(' ');
  return at < 0
    ? { first_name: trimmed, last_name: '' }
    : { first_name: trimmed.slice(0, at), last_name: trimmed.slice(at + 1) };
}
