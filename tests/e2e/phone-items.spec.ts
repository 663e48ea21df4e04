import { type Page, type Route, expect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { sessionOf } from './support/cards';
import { PASSWORD, isPhone, snap } from './support/flows';
import { signedInAs } from './support/session';
import { expectStructure } from './support/structure';

/**
 * Issue 31, item 8 at both sizes: the phone's bottom tab bar, the 2FA key a phone can use, the
 * loading skeletons in the shape of what is coming, card balances in the phone's card list and a
 * first card suggested to a new customer.
 */

test.use({ actionTimeout: 30_000 });

const shot = async (page: Page, name: string) => {
  await snap(page, name, test.info().project.name);
  await expectStructure(page, name);
};

test('navigation: a bottom tab bar on phones, the side menu on desktops', async ({ page }) => {
  await signedInAs(page, 'ama@example.com');
  await expect(page.getByText(/Good (morning|afternoon|evening), Ama/)).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Sections' });
  if (!isPhone(page)) {
    await expect(tabs).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    await shot(page, 'nav-desktop-side-menu');
    return;
  }
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toHaveCount(0);
  await expect(tabs).toBeVisible();
  // Fixed at the bottom of the screen, above everything it scrolls over.
  const box = (await tabs.boundingBox())!;
  expect(box.y + box.height).toBeCloseTo(page.viewportSize()!.height, 0);
  await expect(tabs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await shot(page, 'nav-phone-tabs-dashboard');

  await tabs.getByRole('link', { name: 'Cards' }).click();
  await expect(page).toHaveURL(/\/portal\/prepaid-cards$/);
  await expect(tabs.getByRole('link', { name: 'Cards' })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  await tabs.getByRole('link', { name: 'Wallet' }).click();
  await expect(page).toHaveURL(/\/portal\/wallet-loads$/);
  await expect(tabs.getByRole('link', { name: 'Wallet' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Wallet Loads' })).toBeVisible();

  // More: the rest of the portal's menu, in a panel from the bottom.
  await tabs.getByRole('button', { name: 'More' }).click();
  const more = page.getByRole('navigation', { name: 'More sections' });
  await expect(more).toBeVisible();
  await expect(more.getByRole('menuitem', { name: 'Wallet Transfers' })).toBeVisible();
  await expect(more.getByRole('menuitem', { name: 'Prepaid Cards' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'More' })).toHaveAttribute('aria-expanded', 'true');
  await shot(page, 'nav-phone-more');
  await more.getByRole('menuitem', { name: 'Card Spending' }).click();
  await expect(page).toHaveURL(/\/portal\/card-spending$/);
  await expect(more).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Card Spending' })).toBeVisible();
  // A screen of no tab: no tab claims to be the current page.
  await expect(tabs.locator('[aria-current="page"]')).toHaveCount(0);
  await shot(page, 'nav-phone-other-section');
});

test('2FA setup: a link that opens the authenticator on phones, the QR on desktops, the key in groups of four', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email } = await verifiedIndividual(request, 'Esi', 'Authenticator');
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Setup your 2FA')).toBeVisible();

  const key = page.getByTestId('totp-secret');
  const secret = await key.innerText();
  // The groups are drawn apart, yet the text (what a selection copies) is the key itself.
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  expect(await key.locator('span').allInnerTexts()).toEqual(secret.match(/.{1,4}/g));
  const first = (await key.locator('span').nth(0).boundingBox())!;
  const second = (await key.locator('span').nth(1).boundingBox())!;
  expect(second.x - (first.x + first.width)).toBeGreaterThan(3);
  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByRole('button', { name: 'Key copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const open = page.getByRole('link', { name: 'Open in authenticator' });
  const qr = page.getByAltText('QR code for your authenticator app');
  if (isPhone(page)) {
    await expect(open).toBeVisible();
    expect(await open.getAttribute('href')).toBe(
      `otpauth://totp/Cardwallet:${encodeURIComponent(email)}?secret=${secret}&issuer=Cardwallet`,
    );
    // The QR waits for an authenticator on another device.
    await expect(qr).toBeHidden();
    await shot(page, 'totp-setup-phone');
    await page.getByText('Authenticator on another device? Show the QR code').click();
    await expect(qr).toBeVisible();
  } else {
    await expect(qr).toBeVisible();
    await expect(open).toHaveCount(0);
    await shot(page, 'totp-setup-desktop');
  }
});

/** Holds the matching scripts until `release` is called: the screen stays on its loading placeholder. */
async function hold(page: Page, pattern: string) {
  const held: Route[] = [];
  let open = false;
  await page.route(pattern, (route) => {
    if (open) return route.continue();
    held.push(route);
  });
  return async () => {
    open = true;
    for (const r of held.splice(0)) await r.continue().catch(() => undefined);
    await page.unroute(pattern);
  };
}

test('loading: the portal loads in the portal’s shape, the login in the login’s', async ({ page }) => {
  const phone = isPhone(page);
  // Signed in, then the app's code held back: index.html's skeleton stays on show.
  await signedInAs(page, 'ama@example.com');
  let release = await hold(page, '**/assets/*.js');
  await page.goto('/portal', { waitUntil: 'commit' });
  const boot = page.locator('.boot-portal');
  await expect(boot).toBeVisible();
  await expect(page.locator('.boot-login')).toBeHidden();
  await expect(boot.locator('.boot-sider')).toBeVisible({ visible: !phone });
  await expect(boot.locator('.boot-tabbar')).toBeVisible({ visible: phone });
  await expect(boot.locator('.boot-header')).toBeVisible();
  await snap(page, 'loading-portal-first', test.info().project.name);
  await release();
  await expect(page.getByText(/Good (morning|afternoon|evening), Ama/)).toBeVisible();

  // In the app already, the portal's frame held back: its own skeleton has the same shape.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  release = await hold(page, '**/assets/PortalRoot-*.js');
  await page.evaluate(() => {
    window.history.pushState(null, '', '/portal');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  const frame = page.locator('.boot-portal.boot-shown');
  await expect(frame).toBeVisible();
  await expect(frame.locator('.boot-sider')).toBeVisible({ visible: !phone });
  await expect(frame.locator('.boot-tabbar')).toBeVisible({ visible: phone });
  await snap(page, 'loading-portal-in-app', test.info().project.name);
  await release();
  await expect(page.getByText(/Good (morning|afternoon|evening), Ama/)).toBeVisible();

  // Logged out, the login's shape.
  await page.evaluate(() => localStorage.clear());
  release = await hold(page, '**/assets/*.js');
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('.boot-login')).toBeVisible();
  await expect(page.locator('.boot-portal')).toBeHidden();
  await snap(page, 'loading-login', test.info().project.name);
  await release();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
});

test('card list: each card’s balance on a phone; the desktop table keeps the spec’s columns', async ({ page }) => {
  await signedInAs(page, 'ama@example.com');
  const { token, wallet } = await sessionOf(page);
  const res = await page.request.get(`/api/v1/cards/individual/${wallet}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const cards = (await res.json()).data as { masked_number: string; balance: string }[];
  expect(cards.length).toBeGreaterThan(0);
  if (isPhone(page))
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Cards' }).click();
  else await page.getByRole('menuitem', { name: 'Prepaid Cards' }).click();
  await expect(page).toHaveURL(/\/portal\/prepaid-cards$/);
  if (!isPhone(page)) {
    await expect(page.locator('thead th')).toHaveText([
      'Card Name',
      'Card Type',
      'Card Number',
      'Payment Purpose',
      'Status',
      'Date Created',
      'Card Nickname',
    ]);
    await shot(page, 'cards-list-desktop');
    return;
  }
  for (const card of cards.slice(0, 5)) {
    const row = page.locator('.ant-list-item', { hasText: card.masked_number });
    const amount = Number(card.balance).toLocaleString('en-US', { minimumFractionDigits: 2 });
    await expect(row.getByTestId('card-row-balance')).toHaveText(new RegExp(`Balance USD ${amount}$`));
  }
  await shot(page, 'cards-list-phone-balances');
});

test('dashboard: a new customer is invited to create a first card; a customer with cards is not', async ({
  page,
  request,
}) => {
  const { email } = await verifiedIndividual(request, 'Akosua', 'Newcomer');
  await signedInAs(page, email, PASSWORD);
  const invite = page.getByTestId('first-card');
  await expect(invite.getByRole('heading', { name: 'Create your first card' })).toBeVisible();
  await shot(page, 'dashboard-first-card');
  await invite.getByRole('button', { name: 'Create a card' }).click();
  await expect(page).toHaveURL(/\/portal\/prepaid-cards$/);
  await expect(page.getByText(isPhone(page) ? 'Swipe to see card features' : 'See card features')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Premium card' })).toBeVisible();

  await signedInAs(page, 'ama@example.com');
  await expect(page.getByText(/Good (morning|afternoon|evening), Ama/)).toBeVisible();
  await expect(page.getByText('Recent Transactions')).toBeVisible();
  await expect(page.getByTestId('first-card')).toHaveCount(0);
});
