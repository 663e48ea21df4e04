import { z } from 'zod';
import { pageQuery } from './fields';

/** GET /reconciliation/operations: the card issuer's outbox, failed (default) or still owed; a screen, no CSV export. */
export const issuerOperationsQuery = pageQuery.omit({ format: true }).and(
  z.object({
    state: z.enum(['failed', 'pending', 'done'], { error: 'state must be failed, pending or done' }).default('failed'),
  }),
);

export interface ApiReconciliationDrift {
  card_id: string;
  ledger: string;
  issuer: string | null;
  reason: string;
}

export interface ApiReconciliationRun {
  run_at: string | null;
  checked: number;
  drift: ApiReconciliationDrift[];
}

export interface ApiIssuerOperation {
  id: string;
  operation: 'issue' | 'load' | 'unload' | 'freeze' | 'unfreeze' | 'terminate';
  purpose: string;
  state: 'pending' | 'done' | 'failed';
  card_id: string;
  card_nickname: string;
  card_number: string;
  wallet_id: string;
  amount: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
  /** the ledger transfer that gave the customer their money back, when a failure did */
  refund: { reference: string; amount: string; description: string | null } | null;
}
