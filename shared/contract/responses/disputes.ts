import { z } from 'zod';
import { DISPUTE_REASONS, DISPUTE_STATES } from '../lists';
import { id, money, timestamp } from './blocks';

const evidenceFile = z.strictObject({
  id: id.describe('Download it with GET /files/{id}'),
  name: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});

export const apiDispute = z
  .strictObject({
    id,
    card_id: id,
    card_nickname: z.string(),
    card_last4: z.string().nullable(),
    transaction_id: id.describe('The payment disputed (an authorisation, or a charge without one)'),
    merchant: z.string(),
    payment_amount: money.describe('What the payment cleared'),
    payment_date: timestamp,
    wallet_id: id.describe("The owner's wallet: an Individual's id or a company's id"),
    owner_name: z.string(),
    reason: z.enum(DISPUTE_REASONS),
    amount: money.describe('The amount disputed'),
    explanation: z.string(),
    evidence: z.array(evidenceFile),
    state: z.enum(DISPUTE_STATES),
    provisional_credit: money.describe('What the card was credited when the dispute went to the issuer'),
    credited: money.describe('What the card holds of the dispute now: a provisional credit, or the credit of a win'),
    issuer_reference: z.string().nullable().describe("The issuer's id of the dispute, once sent"),
    submitted_at: timestamp.nullable().describe('When staff sent it to the issuer'),
    resolved_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ApiDispute' });

export const apiDisputeDetail = apiDispute
  .extend({
    history: z.array(
      z.strictObject({
        state: z.enum(DISPUTE_STATES),
        note: z.string().nullable(),
        actor: z.string().describe('Who moved it: a person (name and role), or "Card issuer"'),
        at: timestamp,
      }),
    ),
  })
  .meta({ id: 'ApiDisputeDetail' });
