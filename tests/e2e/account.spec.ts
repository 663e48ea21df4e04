import { type Page, expect, test } from '@playwright/test';
import { verifiedCompany, verifiedIndividual } from './support/accounts';
import { PASSWORD, isPhone, logInThroughUi, motionless, openDropdown, snap, visit } from './support/flows';
import { mailsTo, waitForLink } from './support/mail';

async function openAccountMenu(page: Page, entry: string) {
  const menu = await openDropdown(page, page.getByRole('button', { name: 'Account menu' }));
  await menu.getByRole('menuitem', { name: entry }).click();
}

test('a forgotten password is reset from the mailed link', async ({ page, request }, info) => {
  const { email } = await verifiedIndividual(request);
  await page.goto('/login');
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page).toHaveURL(/\/onboarding\/reset$/);
  await expect(page.getByText('Password Reset Confirmation')).toBeVisible();
  await expect(page.getByText('Kindly check your associated email address and continue!')).toBeVisible();
  await snap(page, 'reset-confirmation', info.project.name);

  await page.goto(await waitForLink(email, '/onboarding/new-password'));
  const fresh = 'Brand!New2pass';
  await page.getByLabel('New Password').fill('weak');
  await page.getByLabel('Confirm Password').fill('weak2');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText(/at least 8 characters/).first()).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('New Password').fill(fresh);
  await page.getByLabel('Confirm Password').fill(fresh);
  await snap(page, 'new-password', info.project.name);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(/\/login\?product=/);
  await logInThroughUi(page, email, fresh, { prefilled: true });
  await expect(page).toHaveURL(/\/portal$/);
});

test('changing the password in the profile panel ends the session and asks for a new login', async ({
  page,
  request,
}, info) => {
  const { email } = await verifiedIndividual(request, 'Efia', 'Sarpong');
  await logInThroughUi(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  await openAccountMenu(page, 'Profile');
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByLabel('First Name')).toHaveValue('Efia');
  await drawer.getByLabel('First Name').fill('Efua');
  await drawer.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Your details were saved.')).toBeVisible();
  await snap(page, 'profile-personal', info.project.name);

  await drawer.getByText('Change Password').click();
  await expect(drawer.getByText(/you will need to log in again/)).toBeVisible();
  await drawer.getByLabel('Current Password').fill('Wrong!Passw0rd');
  await drawer.getByLabel('New Password').fill('Next!Passw0rd');
  await drawer.getByLabel('Confirm Password').fill('Next!Passw0rd');
  await drawer.getByRole('button', { name: 'Change Password' }).click();
  await expect(drawer.getByText('The current password is incorrect.')).toBeVisible();
  await drawer.getByLabel('Current Password').fill(PASSWORD);
  await snap(page, 'profile-password', info.project.name);
  await drawer.getByRole('button', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/portal');
  await expect(page).toHaveURL(/\/login$/);
  await logInThroughUi(page, email, 'Next!Passw0rd');
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByText(/Good (morning|afternoon|evening), Efua/)).toBeVisible();
});

test('a company admin edits and deletes a user; logout asks first', async ({ page, request }, info) => {
  const { email } = await verifiedCompany(request);
  await logInThroughUi(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  await visit(page, '/portal/users');
  const members = ['Nana Ofori', 'Akua Dede'];
  for (const [i, name] of members.entries()) {
    await page.getByRole('button', { name: 'Add New User' }).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByLabel('Full Name').fill(name);
    await drawer.getByLabel('Email').fill(`member${i}.${email}`);
    await drawer.getByLabel('Phone Number').pressSequentially(`20111222${i}`);
    await drawer.getByLabel('User Privileges').click();
    await drawer.getByRole('button', { name: 'Add User' }).click();
    await expect(drawer).toBeHidden();
  }
  const first = `member0.${email}`;
  // Both rows, not only the first: the list reloaded after the second add would move the rows under the click.
  await expect(page.getByText(first)).toBeVisible();
  await expect(page.getByText(`member1.${email}`)).toBeVisible();
  // No edit or delete on one's own row.
  await expect(page.getByRole('button', { name: `Edit ${email}` })).toHaveCount(0);

  await page.getByRole('button', { name: `Edit ${first}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByText(`You are about to edit privileges for this user, ${first}`)).toBeVisible();
  await edit.getByLabel('Admin', { exact: true }).click();
  await snap(page, 'edit-user', info.project.name);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toBeHidden();
  const row = isPhone(page)
    ? page.locator('.ant-list-item', { hasText: first })
    : page.locator('tr', { hasText: first });
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: `Delete ${first}` }).click();
  const del = page.getByRole('dialog', { name: 'Delete User' });
  await expect(
    del.getByText(`You are about to delete this user, ${first}. Click the delete button to delete`),
  ).toBeVisible();
  await motionless(page);
  await snap(page, 'delete-user', info.project.name);
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted.')).toBeVisible();
  await expect(page.getByText(first)).toHaveCount(0);

  await openAccountMenu(page, 'Logout');
  await expect(page.getByText('Are you sure you want to logout?')).toBeVisible();
  await motionless(page);
  await snap(page, 'logout-confirm', info.project.name);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the help desk sends a message to support and the FAQ states the card facts', async ({ page, request }, info) => {
  const { email } = await verifiedIndividual(request);
  await logInThroughUi(page, email, PASSWORD);
  await visit(page, '/portal/faq');
  await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible();
  await page.getByText('What is the minimum card top-up?').click();
  await expect(page.getByText('The minimum card top-up is 3 dollars.')).toBeVisible();
  await snap(page, 'faq', info.project.name);

  await visit(page, '/portal/help-desk');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Subject').fill('Card declined');
  await page.getByLabel('Message').fill('My card was declined at a supermarket this morning.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Message sent')).toBeVisible();
  await snap(page, 'help-desk', info.project.name);
  await expect
    .poll(() =>
      mailsTo('support@cardwallet.local').some(
        (m) => m.subject === '[Help Desk] Card declined' && m.text.includes('declined at a supermarket'),
      ),
    )
    .toBe(true);
});
