import { z } from 'zod';
import { emailField, phoneField, requiredString } from './fields';

export const companyUserRoleField = z.enum(['admin', 'user'], { error: 'Permission is required' });

export const createCompanyUserBody = z.object({
  first_name: requiredString('Full Name is required', 100),
  last_name: requiredString('Last Name is required', 100),
  phone_number: phoneField(),
  email: emailField(),
  role: companyUserRoleField,
});

export const updateCompanyUserBody = z.object({ role: companyUserRoleField });

export interface CompanyUserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  role: 'admin' | 'user';
  state: 'Invited' | 'Active' | 'Deactivated';
  created_at: string;
}
