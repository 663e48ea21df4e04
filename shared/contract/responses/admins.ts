import { z } from 'zod';
import { STAFF_ROLE_KEY_NAMES } from '../roles';
import { personFields, timestamp } from './blocks';

export const apiAdmin = z
  .strictObject({
    ...personFields,
    role: z.enum(STAFF_ROLE_KEY_NAMES),
    state: z.enum(['Active', 'Invited']).describe('Invited until the password has been set from the mailed link'),
    created_at: timestamp,
  })
  .meta({ id: 'ApiAdmin' });
