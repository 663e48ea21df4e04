import { z } from 'zod';
import { personFields, timestamp } from './blocks';

export const companyUserRow = z
  .strictObject({
    ...personFields,
    role: z.enum(['admin', 'user']).describe('admin = Company-Admin, user = Company-User'),
    state: z.enum(['Invited', 'Active', 'Deactivated']),
    created_at: timestamp,
  })
  .meta({ id: 'CompanyUser' });
