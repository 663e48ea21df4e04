import { z } from 'zod';
import { emailField, phoneField, requiredString } from './fields';
import type { companyUserRow } from './responses/company-users';

const companyUserRoleField = z.enum(['admin', 'user'], { error: 'Permission is required' });

export const createCompanyUserBody = z.object({
  first_name: requiredString('Full Name is required', 100),
  last_name: requiredString('Last Name is required', 100),
  phone_number: phoneField(),
  email: emailField(),
  role: companyUserRoleField,
});

export const updateCompanyUserBody = z.object({ role: companyUserRoleField });

export type CompanyUserRow = z.infer<typeof companyUserRow>;
