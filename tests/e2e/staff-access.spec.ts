import { type Browser, type Locator, type Page, expect as baseExpect, test } from '@playwright/test';
import { PASSWORD, isPhone, logInThroughUi, openDropdown, snap as snapNow, uniqueEmail } from './support/flows';
import { waitForLink } from './support/mail';
import { sessionFor, signedInAs } from './support/session';

/**
 * The access review (issue 33, part 3): a Super-Admin opens the Admins screen, reads each staff
 * member's second factor, last sign-in and open sessions, ends a staff member's sessions and
 * deactivates them; the staff member's open back-office is signed out at its next action, and a
 * deactivated one cannot sign in again until reactivated.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 600_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const SUPER = 'super@cardwallet.example';
const SUPER_NAME = 'Sena Agbeko';
const snap = (page: Page, name: string, project: string) => snapNow(page, `access-${name}`, project);
const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');
const dialog = (page: Page) => page.locator('.ant-modal-wrap:not([style*="display: none"]) .ant-modal-content');
const confirmTitle = (page: Page) => dialog(page).locator('.ant-modal-confirm-title');

async function openMenu(page: Page, entry: string) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: entry, exact: true }).click();
}

async function otherBrowser(browser: Browser, page: Page) {
  const phone = isPhone(page);
  const context = await browser.newContext({
    viewport: page.viewportSize()!,
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: phone ? 2 : 1,
  });
  return { context, page: await context.newPage() };
}

/** The row's access menu, one entry of it. */
async function accessMenu(page: Page, name: string): Promise<Locator> {
  return openDropdown(page, page.getByRole('button', { name: `Access actions for ${name}` }));
}

/** The staff member's back-office signs them out at their next action. */
async function signedOutAtNextAction(page: Page) {
  await openMenu(page, 'Customers List');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
}

test('a Super-Admin reviews staff access, ends a staff member’s sessions and deactivates them', async ({
  page,
  browser,
  request,
}, info) => {
  const project = info.project.name;
  const desktop = project === 'desktop';
  const email = uniqueEmail('access');
  const last = `Boateng${Math.random().toString(36).slice(2, 7)}`;
  const name = `Kwame ${last}`;

  // A new Admin, with a password set from the mailed link, signed in on a second device (the API).
  const superSession = await sessionFor(request, SUPER);
  const auth = { authorization: `Bearer ${superSession.access_token}` };
  const created = await request.post('/api/v1/account/admins', {
    headers: auth,
    data: { first_name: 'Kwame', last_name: last, phone_number: '+233241234567', email, role: 'admin' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const link = await waitForLink(email, '/onboarding/new-password?token=');
  const token = new URL(link).searchParams.get('token');
  const set = await request.post('/api/v1/account/reset-password', {
    data: { token, password: PASSWORD, confirm_password: PASSWORD },
  });
  expect(set.status(), await set.text()).toBe(200);

  // Their back-office, open in a browser of their own.
  const staff = await otherBrowser(browser, page);
  await logInThroughUi(staff.page, email, PASSWORD);
  await expect(staff.page).toHaveURL(/\/admin$/);
  await sessionFor(request, email, PASSWORD);

  await signedInAs(page, SUPER);
  await openMenu(page, 'Admin Management');
  await expect(page.getByRole('heading', { name: 'List of Administrators' })).toBeVisible();
  const row = rows(page).filter({ hasText: email });

  await test.step('the list shows role, second factor, last sign-in, open sessions and state', async () => {
    if (desktop) {
      for (const c of [
        'Admin Id',
        'First Name',
        'Last Name',
        'Email Address',
        'Phone Number',
        'State',
        '2FA',
        'Last Sign-in',
        'Sessions',
      ])
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      await expect(row.locator('td').nth(8)).toHaveText('2');
    } else {
      await expect(row.getByText('2 open sessions', { exact: true })).toBeVisible();
    }
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();
    await expect(row.getByText(desktop ? 'On' : '2FA on', { exact: true })).toBeVisible();
    await expect(row.getByText(/^never$/i)).toHaveCount(0);
    // One's own row: the access actions are there but disabled.
    const own = await accessMenu(page, SUPER_NAME);
    await expect(own.getByRole('menuitem', { name: 'End sessions' })).toHaveAttribute('aria-disabled', 'true');
    await expect(own.getByRole('menuitem', { name: 'Deactivate' })).toHaveAttribute('aria-disabled', 'true');
    await snap(page, 'admins', project);
    await page.keyboard.press('Escape');
  });

  await test.step('End sessions, confirmed: both sessions end and their back-office signs out at the next action', async () => {
    const menu = await accessMenu(page, name);
    await menu.getByRole('menuitem', { name: 'End sessions' }).click();
    await expect(confirmTitle(page)).toHaveText('End Sessions');
    await expect(dialog(page).getByText(`Do you want to end every session of ${name}?`)).toBeVisible();
    await snap(page, 'end-sessions-confirm', project);
    await dialog(page).getByRole('button', { name: 'End sessions' }).click();
    await expect(page.getByText('2 sessions ended.')).toBeVisible();
    if (desktop) await expect(row.locator('td').nth(8)).toHaveText('0');
    else await expect(row.getByText('0 open sessions', { exact: true })).toBeVisible();

    await signedOutAtNextAction(staff.page);
    await snap(staff.page, 'signed-out', project);
    // They may sign in again: ending sessions is not a deactivation.
    await logInThroughUi(staff.page, email, PASSWORD);
    await expect(staff.page).toHaveURL(/\/admin$/);
  });

  await test.step('Deactivate, confirmed: signed out at once, and their sign-in is refused', async () => {
    const menu = await accessMenu(page, name);
    await menu.getByRole('menuitem', { name: 'Deactivate' }).click();
    await expect(confirmTitle(page)).toHaveText('Deactivate Admin');
    await snap(page, 'deactivate-confirm', project);
    await dialog(page).getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('Admin deactivated.')).toBeVisible();
    await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();
    await snap(page, 'deactivated', project);

    await signedOutAtNextAction(staff.page);
    await staff.page.getByLabel('Email').fill(email);
    await staff.page.getByLabel('Password').fill(PASSWORD);
    await staff.page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(staff.page.getByText('This account has been deactivated. Please contact support.')).toBeVisible();
    await snap(staff.page, 'login-refused', project);
  });

  await test.step('Reactivate, confirmed: they sign in again', async () => {
    const menu = await accessMenu(page, name);
    await menu.getByRole('menuitem', { name: 'Reactivate' }).click();
    await expect(confirmTitle(page)).toHaveText('Reactivate Admin');
    await dialog(page).getByRole('button', { name: 'Reactivate' }).click();
    await expect(page.getByText('Admin reactivated.')).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await staff.page.goto('/login');
    await logInThroughUi(staff.page, email, PASSWORD);
    await expect(staff.page).toHaveURL(/\/admin$/);
  });
  await staff.context.close();
});
