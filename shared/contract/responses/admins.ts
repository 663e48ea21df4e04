import { z } from 'zod';
import { STAFF_ROLE_KEY_NAMES } from '../roles';
import { personFields, timestamp } from './blocks';

export const apiAdmin = z
  .strictObject({
    ...personFields,
    role: z.enum(STAFF_ROLE_KEY_NAMES),
    state: z
      .enum(['Active', 'Invited', 'Deactivated'])
      .describe('Invited until the password has been set from the mailed link; Deactivated: cannot sign in'),
    created_at: timestamp,
    two_factor: z
      .enum(['on', 'not_set_up', 'reset_pending'])
      .describe(
        'The second factor: on; not set up (never, or since a reset: the next sign-in sets it up); a reset asked and awaiting approval',
      ),
    last_sign_in_at: timestamp.nullable().describe('The last completed sign-in, or null if never'),
    open_sessions: z.number().int().min(0).describe('Sessions not ended, expired or idle'),
    deactivated_at: timestamp.nullable().describe('When they were deactivated, or null while active'),
  })
  .meta({ id: 'ApiAdmin' });

export const endedSessions = z
  .strictObject({
    ended: z.number().int().min(0).describe('How many open sessions were ended'),
    message: z.string(),
  })
  .meta({ id: 'EndedSessions' });
