import { z } from 'zod';
import { APPROVAL_ACTION_NAMES, type ApprovalAction } from '../permissions';
import { id, money, timestamp } from './blocks';

const action = z.enum(APPROVAL_ACTION_NAMES as [ApprovalAction, ...ApprovalAction[]]);
const state = z.enum(['pending', 'approved', 'rejected', 'expired', 'failed']);

export const apiApprovalPolicy = z
  .strictObject({
    action,
    required: z.boolean().describe('Whether a second person must approve'),
    min_amount: money.nullable().describe('From which amount the policy applies; null: any amount'),
  })
  .meta({ id: 'ApprovalPolicy' });

/** What a staff request a policy held back answers (202). */
export const approvalPending = z
  .strictObject({ approval_id: id, state: z.literal('pending') })
  .meta({ id: 'ApprovalPending' });

const person = z.strictObject({ id, email: z.string() });

export const apiApproval = z
  .strictObject({
    id,
    action,
    summary: z.string().describe('The request in words, e.g. "Withdraw USD 50.00 from card •••• 4242 of Ama Mensah"'),
    target_type: z.string(),
    target_id: z.string(),
    amount: money.nullable(),
    request: z
      .strictObject({ method: z.string(), path: z.string(), body: z.unknown() })
      .describe('The request as it was made; approving performs it'),
    state,
    initiator: person,
    decided_by: person.nullable(),
    reason: z.string().nullable().describe('Why it was rejected'),
    result: z
      .strictObject({ status: z.number().int(), body: z.unknown() })
      .nullable()
      .describe("The action's own answer once performed (or refused)"),
    created_at: timestamp,
    expires_at: timestamp,
    decided_at: timestamp.nullable(),
  })
  .meta({ id: 'Approval' });
