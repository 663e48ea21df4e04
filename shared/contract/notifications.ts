/** What the notification centre tells people, by type, and whether mail may be turned off. */
export const NOTIFICATION_TYPES = {
  transfer_received: { label: 'Transfer received', group: 'money' },
  topup_approved: { label: 'Top-up approved', group: 'money' },
  topup_denied: { label: 'Top-up denied', group: 'money' },
  card_payment_declined: { label: 'Card payment declined', group: 'money' },
  card_terminated: { label: 'Card terminated', group: 'money' },
  maintenance_fee_charged: { label: 'Card maintenance fee charged', group: 'money' },
  verification_approved: { label: 'Verification approved', group: 'account' },
  verification_rejected: { label: 'Verification rejected', group: 'account' },
  two_factor_reset: { label: 'Two-factor authentication reset', group: 'security' },
  api_credentials_generated: { label: 'API credentials generated', group: 'security' },
  api_credentials_revoked: { label: 'API credentials revoked', group: 'security' },
  verification_submitted: { label: 'Verification waiting for review', group: 'staff' },
  topup_review: { label: 'Top-up waiting for review', group: 'staff' },
} as const;

export type NotificationType = keyof typeof NOTIFICATION_TYPES;
export type NotificationGroup = (typeof NOTIFICATION_TYPES)[NotificationType]['group'];

/** Money and security mails are on unless turned off; security mails cannot be turned off. */
export const mailOnByDefault = (t: NotificationType) => NOTIFICATION_TYPES[t].group !== 'staff';
export const mailLocked = (t: NotificationType) => NOTIFICATION_TYPES[t].group === 'security';

export interface ApiNotification {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}
