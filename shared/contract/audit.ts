import { z } from 'zod';
import { pageQuery } from './fields';
import type { apiAuditEntry } from './responses/audit';
import { dateRangeQuery } from './wallet';

export const auditListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    actor: z.string().trim().max(254).optional(),
    action: z.string().trim().max(100).optional(),
    object_type: z.string().trim().max(50).optional(),
    object_id: z.string().trim().max(100).optional(),
  }),
);

export type ApiAuditEntry = z.infer<typeof apiAuditEntry>;
