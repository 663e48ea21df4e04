import { type Browser, type Page, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, isPhone, motionless, openDropdown, openMenuOf, snap as snapNow, visit } from './support/flows';
import { signedInAs } from './support/session';
import { expectStructure } from './support/structure';

/**
 * Every screen of both apps as each role, at both sizes, checked by axe-core (WCAG 2.1 A and AA,
 * no serious or critical finding: see support/axe.ts, which every snap runs). The journeys check
 * the panels, modals and drawers they open the same way; this tour makes sure no screen is left
 * out. It only reads, so it runs beside the journeys on the same demo data.
 */

test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
/** axe, and then what axe does not check: one h1, main and nav landmarks, the skip link first. */
const snap = async (page: Page, name: string) => {
  await snapNow(page, `a11y-${name}`, test.info().project.name);
  await expectStructure(page, name);
};

/** Collects what the browser warns about: a route must not warn (e.g. React Router's HydrateFallback). */
function watchConsole(page: Page) {
  const said: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') said.push(m.text());
  });
  return said;
}

/** A second person's browser, as this project's. */
const contextOptions = () => {
  const { baseURL, viewport, isMobile, hasTouch, deviceScaleFactor, userAgent } = test.info().project.use;
  return { baseURL, viewport, isMobile, hasTouch, deviceScaleFactor, userAgent };
};

/** Another person signed in, in a browser of their own at this project's size; its console watched from the start. */
async function signedIn(browser: Browser, email: string) {
  const other = await (await browser.newContext(contextOptions())).newPage();
  const said = watchConsole(other);
  await signedInAs(other, email);
  await settled(other);
  return { page: other, said };
}

/** No route warned (React Router's "No `HydrateFallback` element provided"). */
const expectNoHydrateWarning = (said: string[]) => expect(said.filter((s) => /HydrateFallback/.test(s))).toEqual([]);

/** The account menu, checked open; left closed. */
async function checkAccountMenu(page: Page, name: string) {
  await openDropdown(page, page.getByRole('button', { name: /Account menu|account menu/ }));
  await snap(page, name);
  await page.keyboard.press('Escape');
  await expect(openMenuOf(page)).toHaveCount(0);
}

/** The Profile drawer from the account menu, checked on each of its views; left open. */
async function checkProfile(page: Page, name: string, views: string[]) {
  const menu = await openDropdown(page, page.getByRole('button', { name: /Account menu|account menu/ }));
  await menu.getByRole('menuitem', { name: 'Profile' }).click();
  await motionless(page);
  const drawer = page.locator('.ant-drawer-open .ant-drawer-content');
  await expect(drawer).toBeVisible();
  await snap(page, name);
  for (const view of views) {
    await drawer.getByText(view, { exact: true }).click();
    await expect(drawer.locator('.ant-segmented-item-selected')).toHaveText(view);
    await snap(page, `${name}-${view.toLowerCase().replace(/\s+/g, '-')}`);
  }
  return drawer;
}

/** Closes the drawer that is open. */
async function closeDrawer(page: Page) {
  await page.locator('.ant-drawer-open').getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('.ant-drawer-open')).toHaveCount(0);
}

/** The Logout confirmation, checked open, then cancelled (the session goes on). */
async function checkLogoutConfirmation(page: Page, name: string) {
  const menu = await openDropdown(page, page.getByRole('button', { name: /Account menu|account menu/ }));
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm.getByText('Are you sure you want to logout?')).toBeVisible();
  await motionless(page);
  await snap(page, name);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
}

/** Waits until the screen has its content: no spinner or skeleton left. */
async function settled(page: Page) {
  // Not 'networkidle': some screens poll (a queue that is working), so the network never rests.
  await page.waitForLoadState('load');
  await expect(page.locator('#root h1, #root h2, #root h3, #root h4, #root form').first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0, { timeout: 30_000 });
}

async function tour(page: Page, role: string, paths: string[]) {
  for (const path of paths) {
    await visit(page, path, { newScreen: true });
    await settled(page);
    await expect(page.locator('h1, h2, h3, h4').first(), `${path} shows a heading`).toBeVisible();
    await snap(page, `${role}${path.replace(/[/?=&]+/g, '-')}`);
  }
}

const LOGGED_OUT = [
  '/login',
  '/contact',
  '/onboarding',
  '/onboarding/signup',
  '/onboarding/company',
  '/onboarding/error',
  '/no-such-page',
];
const PORTAL = [
  'wallet-loads',
  'wallet-transfers',
  'wallet-transactions',
  'prepaid-cards',
  'card-spending',
  'card-transactions',
  'disputes',
  'kycverifications',
  'faq',
  'help-desk',
];
const COMPANY_ADMIN = ['users', 'apisettings', 'apisettings/guide'];
const STAFF = [
  'verifications-individuals',
  'verifications-companies',
  'customers-individuals',
  'customers-companies',
  'third-parties',
  'audit-logs',
  'reconciliation',
  'wallet-loads',
  'wallet-transfers',
  'chain-deposits',
  'card-transfers',
  'card-maintenance',
  'wallet-transactions',
  'card-transactions',
  'cards',
  'cards/deleted',
  'cards/flagged',
  'program-controls',
  'reports/statistics',
  'approvals',
  'disputes',
  'statements',
  'statements/sources',
];
// Screens the Admin does not have (Finance shares the balance alerts).
const SUPER_ADMIN_ONLY = ['fees', 'administration-admins', 'momo', 'approval-policies', 'balance-monitors'];

test('logged out: every screen is accessible, and no route warns', async ({ page }) => {
  const said = watchConsole(page);
  await tour(page, 'out', LOGGED_OUT);
  expectNoHydrateWarning(said);
});

test('an individual: every portal screen, the account menu and the profile', async ({ page }) => {
  test.setTimeout(300_000);
  const said = watchConsole(page);
  await signedInAs(page, 'ama@example.com');
  await settled(page);
  await snap(page, 'ind-dashboard');
  await tour(
    page,
    'ind',
    PORTAL.map((p) => `/portal/${p}`),
  );

  await visit(page, '/portal/prepaid-cards', { newScreen: true });
  await settled(page);
  await page
    .locator('[tabindex="0"][aria-label^="Open card"]')
    .first()
    .click({ position: { x: 24, y: 16 } });
  await expect(page).toHaveURL(/\/portal\/prepaid-cards\/[0-9a-f-]{36}$/);
  // The list's headings stay on screen until the card's page has loaded: its own title is waited for.
  await expect(page.getByRole('link', { name: 'Back to Prepaid Cards' })).toBeVisible({ timeout: 30_000 });
  await settled(page);
  await snap(page, 'ind-card-detail');

  await checkAccountMenu(page, 'ind-account-menu');
  const drawer = await checkProfile(page, 'ind-profile', ['Change Password', 'Security']);
  // Profile → Security → Make new recovery codes: the step that asks who it is (nothing is made here).
  await drawer.getByRole('button', { name: 'Make new recovery codes' }).click();
  await expect(drawer.getByRole('heading', { name: 'Make new recovery codes' })).toBeVisible();
  await snap(page, 'ind-profile-new-recovery-codes');
  await drawer.getByRole('button', { name: 'Lost your phone? Use a recovery code instead' }).click();
  await expect(drawer.getByLabel('Recovery code')).toBeVisible();
  await snap(page, 'ind-profile-new-recovery-codes-with-code');
  await drawer.getByRole('button', { name: 'Cancel' }).click();
  await drawer.getByRole('button', { name: 'Set up a new authenticator app' }).click();
  await expect(drawer.getByRole('heading', { name: 'Set up a new authenticator app' })).toBeVisible();
  await snap(page, 'ind-profile-new-authenticator-check');
  await closeDrawer(page);
  await checkLogoutConfirmation(page, 'ind-logout-confirm');
  expectNoHydrateWarning(said);
});

test('a company admin, a company user and the momo agent: the screens only they have', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const said = watchConsole(page);
  await signedInAs(page, 'kofi@acme.example.com');
  await settled(page);
  await snap(page, 'coadmin-dashboard');
  await tour(
    page,
    'coadmin',
    COMPANY_ADMIN.map((p) => `/portal/${p}`),
  );
  // The Company-Admin's profile has the company's details, which they may edit.
  await checkAccountMenu(page, 'coadmin-account-menu');
  const drawer = await checkProfile(page, 'coadmin-profile', ['Company Details']);
  await expect(drawer.getByRole('button', { name: 'Save Changes' })).toBeVisible();
  await closeDrawer(page);
  expectNoHydrateWarning(said);

  const user = await signedIn(browser, 'efua@acme.example.com');
  await snap(user.page, 'couser-dashboard');
  await tour(user.page, 'couser', ['/portal/prepaid-cards', '/portal/apisettings']);
  expectNoHydrateWarning(user.said);
  await user.page.close();

  const agent = await signedIn(browser, 'agent@cardwallet.example');
  await tour(agent.page, 'agent', ['/portal/momo-loads']);
  expectNoHydrateWarning(agent.said);
  await agent.page.close();
});

test('staff: every back-office screen as the Super-Admin, and the Admin’s own', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const said = watchConsole(page);
  await signedInAs(page, 'super@cardwallet.example');
  await settled(page);
  await snap(page, 'super-dashboard');
  await tour(
    page,
    'super',
    [...STAFF, ...SUPER_ADMIN_ONLY, 'fees/00000000-0000-4000-8000-0000000000c1'].map((p) => `/admin/${p}`),
  );

  await visit(page, '/admin/cards', { newScreen: true });
  await settled(page);
  await page
    .locator('tr.cw-clickable-row, li.cw-clickable-row')
    .first()
    .click({ position: { x: 24, y: 16 } });
  await expect(page).toHaveURL(/\/admin\/cards\/[0-9a-f-]{36}$/);
  // The URL changes before the card's page replaces the list, whose heading would satisfy settled().
  await expect(page.getByRole('button', { name: 'Card options' })).toBeVisible({ timeout: 30_000 });
  await settled(page);
  await snap(page, 'super-card-detail');
  await visit(page, '/admin/verifications-individuals', { newScreen: true });
  await settled(page);
  await page
    .locator('tr.cw-clickable-row, li.cw-clickable-row')
    .first()
    .click({ position: { x: 24, y: 16 } });
  await expect(page).toHaveURL(/\/admin\/verifications-individuals\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: / Verification$/ })).toBeVisible({ timeout: 30_000 });
  await settled(page);
  await snap(page, 'super-kyc-detail');

  // The top bar's account menu, the Profile drawer (each view) and the Logout confirmation.
  await checkAccountMenu(page, 'super-account-menu');
  await checkProfile(page, 'super-profile', ['Change Password', 'Security']);
  await closeDrawer(page);
  await checkLogoutConfirmation(page, 'super-logout-confirm');
  expectNoHydrateWarning(said);

  const admin = await signedIn(browser, 'admin@cardwallet.example');
  await snap(admin.page, 'admin-dashboard');
  await tour(admin.page, 'admin', [
    '/admin/wallet-loads',
    '/admin/cards',
    '/admin/customers-individuals',
    '/admin/fees',
    '/admin/program-controls',
  ]);
  expectNoHydrateWarning(admin.said);
  await admin.page.close();
});

test('keyboard: the card-type chooser and the six-box code input work without a pointer', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/login');
  await page.getByLabel('Email').fill('kojo@example.com');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  const code = page.getByRole('group', { name: /six-digit code/i });
  await expect(code).toBeVisible();
  // Six boxes, each named; typing moves along them, Backspace goes back.
  for (let i = 1; i <= 6; i++) await expect(code.getByRole('textbox', { name: `OTP Input ${i}` })).toBeVisible();
  await code.getByRole('textbox', { name: 'OTP Input 1' }).focus();
  await page.keyboard.type('123');
  await expect(code.getByRole('textbox', { name: 'OTP Input 4' })).toBeFocused();
  await page.keyboard.press('Backspace');
  await expect(code.getByRole('textbox', { name: 'OTP Input 3' })).toBeFocused();
  await expect(code.getByRole('textbox', { name: 'OTP Input 3' })).toHaveValue('');
  await snap(page, 'code-input');

  await signedInAs(page, 'ama@example.com');
  await visit(page, '/portal/prepaid-cards', { newScreen: true });
  await settled(page);
  const create = page.getByRole('button', { name: 'Add New Card' });
  await create.focus();
  await page.keyboard.press('Enter');
  if (isPhone(page)) {
    // The stack's buttons bring Basic to the top; back past Show Premium is its Create Card.
    await page.getByRole('button', { name: 'Show Basic' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('button', { name: 'Show Premium' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
  } else {
    const basic = page.getByRole('group', { name: 'Basic card' });
    await basic.getByRole('button', { name: 'Create Card' }).focus();
  }
  await snap(page, 'chooser-keyboard');
  await expect(
    page.getByRole('group', { name: 'Basic card' }).getByRole('button', { name: 'Create Card' }),
  ).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Complete the form below to create your new card')).toBeVisible();
  await expect(page.getByLabel('Card Type')).toBeVisible();
  await snap(page, 'create-form-basic');
});

test.describe('motion', () => {
  /**
   * Opens the dashboard's Top Up dialog; answers whether it played antd's zoom on the way (its start and active
   * phases: a dialog without motion still takes the prepare class for a frame, to measure where it opens from).
   */
  const openTopUp = async (page: Page) => {
    await signedInAs(page, 'ama@example.com');
    await page.evaluate(() => {
      const w = window as unknown as { sawZoom: boolean };
      w.sawZoom = false;
      const ZOOMING = /\bant-zoom-(appear|enter)-(start|active)\b/;
      const zooming = (el: Element) => ZOOMING.test(el.getAttribute('class') ?? '');
      new MutationObserver((changes) => {
        for (const c of changes) {
          const els =
            c.type === 'attributes' ? [c.target as Element] : [...c.addedNodes].filter((n) => n instanceof Element);
          for (const el of els as Element[])
            if (zooming(el) || [...el.querySelectorAll('[class*="ant-zoom-"]')].some(zooming)) w.sawZoom = true;
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.getByRole('button', { name: 'Top Up' }).click();
    const topUp = page.getByRole('dialog', { name: 'Top Up' });
    await expect(topUp).toBeVisible();
    await motionless(page);
    return { topUp, sawZoom: () => page.evaluate(() => (window as unknown as { sawZoom: boolean }).sawZoom) };
  };

  test('a user who asks for less motion gets dialogs without animation', async ({ page }) => {
    const { topUp, sawZoom } = await openTopUp(page);
    expect(await sawZoom()).toBe(false);
    await topUp.getByRole('button', { name: 'Continue' }).click();
    await expect(topUp.getByText('Amount is required')).toBeVisible();
  });

  test.describe('with motion', () => {
    test.use({ reducedMotion: 'no-preference' });
    test('everyone else sees the dialog zoom in', async ({ page }) => {
      const { sawZoom } = await openTopUp(page);
      expect(await sawZoom()).toBe(true);
    });
  });
});
