import { z } from 'zod';
import { id, timestamp } from './blocks';

export const apiAdmin = z
  .strictObject({
    id,
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    role: z.enum(['admin', 'super-admin']),
    state: z.enum(['Active', 'Invited']).describe('Invited until the password has been set from the mailed link'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiAdmin' });
