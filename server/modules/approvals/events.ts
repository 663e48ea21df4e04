import type { NotificationEvent } from '../notifications/service';

/** The checkers: a request waits for a second person. */
export const approvalRequested = (id: string, summary: string, by: string): NotificationEvent => ({
  type: 'approval_requested',
  title: 'A request waits for your approval',
  body: `${by} asks: ${summary}.\nApprove or reject it on Approvals within 24 hours.`,
  link: `/admin/approvals?state=pending&id=${id}`,
  eventKey: `approval:${id}:requested`,
});

/** The maker: their request was decided. */
export const approvalDecided = (
  a: { id: string; summary: string },
  outcome: 'approved' | 'failed' | 'rejected',
  by: string,
  detail?: string | null,
): NotificationEvent => ({
  type: 'approval_decided',
  title:
    outcome === 'approved'
      ? 'Your request was approved and done'
      : outcome === 'failed'
        ? 'Your request was approved but could not be done'
        : 'Your request was rejected',
  body: `${a.summary}.\n${
    outcome === 'rejected'
      ? `${by} rejected it. Reason: ${detail}`
      : outcome === 'failed'
        ? `${by} approved it, but it was refused: ${detail}`
        : `${by} approved it.`
  }`,
  link: `/admin/approvals?id=${a.id}`,
  eventKey: `approval:${a.id}:decided`,
});
