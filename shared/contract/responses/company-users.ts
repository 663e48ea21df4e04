import { z } from 'zod';
import { id, timestamp } from './blocks';

export const companyUserRow = z
  .strictObject({
    id,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    role: z.enum(['admin', 'user']).describe('admin = Company-Admin, user = Company-User'),
    state: z.enum(['Invited', 'Active', 'Deactivated']),
    created_at: timestamp,
  })
  .meta({ id: 'CompanyUser' });
