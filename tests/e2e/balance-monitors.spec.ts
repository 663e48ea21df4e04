import { expect, test } from '@playwright/test';
import { chooseOption, isPhone, motionless, snap, visit } from './support/flows';
import { signedInAs } from './support/session';

/**
 * Balance alerts (issue 36): a Finance member finds the demo's alerts (the Visa master balance, Acme's wallet), adds
 * an alert on the Mastercard master balance, sees it listed with the balance now and its state, and deletes it. Each
 * project has its own server and database.
 */
test('Finance adds a balance alert, sees it listed, and deletes it', async ({ page }, info) => {
  const project = info.project.name;
  await signedInAs(page, 'finance@cardwallet.example');
  await expect(page).toHaveURL(/\/admin$/);
  if (isPhone(page)) await visit(page, '/admin/balance-monitors');
  else await page.getByRole('menuitem', { name: 'Balance Alerts' }).click();
  await expect(page.getByRole('heading', { name: 'Balance Alerts' })).toBeVisible();
  const demo = page.locator('.ant-table-row, .ant-list-item');
  await expect(demo.filter({ hasText: 'The Visa master balance (media)' })).toBeVisible();
  await expect(demo.filter({ hasText: 'Acme Logistics Ltd' })).toBeVisible();
  await expect(demo).toHaveCount(2);

  await page.getByRole('button', { name: 'Add Alert' }).click();
  const drawer = page.getByRole('dialog', { name: 'Add Balance Alert' });
  await motionless(page);
  await drawer.getByRole('button', { name: 'Add Alert' }).click();
  await expect(drawer.getByText('Account is required')).toBeVisible();
  await expect(drawer.getByText('Threshold is required')).toBeVisible();
  await chooseOption(page, drawer.getByRole('combobox', { name: 'Account' }), 'Mastercard master balance (general)');
  await drawer.getByRole('textbox', { name: 'Alert Below' }).fill('5,000');
  await snap(page, 'balance-monitors-add', project);
  await drawer.getByRole('button', { name: 'Add Alert' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByText('Balance alert added.')).toBeVisible();

  const row = page
    .locator('.ant-table-row, .ant-list-item')
    .filter({ hasText: 'The Mastercard master balance (general)' });
  await expect(row).toBeVisible();
  await expect(row.getByText('USD 5,000.00')).toBeVisible();
  await expect(row.getByText(/^(Armed|Below)$/)).toBeVisible();
  await snap(page, 'balance-monitors-list', project);

  await row.getByRole('button', { name: 'Delete the alert of The Mastercard master balance (general)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Balance Alert' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Balance alert deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(demo).toHaveCount(2);
});
