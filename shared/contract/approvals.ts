import { z } from 'zod';
import { parseMoney } from '../money';
import { pageQuery } from './fields';
import { APPROVAL_ACTIONS, APPROVAL_ACTION_NAMES, type ApprovalAction } from './permissions';
import type { apiApproval, apiApprovalPolicy } from './responses/approvals';

/** An approval's life: pending until a second person decides, or 24 hours pass. */
export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'failed'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** The actions whose request carries an amount, so a policy may start from one. */
export const AMOUNT_ACTIONS: readonly ApprovalAction[] = [
  'card.fund',
  'card.withdraw',
  'topup.approve',
  'deposit.assign',
  'deposit.return',
];

export const APPROVAL_ACTION_LABELS: Record<ApprovalAction, string> = {
  'card.fund': 'Fund a card',
  'card.withdraw': 'Withdraw from a card',
  'card.delete': 'Delete a card',
  'topup.approve': 'Approve a top-up',
  'deposit.assign': 'Assign a chain deposit',
  'deposit.return': 'Return a chain deposit',
  'fee.change': 'Change a fee',
  'admin.create': 'Add a staff member',
  'admin.role_change': "Change a staff member's role",
  'two_factor.reset': "Reset a person's second factor",
  'customer.deactivate': 'Deactivate a customer',
};

const UNKNOWN_ACTION = `action must be one of ${APPROVAL_ACTION_NAMES.join(', ')}`;

const policyItem = z
  .object({
    action: z.enum(APPROVAL_ACTION_NAMES as [ApprovalAction, ...ApprovalAction[]], { error: UNKNOWN_ACTION }),
    required: z.boolean({ error: 'required must be true or false' }),
    min_amount: z
      .unknown()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === null || v === '') return null;
        const r = parseMoney(v, { allowZero: true });
        if (!r.ok) {
          ctx.addIssue({ code: 'custom', message: `min_amount: ${r.error}` });
          return z.NEVER;
        }
        return r.cents;
      })
      .meta({
        description:
          'From which amount (USD, "50.00" or a number, at least 0) the policy applies; null or absent: any amount. Only for the actions that carry an amount.',
        anyOf: [{ type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' }, { type: 'number', minimum: 0 }, { type: 'null' }],
      }),
  })
  .superRefine((p, ctx) => {
    if (p.min_amount !== null && !AMOUNT_ACTIONS.includes(p.action))
      ctx.addIssue({
        code: 'custom',
        path: ['min_amount'],
        message: `${p.action} carries no amount: min_amount must be null`,
      });
  });

/** PUT /approval-policies: the policies to change (the others stay as they are). */
export const approvalPoliciesBody = z
  .array(policyItem, { error: 'Send a list of { action, required, min_amount }' })
  .min(1, 'Send at least one policy')
  .max(APPROVAL_ACTION_NAMES.length, `At most ${APPROVAL_ACTION_NAMES.length} policies`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const p of list) {
      if (seen.has(p.action)) ctx.addIssue({ code: 'custom', message: `${p.action} is listed twice` });
      seen.add(p.action);
    }
  });

export const approvalListQuery = pageQuery.omit({ format: true }).extend({
  state: z.enum(APPROVAL_STATES, { error: `state must be one of ${APPROVAL_STATES.join(', ')}` }).optional(),
});

export const rejectApprovalBody = z.object({
  reason: z
    .string({ error: 'Reason is required' })
    .trim()
    .min(1, 'Reason is required')
    .max(500, 'Reason must be at most 500 characters'),
});

/** Who may check an action: whoever's role holds the action's permission. */
export const approvalPermission = (action: ApprovalAction) => APPROVAL_ACTIONS[action];

export type ApiApproval = z.infer<typeof apiApproval>;
export type ApiApprovalPolicy = z.infer<typeof apiApprovalPolicy>;
