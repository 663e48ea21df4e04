import { type Page, expect, test } from '@playwright/test';
import { staffToken } from './support/cards';
import { DEMO_PASSWORD, isPhone, logInThroughUi, snap } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * The notification centre (issue 14, part 3): a declined card payment reaches the customer's bell,
 * the entry opens the card, and reading clears the count. Each run makes its own customer.
 */

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, / });
const notes = (page: Page) => page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
const settled = (page: Page) =>
  page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);

test('a declined card payment appears in the bell, opens the card, and reading clears the count', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const staffEmail = isPhone(page) ? 'admin@cardwallet.example' : 'super@cardwallet.example';
  const staff = await staffToken(request, staffEmail, DEMO_PASSWORD);
  const last = `Bell${Date.now().toString(36)}`;
  const customer = await customerWithCards(request, staff, last);
  const pay = await request.post('/api/v1/sandbox/authorizations', {
    headers: { authorization: `Bearer ${staff}` },
    data: {
      card_id: customer.visa.id,
      amount: '900.00',
      merchant: 'Accra Mall Electronics',
      mcc: '5732',
      country: 'GH',
      currency: 'USD',
    },
  });
  expect(pay.status(), await pay.text()).toBe(201);
  const declined = (await pay.json()).data as { approved: boolean; decline_reason: string };
  expect(declined.approved).toBe(false);

  await logInThroughUi(page, customer.email, customer.password);
  // The approved top-up and the declined payment.
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread');
  await snap(page, 'notifications-01-bell', project);

  await bell(page).click();
  const drawer = page.locator('.ant-drawer-open .ant-drawer-content');
  await expect(drawer.getByText('Notifications', { exact: true })).toBeVisible();
  await expect(notes(page)).toHaveCount(2);
  const entry = notes(page).first();
  await expect(entry).toContainText('Card payment of USD 900.00 declined');
  await expect(entry).toContainText(`Reason: ${declined.decline_reason}`);
  await expect(entry).toContainText('(unread)');
  await expect(notes(page).nth(1)).toContainText('was approved');
  await settled(page);
  await snap(page, 'notifications-02-drawer', project);

  await entry.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/portal/prepaid-cards/${customer.visa.id}$`));
  await expect(page.getByRole('heading', { name: customer.visa.nickname, exact: true })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await snap(page, 'notifications-03-card', project);

  await bell(page).click();
  await expect(notes(page)).toHaveCount(2);
  await expect(notes(page).first()).not.toContainText('(unread)');
  await drawer.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(drawer.getByText('All caught up')).toBeVisible();
  await expect(notes(page).filter({ hasText: '(unread)' })).toHaveCount(0);
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');

  // Mail settings: money mails on by default and can be turned off; security mails are locked on.
  await drawer.getByRole('button', { name: 'Settings' }).click();
  const declinedMail = drawer.getByRole('switch', { name: 'Card payment declined' });
  await expect(declinedMail).toBeChecked();
  await expect(drawer.getByRole('switch', { name: 'Two-factor authentication reset' })).toBeDisabled();
  await expect(drawer.getByRole('switch', { name: 'Two-factor authentication reset' })).toBeChecked();
  await expect(drawer.getByText('Verification waiting for review')).toHaveCount(0);
  await declinedMail.click();
  await expect(declinedMail).not.toBeChecked();
  await settled(page);
  await snap(page, 'notifications-04-settings', project);
  const saved = await page.evaluate(async () => {
    const s = JSON.parse(localStorage.getItem('cw.auth')!);
    const r = await fetch('/api/v1/account/notification-settings', {
      headers: { authorization: `Bearer ${atob(s.token)}` },
    });
    return ((await r.json()).data as { type: string; mail: boolean }[]).find((x) => x.type === 'card_payment_declined')!
      .mail;
  });
  expect(saved).toBe(false);
});

test('staff see the review queue in the back-office bell', async ({ page }, info) => {
  await signedInAs(page, isPhone(page) ? 'admin@cardwallet.example' : 'super@cardwallet.example');
  await expect(bell(page)).toBeVisible();
  await bell(page).click();
  const drawer = page.locator('.ant-drawer-open .ant-drawer-content');
  await expect(drawer.getByText('Notifications', { exact: true })).toBeVisible();
  await expect(drawer.getByText('All caught up').or(drawer.getByText(/\d+ unread/))).toBeVisible();
  await settled(page);
  await snap(page, 'notifications-05-staff-drawer', info.project.name);
  await drawer.getByRole('button', { name: 'Settings' }).click();
  await expect(drawer.getByRole('switch', { name: 'Verification waiting for review' })).toBeVisible();
  await settled(page);
  await snap(page, 'notifications-06-staff-settings', info.project.name);
});
