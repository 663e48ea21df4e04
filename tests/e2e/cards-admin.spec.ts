import { type Locator, type Page, expect, test } from '@playwright/test';
import { day, drawer, letters, pick, pickDay, pickRange, sessionOf } from './support/cards';
import { isPhone, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Back-office card journeys (back-office §2.4, §2.8, §2.9, §2.15). Each run makes its own customer
 * with two premium cards through the API and works on those only (lists are narrowed to that
 * customer), so parallel journeys never see each other's changes. Desktop runs as the
 * Super-Admin, phone as the Admin.
 */

const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');
const rowWith = (page: Page, text: string) => rows(page).filter({ hasText: text });
const dialog = (page: Page) =>
  page
    .locator('.ant-modal')
    .filter({ has: page.locator('.ant-modal-title') })
    .last();
const cents = (s: string) => Math.round(Number(s.replace(/[^\d.]/g, '')) * 100);

async function openMenu(page: Page, entry: string) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: entry, exact: true }).click();
}

/** Opens the Search Cards panel and waits until it has slid in. */
async function openSearch(page: Page) {
  await page.getByRole('button', { name: 'Search Cards' }).click();
  await expect(drawer(page).getByText('Search Cards')).toBeVisible();
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  await page.waitForTimeout(300);
}

/** A card row's menu entry; the dialog it opens, if any. */
async function rowAction(page: Page, row: Locator, entry: string) {
  await row.getByRole('button', { name: /^Options of card/ }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

async function withReason(page: Page, what: string, reason: string, toast: string) {
  const d = dialog(page);
  await expect(d.locator('.ant-modal-title')).toHaveText(`Please do you wish to ${what} this card?`);
  await d.getByRole('button', { name: 'Confirm' }).click();
  await expect(d.getByText('A reason is required')).toBeVisible();
  await d.getByLabel('Reason').fill(reason);
  await d.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(toast)).toBeVisible();
  await expect(d).toBeHidden();
}

test('staff list, search and manage cards, read a card’s sums and its wallet transactions; dashboard master balances', async ({
  page,
  request,
}, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  const desktop = project === 'desktop';
  await signedInAs(page, desktop ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  await expect(page).toHaveURL(/\/admin$/);
  const { token: staffToken } = await sessionOf(page);
  const last = `Adm${letters(6)}`;
  const c = await customerWithCards(request, staffToken, last);
  const scoped = `individual_id=${c.id}&acc_name=${encodeURIComponent(c.name)}`;

  await test.step('dashboard: the three master wallets with available and ledger balances', async () => {
    // back to the dashboard, which reads the balances again
    await visit(page, '/admin/wallet-transfers');
    await openMenu(page, 'Dashboard');
    const region = page.getByRole('region', { name: 'Master balances' });
    for (const [key, title, brand] of [
      ['general', 'General', 'Mastercard'],
      ['media', 'Media', 'Visa'],
      ['tokencard', 'Tokencard', 'Tokenised Cards'],
    ] as const) {
      const card = region.getByTestId(`master-balance-${key}`);
      await expect(card.getByText(title, { exact: true })).toBeVisible();
      await expect(card.getByText(brand, { exact: true })).toBeVisible();
      await expect(card.getByTestId(`master-available-${key}`)).toHaveText(/^USD [\d,]+\.\d{2}$/);
      await expect(card.getByTestId(`master-ledger-${key}`)).toHaveText(/^USD [\d,]+\.\d{2}$/);
    }
    // this run's cards are in there: at least 60.00 on Visa and 20.00 on Mastercard
    expect(cents(await region.getByTestId('master-available-media').innerText())).toBeGreaterThanOrEqual(6_000);
    expect(cents(await region.getByTestId('master-available-general').innerText())).toBeGreaterThanOrEqual(2_000);
    // master balances come above the Wallet Top-Ups card
    const top = await region.boundingBox();
    const topups = await page.locator('.ant-card', { hasText: 'Wallet Top-Ups' }).boundingBox();
    expect(top!.y).toBeLessThan(topups!.y);
    await snap(page, 'admin-dashboard-master-balances', project);
  });

  await test.step('All Cards: the menu entry, the columns, one customer’s cards', async () => {
    await openMenu(page, 'All Cards');
    await expect(page).toHaveURL(/\/admin\/cards/);
    await expect(page.getByRole('heading', { name: 'All Cards - List of Cards' })).toBeVisible();
    if (!isPhone(page)) {
      for (const col of [
        'Cardholder',
        'Purpose',
        'Type',
        'Card Number',
        'Balance',
        'Spending Limit',
        'State',
        'Flag Information',
        'Created',
      ]) {
        await expect(page.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
      }
    }
    await expect(rows(page).first()).toBeVisible();
    await snap(page, 'admin-cards-all', project);

    await visit(page, `/admin/cards?${scoped}`);
    await expect(page.getByRole('heading', { name: `${c.name} - All Cards - List of Cards` })).toBeVisible();
    await expect(rows(page)).toHaveCount(2);
    const visa = rowWith(page, 'Admin Visa');
    await expect(visa).toContainText('Visa');
    await expect(visa.getByText(c.visa.masked_number)).toBeVisible();
    await expect(visa.getByText('USD 60.00')).toBeVisible();
    await expect(visa.getByText('Active', { exact: true })).toBeVisible();
    await expect(rowWith(page, 'Admin Master')).toContainText('Mastercard');
  });

  await test.step('Search Cards: purpose, then Created By', async () => {
    await openSearch(page);
    const panel = drawer(page);
    await pick(page, panel, 'Purpose', 'Visa');
    await snap(page, 'admin-cards-search-panel', project);
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowWith(page, 'Admin Visa')).toHaveCount(1);

    await openSearch(page);
    await panel.getByRole('button', { name: 'Reset' }).click();
    await expect(rows(page)).toHaveCount(2);
    await openSearch(page);
    await pick(page, panel, 'Created By', c.name);
    await pick(page, panel, 'Purpose', 'Mastercard');
    await panel.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowWith(page, 'Admin Master')).toHaveCount(1);
    await openSearch(page);
    await panel.getByRole('button', { name: 'Reset' }).click();
    await expect(rows(page)).toHaveCount(2);
  });

  await test.step('flag and unflag with a reason; the Flagged Cards list', async () => {
    const visa = rowWith(page, 'Admin Visa');
    await rowAction(page, visa, 'Flag Card');
    await snap(page, 'admin-cards-flag-dialog', project);
    await withReason(page, 'flag', 'Payments from an unusual country', 'Card flagged.');
    await expect(visa.getByTestId('flag-info')).toContainText('Payments from an unusual country');
    await expect(visa.getByTestId('flag-info')).toContainText('Flagged');
    // A flagged card is no green Active: its state says Flagged, in red, beside a grey Active.
    const state = visa.getByTestId('card-state');
    await expect(state.getByText('Flagged', { exact: true })).toHaveClass(/ant-tag-red/);
    await expect(state.getByText('Active', { exact: true })).not.toHaveClass(/ant-tag-green/);
    await snap(page, 'admin-cards-flagged-row', project);

    await visit(page, `/admin/cards/flagged?${scoped}`);
    await expect(page.getByRole('heading', { name: `${c.name} - Flagged Cards - List of Cards` })).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rowWith(page, 'Admin Visa')).toHaveCount(1);
    // The card's detail says Flagged too, and no green Active.
    await rowAction(page, rowWith(page, 'Admin Visa'), 'View Card Details');
    await expect(page).toHaveURL(new RegExp(`/admin/cards/${c.visa.id}$`));
    await expect(page.getByTestId('card-state').getByText('Flagged', { exact: true })).toHaveClass(/ant-tag-red/);
    await expect(page.getByTestId('card-state').getByText('Active', { exact: true })).not.toHaveClass(/ant-tag-green/);
    await snap(page, 'admin-card-detail-flagged', project);
    await visit(page, `/admin/cards/flagged?${scoped}`);

    await rowAction(page, rowWith(page, 'Admin Visa'), 'Unflag Card');
    await withReason(page, 'unflag', 'Customer confirmed the payments', 'Card unflagged.');
    await expect(rows(page)).toHaveCount(0);
    await expect(page.getByText('No cards found')).toBeVisible();
  });

  await test.step('suspend and unsuspend with a reason', async () => {
    await visit(page, `/admin/cards?${scoped}`);
    const master = rowWith(page, 'Admin Master');
    await rowAction(page, master, 'Suspend Card');
    await withReason(page, 'suspend', 'Chargeback under investigation', 'Card suspended.');
    await expect(master.getByTestId('flag-info')).toContainText('Suspended');
    await master.getByRole('button', { name: /^Options of card/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Unsuspend Card', exact: true })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Suspend Card', exact: true })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Unsuspend Card', exact: true }).click();
    await withReason(page, 'unsuspend', 'Chargeback resolved in our favour', 'Card unsuspended.');
    await expect(master.getByTestId('flag-info')).toContainText('Unsuspended');
  });

  await test.step('freeze and unfreeze from the row menu', async () => {
    const master = rowWith(page, 'Admin Master');
    await rowAction(page, master, 'Freeze Card');
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm.locator('.ant-modal-confirm-title')).toHaveText('Please do you wish to freeze this card?');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Card frozen successfully.')).toBeVisible();
    await expect(master.getByText('Deactivated', { exact: true })).toBeVisible();
    await rowAction(page, master, 'Unfreeze Card');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Card unfrozen successfully.')).toBeVisible();
    await expect(master.getByText('Active', { exact: true })).toBeVisible();
    await snap(page, 'admin-cards-customer', project);
  });

  await test.step('the staff card detail: masked number only, the sums', async () => {
    await rowAction(page, rowWith(page, 'Admin Visa'), 'View Card Details');
    await expect(page).toHaveURL(new RegExp(`/admin/cards/${c.visa.id}$`));
    await expect(page.getByRole('heading', { name: 'Admin Visa' })).toBeVisible();
    await expect(page.getByTestId('card-balance')).toHaveText('60.00');
    const summary = page.locator('.ant-card', { hasText: 'Card Summary' });
    for (const label of [
      'Approved Sum',
      'Settled Sum',
      'Reversal Sum',
      'Available Sum',
      'Ledger Sum',
      'Spending Limit',
      'Additional Spending Limit',
      'Total Issuance',
      'Total Topup',
      'Total Withdrawal',
      'Total Maintenance',
      'Total Fees',
    ]) {
      await expect(summary.getByText(label, { exact: true })).toBeVisible();
    }
    const value = (label: string) =>
      summary
        .locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::*[1]');
    await expect(value('Total Issuance')).toHaveText('USD 50.00');
    await expect(value('Total Topup')).toHaveText('USD 10.00');
    await expect(value('Available Sum')).toHaveText('USD 60.00');
    await expect(value('Spending Limit')).toHaveText('USD 1,000.00');
    await expect(page.getByText('Card Details', { exact: true })).toHaveCount(0);
    // never the full number on the staff path
    expect(await page.locator('body').innerText()).not.toMatch(/\b\d{4} ?\d{4} ?\d{4} ?\d{4}\b/);
    await page.getByRole('button', { name: 'Card options' }).click();
    await expect(page.getByRole('menuitem', { name: 'Card Withdrawal', exact: true })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Additional Spend Limit' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await snap(page, 'admin-card-detail', project);
  });

  await test.step('Wallet Transactions for Cards: type and date filters, totals, details with fees', async () => {
    await openMenu(page, 'Wallet Transactions');
    await expect(page.getByRole('heading', { name: 'All Accounts - Wallet Transactions for Cards' })).toBeVisible();
    await visit(page, `/admin/card-transfers?${scoped}`);
    await expect(page.getByRole('heading', { name: `${c.name} - Wallet Transactions for Cards` })).toBeVisible();
    if (!isPhone(page)) {
      for (const col of ['Type', 'Trans. Reference', 'Amount', 'Fees', 'Associated Card', 'Date', 'Balance Change']) {
        await expect(page.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
      }
    }
    // two issuances and a top-up; the deposit into the wallet is not a card's
    await expect(rows(page)).toHaveCount(3);
    // the wallet paid the cards' 80.00 plus their fees
    const fees = cents(await page.getByTestId('card-transfers-total-fees').innerText());
    expect(fees).toBeGreaterThan(0);
    await expect(page.getByTestId('card-transfers-total-amount')).toHaveText(
      `USD ${((8_000 + fees) / 100).toFixed(2)}`,
    );
    await snap(page, 'admin-card-transfers', project);

    if (isPhone(page)) await page.getByRole('button', { name: 'Filters' }).click();
    await pick(page, page, 'Type', 'Issuance');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByTestId('card-transfers-total-fees')).not.toHaveText(`USD ${(fees / 100).toFixed(2)}`);
    const issuanceFees = cents(await page.getByTestId('card-transfers-total-fees').innerText());
    await expect(page.getByTestId('card-transfers-total-amount')).toHaveText(
      `USD ${((7_000 + issuanceFees) / 100).toFixed(2)}`,
    );
    await pickDay(page.locator('form[aria-label="Filters"]'), 'Start Date', day(1));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(rows(page)).toHaveCount(3);
    if (isPhone(page)) await page.getByRole('button', { name: 'Filters' }).click();

    await rowWith(page, c.visa.masked_number)
      .filter({ hasText: 'Card Issuance' })
      .click({ position: { x: 24, y: 16 } });
    const d = drawer(page);
    await expect(d.getByText('Transaction Details')).toBeVisible();
    await expect(d.getByText('Amount (USD)')).toBeVisible();
    await expect(d.getByText('USD 50.00').first()).toBeVisible();
    await expect(d.getByText(c.visa.masked_number)).toBeVisible();
    const breakdown = d.getByTestId('fee-breakdown');
    // Each line says what it is: the amount the fees apply to, each fee, the fees' total.
    for (const label of [
      'Fees for',
      'Amount (sub-total)',
      'Card issuance fee',
      'Card load fee',
      'Flat fee',
      'Total fees',
    ]) {
      await expect(breakdown.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(breakdown.getByRole('row', { name: /Amount \(sub-total\)/ })).toContainText('USD 50.00');
    const feeTotal = await page
      .getByTestId('fee-breakdown')
      .getByRole('row', { name: /Total fees/ })
      .innerText();
    expect(cents(feeTotal)).toBeGreaterThan(0);
    await expect(breakdown.getByText('All fees are in USD')).toBeVisible();
    await snap(page, 'admin-card-transfer-details', project);
  });
});

test('staff read one account’s wallet and card transactions by date range; card maintenance lists the transfers', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const desktop = project === 'desktop';
  await signedInAs(page, desktop ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  await expect(page).toHaveURL(/\/admin$/);
  const { token: staffToken } = await sessionOf(page);
  const c = await customerWithCards(request, staffToken, `Rep${letters(6)}`);
  const scoped = `individual_id=${c.id}&acc_name=${encodeURIComponent(c.name)}`;

  await test.step('Wallet Transactions: the last 30 days at once, then a custom range: the account’s four movements', async () => {
    await visit(page, `/admin/wallet-transactions?${scoped}`);
    await expect(page.getByRole('heading', { name: `${c.name} - Wallet Transactions` })).toBeVisible();
    await expect(page.getByText('See all transactions that occur in your account')).toBeVisible();
    await expect(rows(page)).toHaveCount(4);
    await pickRange(page, day(-1), day(1));
    await page.getByRole('button', { name: 'Search' }).click();
    if (desktop) {
      for (const col of ['Reference', 'Amount', 'Transaction Type', 'Total Fees', 'Associated Card', 'Date']) {
        await expect(page.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
      }
    }
    // the approved top-up, two issuances and a card top-up; nobody else's movements
    await expect(rows(page)).toHaveCount(4);
    // 500.00 less the 0.5 % Tron fee
    await expect(rowWith(page, '497.50')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();
    await snap(page, 'admin-wallet-transactions', project);
  });

  await test.step('Card Transactions: a card of that account and a date range', async () => {
    await visit(page, `/admin/card-transactions?${scoped}`);
    await expect(page.getByRole('heading', { name: `${c.name} - Card Transactions` })).toBeVisible();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('Please select a card')).toBeVisible();
    await page.getByRole('combobox', { name: 'select card', exact: true }).click({ force: true });
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    // exactly this account's two cards
    await expect(options).toHaveCount(2);
    await expect(options.filter({ hasText: `${c.master.masked_number} (Admin Master)` })).toHaveCount(1);
    await expect(options.filter({ hasText: `${c.visa.masked_number} (Admin Visa)` })).toHaveCount(1);
    await options.filter({ hasText: 'Admin Visa' }).click();
    await pickRange(page, day(-1), day(1));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rowWith(page, 'Initial card load')).toBeVisible();
    await expect(rowWith(page, 'Card top-up')).toBeVisible();
    await snap(page, 'admin-card-transactions', project);
  });

  await test.step('Card Maintenance shows the wallet transfers list', async () => {
    await visit(page, '/admin/card-maintenance');
    await expect(page.getByRole('heading', { name: 'Wallet Transfer Transactions' })).toBeVisible();
  });
});
