import { z } from 'zod';
import { personFields, timestamp } from './blocks';

export const apiAdmin = z
  .strictObject({
    ...personFields,
    role: z.enum(['admin', 'super-admin']),
    state: z.enum(['Active', 'Invited']).describe('Invited until the password has been set from the mailed link'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiAdmin' });
