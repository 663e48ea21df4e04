import { type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { fundWallet, letters, rowOf } from './support/cards';
import { PASSWORD, isPhone, logInThroughUi, openFromMenu, snap } from './support/flows';

/**
 * Reports open on the last 30 days (issue 31, item 4): Wallet Transactions shows rows at once, with presets
 * (7 days, 30 days, This month, Last month, Custom); the request and the CSV export send the chosen range.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });
const STAFF = 'admin@cardwallet.example';

/** A local day, as the screen's presets count them. */
const localDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const daysAgo = (n: number) => {
  const d = new Date();
  d.setDate(d.getDate() - n);
  return localDay(d);
};

const presets = (page: Page) => page.getByRole('radiogroup', { name: 'Period' });

/** The next report request's range, as sent. */
async function rangeOf(page: Page, act: () => Promise<unknown>, csv = false) {
  const [req] = await Promise.all([
    page.waitForRequest(
      // (the portal's home lists recent movements through the same endpoint, without a range)
      (r) =>
        r.url().includes('/api/v1/reports/view-wallet-transactions') &&
        r.url().includes('start_date=') &&
        r.url().includes('format=csv') === csv,
    ),
    act(),
  ]);
  const url = new URL(req.url());
  return [url.searchParams.get('start_date'), url.searchParams.get('end_date')];
}

test('Wallet Transactions opens on the last 30 days, with presets that apply at once and a custom range', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const { email } = await verifiedIndividual(request, 'Akosua', `Report${letters(5)}`);
  await logInThroughUi(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  await fundWallet(page, request, STAFF, '40.00');

  const today = localDay(new Date());
  const [start, end] = await rangeOf(page, () =>
    openFromMenu(page, isPhone(page) ? 'Reports' : 'Wallet Transactions', /\/portal\/wallet-transactions$/),
  );
  expect([start, end]).toEqual([daysAgo(29), today]);
  await expect(presets(page).getByRole('radio', { name: '30 days' })).toBeChecked();
  await expect(rowOf(page, 'Wallet Top Up').first()).toBeVisible();
  await expect(page.getByText('1 transaction', { exact: false })).toBeVisible();
  await expect(page.getByText('Select a date range to search.', { exact: false })).toHaveCount(0);
  await snap(page, 'reports-wallet-30-days', project);

  await test.step('7 days applies at once; the CSV export follows it', async () => {
    expect(await rangeOf(page, () => presets(page).getByText('7 days', { exact: true }).click())).toEqual([
      daysAgo(6),
      today,
    ]);
    await expect(presets(page).getByRole('radio', { name: '7 days' })).toBeChecked();
    await expect(rowOf(page, 'Wallet Top Up').first()).toBeVisible();
    expect(await rangeOf(page, () => page.getByRole('button', { name: /Export CSV|CSV/ }).click(), true)).toEqual([
      daysAgo(6),
      today,
    ]);
  });

  await test.step('Last month has no movement of this new customer', async () => {
    const d = new Date();
    const first = localDay(new Date(d.getFullYear(), d.getMonth() - 1, 1));
    const last = localDay(new Date(d.getFullYear(), d.getMonth(), 0));
    expect(await rangeOf(page, () => presets(page).getByText('Last month', { exact: true }).click())).toEqual([
      first,
      last,
    ]);
    await expect(page.getByText('No transactions in this date range')).toBeVisible();
  });

  await test.step('Custom opens the pickers; Done searches the days picked', async () => {
    await presets(page).getByText('Custom', { exact: true }).click();
    await expect(page.getByLabel('Date from')).toBeVisible();
    for (const [label, value] of [
      ['Date from', daysAgo(2)],
      ['Date to', today],
    ] as const) {
      const input = page.getByLabel(label);
      await input.click();
      await input.fill(value);
      await input.press('Enter');
    }
    await snap(page, 'reports-wallet-custom', project);
    expect(await rangeOf(page, () => page.getByRole('button', { name: 'Done' }).click())).toEqual([daysAgo(2), today]);
    await expect(presets(page).getByRole('radio', { name: 'Custom' })).toBeChecked();
    await expect(rowOf(page, 'Wallet Top Up').first()).toBeVisible();
  });
});
