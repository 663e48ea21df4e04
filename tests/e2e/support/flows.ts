import { type Locator, type Page, expect } from '@playwright/test';
import { expectAccessible } from './axe';
import { withAccountLock } from './locks';
import { freshCode, knownSecret, rememberRecoveryCodes, rememberSecret } from './totp';

export const PASSWORD = 'E2e!Passw0rd';
const KEEP_SCREENS = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS !== '0' : !process.env.CI;
export const DEMO_PASSWORD = 'Demo!2026pass';

export const uniqueEmail = (tag: string) =>
  `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

export const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1000) < 768;

/**
 * Opens a screen of the app the way an in-app link does (history.pushState, then the popstate event react-router
 * listens to) when this page already runs the app, else loads it. A full load parses the bundle and builds antd's
 * styles again: most of a second of a renderer's CPU on the 2-core CI machine, for each of a few hundred screens.
 * Journeys about addresses typed or opened from a mail (deep links, a guarded route, a fresh cache after a change
 * made elsewhere) still load the page. The caller waits for what it expects of the new screen; `newScreen` waits for
 * a heading that was not on show before (for a tour, which expects no screen in particular; not for two addresses
 * of one screen, whose heading React keeps).
 */
export async function visit(page: Page, path: string, opts: { newScreen?: boolean } = {}) {
  // The headings on show now are marked, so that the new screen is known by a heading of its own.
  const from = await page
    .evaluate(() => {
      const root = document.getElementById('root');
      if (!root?.hasChildNodes()) return null;
      for (const h of root.querySelectorAll('h1, h2, h3, h4')) h.setAttribute('data-before-visit', '');
      return window.location.pathname;
    })
    .catch(() => null);
  if (from === null) {
    await page.goto(path);
    return;
  }
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  if (!opts.newScreen || new URL(path, 'http://app').pathname === from) return;
  const fresh = ['h1', 'h2', 'h3', 'h4'].map((h) => `#root ${h}:not([data-before-visit])`).join(', ');
  await expect(page.locator(fresh).first(), `${path} shows its screen`).toBeVisible();
}

/** Types digits into the Ghana-default phone input after its +233 prefix. */
export async function fillPhone(page: Page, label: string, nationalDigits: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.press('End');
  await input.pressSequentially(nationalDigits, { delay: 15 });
}

/** Email and password, then the 2FA step: sets it up from the shown key the first time. */
export async function logInThroughUi(page: Page, email: string, password: string, opts: { prefilled?: boolean } = {}) {
  return withAccountLock(email, () => logIn(page, email, password, opts));
}

async function logIn(page: Page, email: string, password: string, opts: { prefilled?: boolean }) {
  // `/` and `/login` are the same screen.
  if (!['/', '/login'].includes(new URL(page.url(), 'http://x').pathname)) await page.goto('/login');
  // The address changes before the screen does: a screen left for this one (the invitation's, say) can still
  // show its own Email and Password fields, and what is typed there is gone when the login screen replaces it.
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  const emailField = page.getByLabel('Email');
  if (opts.prefilled) await expect(emailField).toHaveValue(email);
  else await emailField.fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  const setup = page.getByText('Setup your 2FA');
  const code = page.getByRole('heading', { name: 'Authentication Code' });
  await expect(setup.or(code))
    .toBeVisible()
    .catch(async (err: Error) => {
      // Says what the person would see instead (an error screen, the form still filled, a spinner).
      const shown = await page
        .locator('#root')
        .innerText()
        .catch(() => '(unreadable)');
      throw new Error(`${err.message}\nInstead ${page.url()} shows:\n${shown.slice(0, 600)}`);
    });
  if (await setup.isVisible()) {
    // A phone holds the authenticator itself: a link opens it (the QR is for another device, behind a disclosure).
    await expect(
      isPhone(page)
        ? page.getByRole('link', { name: 'Open in authenticator' })
        : page.getByAltText('QR code for your authenticator app'),
    ).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    rememberSecret(email, secret);
  } else if (!knownSecret(email)) {
    throw new Error(`2FA is set up for ${email} but this run does not know its key`);
  }
  const digits = await freshCode(email);
  await page.locator('.ant-otp input').first().click();
  await page.keyboard.type(digits, { delay: 20 });
  await page.getByRole('button', { name: 'Confirm OTP' }).click();
  // A first login (2FA just set up) shows the recovery codes before going on.
  const codes = page.getByRole('heading', { name: 'Save your recovery codes' });
  const landed = await Promise.race([
    codes.waitFor({ timeout: 30_000 }).then(
      () => 'codes',
      () => undefined,
    ),
    page.waitForURL(/\/(portal|admin)(\/|$)/, { timeout: 30_000 }).then(
      () => 'home',
      () => undefined,
    ),
  ]);
  if (landed === 'codes') await saveRecoveryCodes(page, email);
  await page.waitForURL(/\/(portal|admin)(\/|$)/);
}

/** The recovery codes screen after 2FA setup: the codes are kept (as a person would print them), then Continue. */
export async function saveRecoveryCodes(page: Page, email: string): Promise<string[]> {
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  const codes = (await page.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  rememberRecoveryCodes(email, codes);
  const next = page.getByRole('button', { name: 'Continue' });
  await expect(next).toBeDisabled();
  await page.getByRole('checkbox', { name: 'I have saved my recovery codes somewhere safe' }).check();
  await next.click();
  return codes;
}

/**
 * The shared Playwright screenshot spot, once drawers and modals stop moving:
 * test-results/screens/<project>/<name>.png (not under CI unless E2E_SCREENSHOTS=1). Every screenshot is also an accessibility check
 * (axe-core, WCAG 2.1 A/AA), so every screen and panel a journey shows is checked as it is shown.
 */
export async function snap(page: Page, name: string, project: string) {
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  // For people to look at; CI has nobody to look, so it only checks (a failure still keeps its screenshot).
  if (KEEP_SCREENS) await page.screenshot({ path: `test-results/screens/${project}/${name}.png`, fullPage: true });
  await expectAccessible(page, name);
}

/**
 * A portal screen from a menu, waiting until it shows: the side menu, or the account menu (the
 * only one on phones). Retried: the menus re-render when the profile refreshes after a login, and
 * a dropdown still sliding in can take the tap on the entry next to the one meant.
 */
export async function openFromMenu(
  page: Page,
  entry: string,
  url: RegExp,
  via: 'side' | 'account' = isPhone(page) ? 'account' : 'side',
) {
  const item =
    via === 'account'
      ? openMenuOf(page).getByRole('menuitem', { name: entry })
      : page.getByRole('menuitem', { name: entry });
  await expect(async () => {
    if (via === 'account' && !(await item.isVisible()))
      await openDropdown(page, page.getByRole('button', { name: 'Account menu' }), 5_000);
    await item.click({ timeout: 5_000 });
    await expect(page).toHaveURL(url, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * Waits until no drawer or dialog is sliding or zooming in: a click on a field of a panel still
 * moving lands outside the viewport or beside the field.
 */
export async function motionless(page: Page, timeout?: number) {
  const moving = ['.ant-drawer-content-wrapper', '.ant-modal']
    .flatMap((c) => [`${c}[class*="-enter"]`, `${c}[class*="-appear"]`])
    .join(', ');
  await expect(page.locator(moving)).toHaveCount(0, { timeout });
}

/**
 * Chooses an option of a Select and waits until the field shows it. Retried: a click on a list still
 * sliding in can land on nothing, and the field then keeps its old value (seen under CI load).
 */
export async function chooseOption(page: Page, field: Locator, option: string | RegExp) {
  const text = typeof option === 'string' ? new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : option;
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const shown = field
    .locator('xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]')
    .locator('.ant-select-selection-item');
  await expect(async () => {
    if (!(await list.isVisible())) await field.click({ force: true, timeout: 5_000 });
    await expect(list).toBeVisible({ timeout: 5_000 });
    await expect(list).not.toHaveClass(/-(appear|enter)\b/, { timeout: 5_000 });
    await list.locator('.ant-select-item-option', { hasText: text }).click({ timeout: 5_000 });
    await expect(shown).toHaveText(text, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** The dropdown menu that is open. */
export const openMenuOf = (page: Page) => page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');

/**
 * Opens a dropdown menu from its button and waits until it has stopped sliding in: a tap on a
 * menu still moving lands beside the entry meant (or on nothing).
 */
export async function openDropdown(page: Page, button: Locator, timeout?: number): Promise<Locator> {
  await button.click({ timeout });
  const menu = openMenuOf(page);
  await expect(menu).toBeVisible({ timeout });
  await expect(menu).not.toHaveClass(/-(appear|enter)\b/, { timeout });
  return menu;
}

/**
 * A form field's error as the user sees it: antd keeps the replaced message in the DOM while it fades out (and,
 * under load, sometimes past its animation), so a message on its way out is not the field's error.
 */
export const FIELD_ERROR = '.ant-form-item-explain-error:not([class*="-leave"])';
