import { type Locator, type Page, expect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { fundWallet } from './support/cards';
import { PASSWORD, isPhone, snap } from './support/flows';
import { withAccountLock } from './support/locks';
import { sessionFor, signedInAs } from './support/session';
import { freshCode, rememberSecret } from './support/totp';

/**
 * Keyboard only (WCAG 2.1.1, 2.4.1, 2.4.7): no click, no tap, no focus() from the test. Tab and
 * Shift+Tab move, Enter and Space act, arrow keys choose. A new customer signs in (2FA set up with
 * a typed code), moves money to another wallet and creates a card.
 */

test.use({ actionTimeout: 30_000 });

const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (or Shift+Tab) until the target has focus, as a keyboard user walks to it. */
async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < (opts.max ?? 60); i++) {
    if (await focused(target)) return;
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The focused element shows a ring: an outline of at least 2 px that is not transparent. */
async function expectFocusRing(target: Locator) {
  const ring = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { width: Number.parseFloat(s.outlineWidth), style: s.outlineStyle, color: s.outlineColor };
  });
  expect(ring.style, 'outline style').not.toBe('none');
  expect(ring.width, 'outline width').toBeGreaterThanOrEqual(2);
  expect(ring.color, 'outline colour').not.toMatch(/rgba\(.*, 0\)|transparent/);
}

test('keyboard only: sign in with a typed 2FA code, transfer to another wallet, create a card', async ({
  page,
  request,
}, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  const staffEmail = project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example';
  const { email } = await verifiedIndividual(request, 'Nana', 'Keyboard');
  const recipient = await verifiedIndividual(request, 'Yaw', 'Tetteh');
  const to = (await sessionFor(request, recipient.email, PASSWORD)).user.wallet_id as string;

  await withAccountLock(email, async () => {
    await test.step('the skip link is the first stop and moves focus to the form', async () => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await expectFocusRing(skip);
      await snap(page, 'keyboard-skip-link', project);
      await page.keyboard.press('Enter');
      await expect(page.locator('main')).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Email')).toBeFocused();
    });

    await test.step('email, password, then the 2FA set up with a typed code', async () => {
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Password')).toBeFocused();
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await expect(page.getByText('Setup your 2FA')).toBeVisible();
      // Read, as a person reads the key off the screen into their app.
      rememberSecret(email, (await page.getByTestId('totp-secret').innerText()).trim());
      // The first box has focus: the code is typed straight away.
      await expect(page.getByRole('textbox', { name: 'OTP Input 1' })).toBeFocused();
      await page.keyboard.type(await freshCode(email), { delay: 20 });
      const confirm = page.getByRole('button', { name: 'Confirm OTP' });
      await tabTo(page, confirm);
      await expectFocusRing(confirm);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
      const saved = page.getByRole('checkbox', { name: 'I have saved my recovery codes somewhere safe' });
      await tabTo(page, saved);
      await page.keyboard.press('Space');
      await expect(saved).toBeChecked();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/portal$/);
    });
  });

  await fundWallet(page, request, staffEmail, '50.00');
  await page.reload();
  await expect(page.getByTestId('wallet-balance')).toContainText('49.75'); // less the Tron top-up fee (0.5%)

  await test.step('a transfer from the dashboard', async () => {
    // The skip link first, then into the screen: the keyboard user passes the menus by.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Enter');
    const open = page.getByRole('button', { name: 'Transfer' });
    await tabTo(page, open);
    await expectFocusRing(open);
    await snap(page, 'keyboard-dashboard-focus', project);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Transfer' });
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByLabel('Destination Wallet'));
    await page.keyboard.type(to);
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('Amount')).toBeFocused();
    await page.keyboard.type('12.34');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard rent');
    await tabTo(page, dialog.getByRole('button', { name: 'Continue', exact: true }));
    await page.keyboard.press('Enter');
    // The last look before the money moves: its Confirm is reached and pressed from the keyboard too.
    const confirm = dialog.getByTestId('transfer-confirm');
    await expect(confirm.getByRole('heading', { name: /^Send USDT 12\.34 to / })).toBeVisible();
    await tabTo(page, confirm.getByRole('button', { name: 'Confirm', exact: true }));
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Completed')).toBeVisible();
    await snap(page, 'keyboard-transfer-done', project);
    await tabTo(page, dialog.getByRole('button', { name: 'Done' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('wallet-balance')).toContainText('37.41');
  });

  await test.step('a first card, from the dashboard’s invitation', async () => {
    const create = page.getByRole('button', { name: 'Create a card' });
    await tabTo(page, create);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/portal\/prepaid-cards$/);
    await expect(page.getByText(isPhone(page) ? 'Swipe to see card features' : 'See card features')).toBeVisible();
    const premium = page.getByRole('group', { name: 'Premium card' }).getByRole('button', { name: 'Create Card' });
    await tabTo(page, premium);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Complete the form below to create your new card')).toBeVisible();

    await tabTo(page, page.getByLabel('First Name'));
    await page.keyboard.type('Nana');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Unique Card Nickname')).toBeFocused();
    await page.keyboard.type(`Keys ${Date.now().toString(36)}`);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Amount', { exact: true })).toBeFocused();
    await page.keyboard.type('10');
    // Card Type is Premium already; Card Purpose: the arrow keys open the list and choose Mastercard.
    const purpose = page.getByRole('combobox', { name: 'Card Purpose' });
    await tabTo(page, purpose);
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.locator('.ant-select-selection-item[title="Mastercard"]')).toBeVisible();
    await expect(page.getByTestId('fee-preview').getByText('All fees are in USD')).toBeVisible();
    await snap(page, 'keyboard-create-card', project);
    const submit = page.getByRole('button', { name: 'Create Card' });
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    const done = page.getByRole('dialog').filter({ hasText: 'Your card has been created successfully' });
    await expect(done).toBeVisible();
    await tabTo(page, done.getByRole('button', { name: 'Continue' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('See all your cards here')).toBeVisible();
    await expect(page.getByText('Nana Keyboard').first()).toBeVisible();
  });
});

/** The element that has focus now, and whether it draws the ring. */
const active = (page: Page) => page.locator('*:focus');

test('focus rings: links, buttons, fields and menu entries in both apps show where the keyboard is', async ({
  page,
}, info) => {
  const project = info.project.name;
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  for (const target of [
    page.getByLabel('Email'),
    page.getByRole('button', { name: 'Reset' }),
    page.getByRole('link', { name: 'Sign Up' }),
    page.getByRole('link', { name: 'Contact us' }),
  ]) {
    await tabTo(page, target);
    await expectFocusRing(target);
  }
  await snap(page, 'keyboard-ring-link', project);

  await signedInAs(page, 'ama@example.com');
  await expect(page.getByText(/Good (morning|afternoon|evening), Ama/)).toBeVisible();
  // The way to the other screens: the side menu's entries on a desktop, the tab bar's on a phone.
  const nav = page.getByRole('navigation', { name: isPhone(page) ? 'Sections' : 'Main menu' });
  for (let i = 0; i < 40 && !(await nav.evaluate((n) => n.contains(document.activeElement))); i++)
    await page.keyboard.press('Tab');
  await expectFocusRing(active(page));
  await snap(page, 'keyboard-ring-menu', project);

  await signedInAs(page, 'admin@cardwallet.example');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expectFocusRing(skip);
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  // The first stop in the back-office's main is a control of the dashboard, ringed as well.
  expect(await active(page).evaluate((el) => el.closest('main') !== null)).toBe(true);
  await expectFocusRing(active(page));
  await snap(page, 'keyboard-ring-back-office', project);
});
