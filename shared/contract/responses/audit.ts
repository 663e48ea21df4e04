import { z } from 'zod';
import { freeForm, id, timestamp } from './blocks';

export const apiAuditEntry = z
  .strictObject({
    id,
    actor_id: id,
    actor_email: z.string(),
    actor_role: z.string(),
    action: z.string().describe('What was done, e.g. topup.approve, card.flag'),
    object_type: z.string(),
    object_id: z.string().nullable(),
    details: freeForm('The request body (secrets removed) and the route'),
    status: z.number().int().describe('The HTTP status of the answer'),
    ip: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiAuditEntry' });
