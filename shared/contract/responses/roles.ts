import { z } from 'zod';
import { PERMISSION_NAMES } from '../permissions';
import { STAFF_ROLE_KEY_NAMES, STAFF_ROLES } from '../roles';

export const apiRole = z
  .strictObject({
    role: z.enum(STAFF_ROLE_KEY_NAMES).describe('The role as the API spells it (`role` of /account/admins)'),
    name: z.enum(STAFF_ROLES).describe('The role as the back-office names it'),
    description: z.string(),
    permissions: z.array(z.strictObject({ permission: z.enum(PERMISSION_NAMES), description: z.string() })),
  })
  .meta({ id: 'ApiRole' });
