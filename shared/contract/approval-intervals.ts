/** How often a card's count of approvals starts again (Stripe Issuing's spending-limit intervals, UTC windows). */
export const APPROVAL_INTERVALS = ['daily', 'weekly', 'monthly', 'yearly', 'all_time'] as const;
export type ApprovalInterval = (typeof APPROVAL_INTERVALS)[number];
