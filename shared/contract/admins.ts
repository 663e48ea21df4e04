import { z } from 'zod';
import { PASSWORD_POLICY_MESSAGE, meetsPasswordPolicy, phoneField, requiredString } from './fields';
import type { apiAdmin } from './responses/admins';
import { STAFF_ROLE_KEY_NAMES } from './roles';

/** A staff member's role as the API spells it: super-admin, admin, compliance, finance, support, auditor. */
export const adminRoleField = z.enum(STAFF_ROLE_KEY_NAMES, { error: 'Permission is required' });

export const createAdminBody = z.object({
  first_name: requiredString('Full Name is required', 100),
  last_name: requiredString('Last Name is required', 100),
  phone_number: phoneField(),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .toLowerCase()
    .pipe(z.email('Enter a valid email address')),
  role: adminRoleField,
});

export const updateAdminBody = z
  .object({
    first_name: requiredString('First Name is required', 100),
    last_name: requiredString('Last Name is required', 100),
    email: z
      .string({ error: 'Email is required' })
      .trim()
      .min(1, 'Email is required')
      .toLowerCase()
      .pipe(z.email('Enter a valid email address')),
    phone_number: phoneField().optional(),
    role: adminRoleField.optional(),
    password: z.string().max(128).optional(),
    confirm_password: z.string().max(128).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.password) {
      if (!meetsPasswordPolicy(v.password))
        ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_POLICY_MESSAGE });
      if (v.password !== v.confirm_password)
        ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'Passwords do not match' });
    }
  });

export type ApiAdmin = z.infer<typeof apiAdmin>;
