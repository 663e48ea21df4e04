import { z } from 'zod';
import { id, money, timestamp } from './blocks';

export const apiReconciliationRun = z
  .strictObject({
    run_at: timestamp.nullable().describe('When the last run was; null before the first'),
    checked: z.number().int().describe('Cards compared'),
    drift: z.array(
      z
        .strictObject({
          card_id: id,
          ledger: money.describe("The card's ledger balance (available to spend)"),
          issuer: money.nullable().describe('What the card issuer holds on it; null when it does not know the card'),
          reason: z.string(),
        })
        .meta({ id: 'ApiReconciliationDrift' }),
    ),
  })
  .meta({ id: 'ApiReconciliationRun' });

export const apiIssuerOperation = z
  .strictObject({
    id: id.describe('The operation id the card issuer deduplicates on'),
    operation: z.enum(['issue', 'load', 'unload', 'freeze', 'unfreeze', 'terminate', 'dispute', 'withdraw_dispute']),
    purpose: z.string().describe('Why it was owed, e.g. card-funding, card-withdrawal, maintenance, dispute'),
    state: z.enum(['pending', 'done', 'failed']),
    card_id: id,
    card_nickname: z.string(),
    card_number: z.string().describe('Masked'),
    wallet_id: id,
    amount: money.nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    next_attempt_at: timestamp.nullable().describe('When a pending operation is tried next'),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
    refund: z
      .strictObject({ reference: z.string(), amount: money, description: z.string().nullable() })
      .nullable()
      .describe('The ledger transfer that gave the customer their money back after a final failure'),
  })
  .meta({ id: 'ApiIssuerOperation' });
