import { z } from 'zod';
import { moneyField } from '../money';
import { pageQuery, requiredString, uuidParam } from './fields';
import { DISPUTE_REASONS, DISPUTE_STATES } from './lists';
import type { apiDispute, apiDisputeDetail } from './responses/disputes';
import { dateRangeQuery } from './wallet';

/** Card disputes (issue 36): a card's owner contests a cleared payment; staff send it to the issuer. */

export type ApiDispute = z.infer<typeof apiDispute>;
export type ApiDisputeDetail = z.infer<typeof apiDisputeDetail>;

/** How long after the payment its owner may dispute it. */
export const DISPUTE_WINDOW_DAYS = 120;
export const EVIDENCE_FIELD = 'evidence';
export const MAX_EVIDENCE_FILES = 5;

/** POST /card-transactions/{id}/disputes: as JSON, or as multipart with files in `evidence`. */
export const disputeBody = z.object({
  reason: z.enum(DISPUTE_REASONS, { error: 'Choose a reason' }),
  amount: moneyField('Amount is required'),
  explanation: requiredString('Explain what happened', 2000),
});
export type DisputeBody = z.output<typeof disputeBody>;

/** Submit and withdraw take an optional note for the history. */
export const disputeNoteBody = z
  .object({ note: z.string().trim().max(500, 'Must be at most 500 characters').optional() })
  .default({});

export const resolveDisputeBody = z.object({
  outcome: z.enum(['won', 'lost'], { error: 'outcome must be won or lost' }),
});

export const disputeListQuery = pageQuery.and(dateRangeQuery).and(
  z.object({
    state: z.enum(DISPUTE_STATES, { error: `state must be one of ${DISPUTE_STATES.join(', ')}` }).optional(),
    reason: z.enum(DISPUTE_REASONS, { error: `reason must be one of ${DISPUTE_REASONS.join(', ')}` }).optional(),
    /** staff: one customer's disputes (an Individual's or a company's wallet id) */
    customer: uuidParam.optional().meta({ description: "An Individual's id or a company's id (staff)" }),
    card_id: uuidParam.optional(),
    transaction_id: uuidParam.optional(),
  }),
);
