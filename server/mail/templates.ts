import { moneyText } from '@shared/vocabulary';
import type { Mail } from '../lib/mailer';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface Part {
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

/** Every mail has a plain-text body (links on their own line) and a simple HTML twin. */
function compose(to: string, subject: string, p: Part): Mail {
  const text = [
    p.greeting,
    '',
    ...p.paragraphs.flatMap((x) => [x, '']),
    ...(p.action ? [`${p.action.label}:`, p.action.url, ''] : []),
    p.footer ?? 'If you did not expect this message, you can ignore it.',
    '',
    'Cardwallet',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1f2937">
<p>${esc(p.greeting)}</p>
${p.paragraphs.map((x) => `<p>${esc(x)}</p>`).join('\n')}
${p.action ? `<p><a href="${esc(p.action.url)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${esc(p.action.label)}</a></p>` : ''}
<p style="color:#6b7280;font-size:12px">${esc(p.footer ?? 'If you did not expect this message, you can ignore it.')}</p>
</body></html>`;
  return { to, subject, text, html };
}

export const verifyEmailMail = (to: string, name: string, url: string) =>
  compose(to, 'Verify your email address', {
    greeting: `Hello ${name},`,
    paragraphs: ['Thank you for creating a Cardwallet account. Please confirm your email address to finish.'],
    action: { label: 'Verify my email', url },
    footer: 'This link works once and expires in 48 hours.',
  });

export const resetPasswordMail = (to: string, name: string, url: string) =>
  compose(to, 'Reset your password', {
    greeting: `Hello ${name},`,
    paragraphs: ['We received a request to reset the password of your Cardwallet account.'],
    action: { label: 'Set a new password', url },
    footer: 'This link works once and expires in 1 hour. If you did not ask for it, your password stays as it is.',
  });

export const inviteMail = (to: string, name: string, companyName: string, inviter: string, url: string) =>
  compose(to, `You have been invited to join ${companyName} on Cardwallet`, {
    greeting: `Hello ${name},`,
    paragraphs: [`${inviter} has invited you to join ${companyName} on Cardwallet.`],
    action: { label: 'Accept the invitation', url },
    footer: 'This invitation expires in 7 days.',
  });

export const staffInviteMail = (to: string, name: string, url: string) =>
  compose(to, 'Your Cardwallet back-office account', {
    greeting: `Hello ${name},`,
    paragraphs: [
      'An administrator created a back-office account for you. Set your password to get started; at your first login you will set up two-factor authentication.',
    ],
    action: { label: 'Set my password', url },
    footer: 'This link works once and expires in 72 hours.',
  });

export const helpdeskMail = (to: string, m: { name: string; email: string; subject: string; message: string }) => ({
  ...compose(to, `[Help Desk] ${m.subject}`, {
    greeting: `New help desk message from ${m.name} <${m.email}>:`,
    paragraphs: [m.message],
    footer: 'Reply to this mail to answer the customer.',
  }),
  replyTo: m.email,
});

export const passwordChangedMail = (to: string, name: string) =>
  compose(to, 'Your password was changed', {
    greeting: `Hello ${name},`,
    paragraphs: [
      'The password of your Cardwallet account was just changed and every session was signed out.',
      'If this was not you, reset your password at once and contact support.',
    ],
  });

export const momoAlertMail = (
  to: string[],
  t: { reference: string; amount: string; ghs: string; owner: string; code: string },
) => ({
  ...compose(to.join(','), `New Momo top-up ${t.reference}: ${moneyText(t.ghs, 'GHS')}`, {
    greeting: 'A customer started a mobile-money top-up.',
    paragraphs: [
      `Customer: ${t.owner}`,
      `Amount: ${moneyText(t.amount, 'USDT')}, to be paid as ${moneyText(t.ghs, 'GHS')}`,
      `Payment reference: ${t.code}-${t.ghs}`,
      'Confirm it in Momo Wallet Load once the money arrives.',
    ],
    footer: 'You receive this because your address is in the mobile-money alert list.',
  }),
  to,
});

export const accountStatusMail = (to: string, name: string, active: boolean) =>
  compose(to, active ? 'Your account was reactivated' : 'Your account was deactivated', {
    greeting: `Hello ${name},`,
    paragraphs: active
      ? ['Your Cardwallet account was reactivated. You can log in again.']
      : [
          'Your Cardwallet account was deactivated by our team and you can no longer log in. Contact support if you think this is a mistake.',
        ],
  });

/**
 * The mail of a notification: its title as the subject, its body (one paragraph a line) and a
 * button to the screen it is about. Some types close with their own advice.
 */
export const notificationMail = (
  to: string,
  name: string,
  n: { type: string; title: string; body: string; url: string | null },
) =>
  compose(to, n.title, {
    greeting: `Hello ${name},`,
    paragraphs: n.body.split('\n').filter(Boolean),
    action: n.url ? { label: 'Open in Cardwallet', url: n.url } : undefined,
    footer: NOTIFICATION_FOOTERS[n.type],
  });

const NOTIFICATION_FOOTERS: Record<string, string> = {
  topup_denied: 'If you think this is a mistake, reply through the Help Desk and quote the reference.',
  two_factor_reset: 'If you did not ask for this, contact support at once.',
  api_credentials_generated: 'If you did not expect this, revoke the credentials in API Settings and contact support.',
  api_credentials_revoked: 'If you did not expect this, contact support.',
  verification_submitted: 'You receive this because you chose mail for the review queue in your notification settings.',
  topup_review: 'You receive this because you chose mail for the review queue in your notification settings.',
  deposit_unassigned: 'You receive this because you chose mail for the review queue in your notification settings.',
};
