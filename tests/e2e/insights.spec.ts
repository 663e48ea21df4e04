import { readFileSync } from 'node:fs';
import { type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { chooseOption, isPhone, logInThroughUi, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { parseCsv } from '../support/csv';

// The machine may be busy: give screens time to appear and journeys time to finish.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const TILES = [
  'Wallet Balances',
  'Card Balances',
  'Card Fees',
  'Wallet Fees',
  'Mastercard Balances',
  'Visa Balances',
  'Tokenised Card Balances',
  'Topups Amount',
  'Topups count',
  'Card Transactions count',
  'Card Transactions Amount',
  'All Cards',
  'Active Cards',
  'Deactivated Cards',
  'Deleted Cards',
  'Basic Cards',
  'Premium Cards',
  'Mastercard Cards',
  'Visa Cards',
  'Company Cards',
  'Individual Cards',
  'Card Maintenance count',
  'Card Maintenance amount',
];

const dayOffset = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The signed-in user's bearer token, as the SPA keeps it. */
const tokenOf = (page: Page) =>
  page.evaluate(() => {
    const raw = localStorage.getItem('cw.auth');
    return raw ? atob((JSON.parse(raw) as { token: string }).token) : '';
  });

test('staff read the statistics of a date range as tiles and charts', async ({ page }, info) => {
  const project = info.project.name;
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await signedInAs(page, 'super@cardwallet.example');
  await expect(page).toHaveURL(/\/admin/);
  // The back-office itself does not load the chart library.
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  expect(scripts.filter((u) => /\/charts-[\w-]+\.js/.test(u))).toEqual([]);

  await visit(page, '/admin/reports/statistics');
  await expect(page.getByRole('heading', { name: 'Statistics' })).toBeVisible();

  // A past range (activity of the demo months, nothing any other journey changes today).
  const start = dayOffset(120);
  const end = dayOffset(2);
  await page.getByPlaceholder('Start date').click();
  await page.getByPlaceholder('Start date').fill(start);
  await page.getByPlaceholder('Start date').press('Enter');
  await page.getByPlaceholder('End date').fill(end);
  await page.getByPlaceholder('End date').press('Enter');
  await expect(page).toHaveURL(new RegExp(`start_date=${start}.*end_date=${end}`));
  await expect(page.getByTestId('statistics-range')).toContainText(`From ${start} to ${end}`);

  // Every tile of back-office §2.16, in its words, showing the API's figure for that range.
  const token = await tokenOf(page);
  const res = await page.request.get(`/api/v1/reports/view-statistics?start_date=${start}&end_date=${end}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  const figures = (await res.json()).data as Record<string, string | number>;
  for (const title of TILES) await expect(page.getByRole('group', { name: title, exact: true })).toBeVisible();
  const show = (v: string | number) =>
    typeof v === 'number' ? String(v) : Number(v).toLocaleString('en-US', { minimumFractionDigits: 2 });
  for (const key of [
    'total_topups',
    'total_topups_amount',
    'total_transactions',
    'total_cards',
    'total_maintenance_amount',
    'total_wallet_balance',
  ]) {
    await expect(page.getByTestId(`tile-${key}`)).toContainText(show(figures[key]!));
  }
  expect(Number(figures.total_topups)).toBeGreaterThan(0);
  expect(Number(figures.total_transactions)).toBeGreaterThan(0);

  // The charts: loaded now, each drawn on a canvas.
  for (const name of [
    'Top-ups over time',
    'Card transactions over time',
    'Cards by type, brand and state',
    'Fee and maintenance income over time',
  ]) {
    const chart = page.getByRole('figure', { name });
    await chart.scrollIntoViewIfNeeded();
    await expect(chart.locator('canvas').first()).toBeVisible();
  }
  await expect(page.getByRole('figure', { name: 'Cards by type, brand and state' }).locator('canvas')).toHaveCount(3);
  expect(scripts.some((u) => /\/charts-[\w-]+\.js/.test(u))).toBe(true);
  await page.waitForTimeout(1500); // the charts animate in
  await snap(page, 'statistics-range', project);

  // About four months are drawn per week; monthly periods on request.
  await expect(page.locator('.ant-segmented-item-selected')).toHaveText('Week');
  await page.locator('.ant-segmented-item', { hasText: 'Month' }).click();
  await expect(page).toHaveURL(/interval=month/);
  await expect(page.getByText('Approved top-ups (USDT per month)')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Top-ups over time' }).locator('canvas').first()).toBeVisible();
});

test('a customer downloads a filtered wallet-loads report as CSV', async ({ page, request }, info) => {
  const project = info.project.name;
  const { email, password } = await verifiedIndividual(request, 'Efia', 'Owusu');
  await logInThroughUi(page, email, password);
  await expect(page).toHaveURL(/\/portal$/);

  // Their own top-ups, made through the API: two with a Tron hash provided, two still pending.
  const token = await tokenOf(page);
  const walletId = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('cw.auth')!) as { user: { wallet_id: string } }).user.wallet_id,
  );
  const headers = { authorization: `Bearer ${token}` };
  const provided: string[] = [];
  for (const [amount, hash] of [
    ['12.34', true],
    ['1050.05', true],
    ['7.00', false],
    ['99.99', false],
  ] as const) {
    const made = await request.post('/api/v1/wallet/topup-balance', {
      headers,
      data: { wallet_id: walletId, amount, method: 'tron' },
    });
    expect(made.status()).toBe(201);
    const { reference } = (await made.json()).data as { reference: string };
    if (hash) {
      const hex = Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
      const conf = await request.post('/api/v1/wallet/topup-confirm', {
        headers,
        data: { reference, transaction_hash: hex },
      });
      expect(conf.status()).toBe(200);
      provided.push(reference);
    }
  }

  await page.goto('/portal/wallet-loads');
  await expect(page.getByText('Wallet Load Transactions')).toBeVisible();
  await chooseOption(page, page.getByRole('combobox', { name: 'State' }), 'Processing');
  const rows = isPhone(page) ? page.locator('.ant-list-item') : page.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await snap(page, 'customer-wallet-loads-filtered', project);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^wallet-top-ups-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
  const [header, ...data] = csv;
  const col = (name: string) => header!.indexOf(name);
  expect(col('Reference')).toBeGreaterThanOrEqual(0);
  // Exactly the filtered rows: the two Processing (Hash-provided) top-ups, none of the pending ones; the CSV writes the state by the name the screens show.
  expect(data.map((r) => r[col('Reference')]).sort()).toEqual([...provided].sort());
  for (const r of data) {
    expect(r[col('State')]).toBe('Processing');
    expect(r[col('Method')]).toMatch(/tron/i);
    expect(r[col('Created')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }
  // Amounts as exact decimals.
  expect(data.map((r) => r[col('Amount (USDT)')]).sort()).toEqual(['1050.05', '12.34']);
});
