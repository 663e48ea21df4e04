import { z } from 'zod';
import { pageQuery } from './fields';
import type { apiIssuerOperation, apiReconciliationRun } from './responses/reconciliation';

/** GET /reconciliation/operations: the card issuer's outbox, failed (default) or still owed; a screen, no CSV export. */
export const issuerOperationsQuery = pageQuery.omit({ format: true }).and(
  z.object({
    state: z.enum(['failed', 'pending', 'done'], { error: 'state must be failed, pending or done' }).default('failed'),
  }),
);

export type ApiReconciliationDrift = ApiReconciliationRun['drift'][number];

export type ApiReconciliationRun = z.infer<typeof apiReconciliationRun>;

export type ApiIssuerOperation = z.infer<typeof apiIssuerOperation>;
