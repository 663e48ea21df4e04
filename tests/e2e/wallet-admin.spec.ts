import { type Locator, type Page, expect, test } from '@playwright/test';
import dayjs from 'dayjs';
import { verifiedCompany, verifiedIndividual } from './support/accounts';
import { hex64, letters, sessionOf, staffToken } from './support/cards';
import { chooseOption, FIELD_ERROR, isPhone, snap, visit } from './support/flows';
import { giveApprovalNote } from './support/confirm';
import { signedInAs } from './support/session';
import { SENT_FOR_APPROVAL, SUPER2, approveAsSecondPerson } from './support/approvals';

/**
 * Back-office wallet journeys on the demo data. Desktop runs as the Super-Admin on Ama's
 * top-ups, fees and momo settings; phone runs as the Admin on Acme's top-ups, so the two
 * projects never decide the same top-up.
 */

const AMA = '00000000-0000-4000-8000-000000000003';
const ACME = '00000000-0000-4000-8000-0000000000c1';

/** Table rows on wide screens, compact list items on phones. */
const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');
const drawer = (page: Page) => page.locator('.ant-drawer-open .ant-drawer-content');
/** Opens a row by its left edge (the name), away from buttons such as the hash's copy. */
const openRow = (row: Locator) => row.click({ position: { x: 24, y: 16 } });
const cents = (s: string) => Math.round(Number(s.replace(/,/g, '')) * 100);

const usdtText = (c: number) =>
  `USDT ${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** An account's top-ups as the API lists them to staff: what the screen's rows are checked against. */
async function topupsOf(page: Page, query: string) {
  const { token } = await sessionOf(page);
  const res = await page.request.get(`/api/v1/wallet/list-topups?${query}&per_page=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { total: number; data: Array<{ state: string; amount: string }> };
  const approved = body.data.filter((t) => t.state === 'Approved');
  const sum = (state: (s: string) => boolean) =>
    body.data.filter((t) => state(t.state)).reduce((all, t) => all + cents(t.amount), 0);
  return {
    total: body.total,
    approved: approved.length,
    approvedCents: approved.reduce((sum, t) => sum + cents(t.amount), 0),
    /** the totals line as it should read: received (Approved), pending (neither decided), denied, all */
    line: {
      received: sum((s) => s === 'Approved'),
      pending: sum((s) => s !== 'Approved' && s !== 'Denied'),
      denied: sum((s) => s === 'Denied'),
      total: sum(() => true),
    },
  };
}

/** The totals line under Wallet Loads, in cents. */
async function totalsOnScreen(page: Page) {
  const read = async (id: string) => cents((await page.getByTestId(id).innerText()).replace(/^USDT /, ''));
  return {
    received: await read('topups-received'),
    pending: await read('topups-pending'),
    denied: await read('topups-denied'),
    total: await read('topups-total'),
  };
}

/** The totals line reads these figures (waits for the list to settle). */
async function expectTotals(page: Page, line: { received: number; pending: number; denied: number; total: number }) {
  await expect(page.getByTestId('topups-received')).toHaveText(usdtText(line.received));
  await expect(page.getByTestId('topups-pending')).toHaveText(usdtText(line.pending));
  await expect(page.getByTestId('topups-denied')).toHaveText(usdtText(line.denied));
  await expect(page.getByTestId('topups-total')).toHaveText(usdtText(line.total));
}

/** A user of a new company, made through the API, and a way for their company to delete them. */
async function companyMember(page: Page) {
  const owner = await verifiedCompany(page.request);
  const token = await staffToken(page.request, owner.email, owner.password);
  const headers = { authorization: `Bearer ${token}` };
  const profile = await page.request.get('/api/v1/individuals/profile', { headers });
  const companyId = (await profile.json()).data.company.id as string;
  const email = `esi.${Date.now().toString(36)}@example.com`;
  const made = await page.request.post(`/api/v1/company/users/${companyId}`, {
    headers,
    data: { first_name: 'Esi', last_name: 'Badu', phone_number: '+233245556677', email, role: 'user' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const id = (await made.json()).data.id as string;
  return {
    email,
    remove: async () =>
      expect((await page.request.delete(`/api/v1/company/users/${companyId}/${id}`, { headers })).status()).toBe(202),
  };
}

async function balanceDelta(row: Locator): Promise<number> {
  const text = await row.innerText();
  const m = /USDT ([\d,]+\.\d{2}) → USDT ([\d,]+\.\d{2})/.exec(text);
  expect(m, `balance change in "${text}"`).not.toBeNull();
  return cents(m![2]!) - cents(m![1]!);
}

async function pickDay(page: Page, label: string, day: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(day);
  await input.press('Enter');
}

const pickOption = (page: Page, label: string, option: string) =>
  chooseOption(page, page.getByLabel(label, { exact: true }), option);

async function openFilters(page: Page) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Filters' }).click();
}

async function openMenu(page: Page, entry: string) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: entry, exact: true }).click();
}

/** Approve or deny the open top-up; answers the drawer for further checks. */
async function decide(page: Page, action: 'Approve' | 'Deny', reason?: string) {
  const d = drawer(page);
  await d.getByText(action, { exact: true }).click();
  if (reason) await d.getByLabel('Reason').fill(reason);
  await d.getByRole('button', { name: 'Submit' }).click();
  return d;
}

test.describe.configure({ mode: 'serial' });

test('staff approve and deny wallet top-ups, see transfers; menus follow the role', async ({ page }, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  const desktop = project === 'desktop';
  await signedInAs(page, desktop ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  await expect(page).toHaveURL(/\/admin$/);

  await test.step('dashboard: the latest top-ups, linked to Wallet Loads', async () => {
    const card = page.locator('.ant-card', { hasText: 'Wallet Top-Ups' });
    await expect(card.getByText('View all')).toBeVisible();
    await expect(card.locator(isPhone(page) ? '.ant-list-item' : 'tr.ant-table-row').first()).toBeVisible();
    await snap(page, 'admin-dashboard-topups', project);
  });

  await test.step('the menu shows the role’s groups', async () => {
    if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByText('Wallet Management')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Wallet Loads' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Wallet Transfers' })).toBeVisible();
    if (desktop) {
      await expect(nav.getByText('Administration')).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Fees Management' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Momo Management' })).toBeVisible();
    } else {
      await expect(nav.getByText('Administration')).toHaveCount(0);
      await expect(nav.getByRole('link', { name: 'Fees Management' })).toHaveCount(0);
      await expect(nav.getByRole('link', { name: 'Momo Management' })).toHaveCount(0);
      await snap(page, 'admin-menu', project);
      await page.keyboard.press('Escape');
      await visit(page, '/admin/fees');
      await expect(page.getByText('Sorry, your role does not give access to this page.')).toBeVisible();
      await snap(page, 'admin-fees-403', project);
      await visit(page, '/admin/momo');
      await expect(page.getByText('Sorry, your role does not give access to this page.')).toBeVisible();
      await visit(page, '/admin');
    }
  });

  await test.step('Wallet Loads: all accounts, then one account filtered by state and date', async () => {
    await openMenu(page, 'Wallet Loads');
    await expect(page).toHaveURL(/\/admin\/wallet-loads/);
    await expect(page.getByRole('heading', { name: 'All Accounts - Wallet Top-Ups / Loads' })).toBeVisible();
    await expect(page.getByTestId('topups-total')).toHaveText(/^USDT [\d,]+\.\d{2}$/);
    if (!isPhone(page)) {
      for (const c of [
        'Name',
        'Account Type',
        'Amount',
        'Transaction Hash',
        'State',
        'Last Modified',
        'Balance Change',
      ]) {
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      }
    }
    await snap(page, 'admin-wallet-loads-all', project);

    // A dashboard row (the latest top-ups: other journeys add theirs) leads to that account's Wallet Loads.
    await openMenu(page, 'Dashboard');
    const latest = page
      .locator('.ant-card', { hasText: 'Wallet Top-Ups' })
      .locator(isPhone(page) ? '.ant-list-item' : 'tr.ant-table-row')
      .first();
    await expect(latest).toBeVisible();
    await openRow(latest);
    await expect(page).toHaveURL(/\/admin\/wallet-loads\?.*(individual_id|company_id)=/);
    await expect(page.getByRole('heading', { name: / - Wallet Top-Ups \/ Loads$/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'All Accounts - Wallet Top-Ups / Loads' })).toHaveCount(0);

    const [id, name] = desktop ? [`individual_id=${AMA}`, 'Ama Mensah'] : [`company_id=${ACME}`, 'Acme Logistics Ltd'];
    await visit(page, `/admin/wallet-loads?${id}&acc_name=${encodeURIComponent(name)}`);
    await expect(page.getByRole('heading', { name: `${name} - Wallet Top-Ups / Loads` })).toBeVisible();
    // Ama has 6 top-ups (2 approved: 500.00 + 200.00); Acme a few months of weekly ones.
    const expected = await topupsOf(page, id);
    const { line, ...counts } = expected;
    if (desktop) expect(counts).toEqual({ total: 6, approved: 2, approvedCents: 70_000 });
    // Ama's and Acme's lists hold top-ups of every kind: received, pending and denied.
    expect(line.pending).toBeGreaterThan(0);
    expect(line.denied).toBeGreaterThan(0);
    expect(line.total).toBe(line.received + line.pending + line.denied);
    expect(expected.total).toBeLessThanOrEqual(25); // one page
    await expect(rows(page)).toHaveCount(expected.total);

    await openFilters(page);
    await pickOption(page, 'State', 'Approved');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(expected.approved);
    for (const r of await rows(page).all()) await expect(r.getByText('Approved', { exact: true })).toBeVisible();
    // The totals line is the sum of the filtered set.
    await expect(page.getByTestId('topups-total')).toHaveText(usdtText(expected.approvedCents));
    // Received apart from pending and denied.
    await expect(page.getByTestId('topups-received')).toHaveText(usdtText(expected.approvedCents));
    await expect(page.getByTestId('topups-pending')).toHaveText('USDT 0.00');
    await expect(page.getByTestId('topups-denied')).toHaveText('USDT 0.00');
    await snap(page, 'admin-wallet-loads-filtered', project);

    // Approved (and Denied) rows do not open the panel.
    await openRow(rows(page).first());
    await page.waitForTimeout(400);
    await expect(drawer(page)).toHaveCount(0);

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(rows(page)).toHaveCount(expected.total);
    // The whole list: what was received, what is pending and what was denied, each on its own.
    await expectTotals(page, line);
    if (desktop) {
      await pickDay(page, 'Start Date', dayjs().subtract(2, 'day').format('YYYY-MM-DD'));
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(rows(page)).toHaveCount(3);
      await expect(page.getByTestId('topups-total')).toHaveText('USDT 600.00');
    } else {
      await page.getByRole('button', { name: 'Filters' }).click();
    }
  });

  await test.step('approve one top-up and deny another with a reason', async () => {
    // Desktop: Ama's Tron top-up with its hash; phone: Acme's Momo top-up a momo agent confirmed.
    const target = rows(page)
      .filter({ hasText: desktop ? 'Processing' : 'MoMo processed' })
      .filter({ hasText: desktop ? 'Tron' : 'Momo' });
    const before = await totalsOnScreen(page);
    await openRow(target);
    const d = drawer(page);
    await expect(d.getByText('Approve or Deny Top-Up')).toBeVisible();
    await d.getByRole('button', { name: 'Submit' }).click();
    await expect(d.getByText('Action is required')).toBeVisible();
    await d.getByText('Deny', { exact: true }).click();
    await d.getByRole('button', { name: 'Submit' }).click();
    await expect(d.getByText('A reason is required to deny a top-up')).toBeVisible();
    await snap(page, 'admin-wallet-loads-panel', project);
    await decide(page, 'Approve');
    // Ama's hash is not on the chain: approving it asks why (a Momo top-up has no chain to ask).
    if (desktop) await giveApprovalNote(page, 'Checked on a Tron explorer: paid.');
    await expect(page.getByText('Top-up approved and the wallet credited.')).toBeVisible();
    await expect(drawer(page)).toHaveCount(0);
    const approved = rows(page).filter({ hasText: desktop ? 'USDT 300.00' : 'USDT 1,000.00' });
    await expect(approved.getByText('Approved', { exact: true })).toBeVisible();
    // Tron pays the 0.5 % fee: 300.00 − 1.50; Momo is credited in full.
    expect(await balanceDelta(approved)).toBe(desktop ? 29_850 : 100_000);

    if (desktop) {
      // A Momo top-up no momo agent confirmed offers no Approve, and says why (the server refuses it too).
      await openRow(rows(page).filter({ hasText: 'Processing' }).filter({ hasText: 'Momo' }));
      const why = 'A Momo top-up can be approved once a momo agent has confirmed the payment.';
      await expect(drawer(page).getByTestId('not-approvable')).toContainText(why);
      await expect(drawer(page).locator('.ant-radio-button-wrapper', { hasText: 'Approve' })).toHaveCount(0);
      await expect(drawer(page).locator('.ant-radio-button-wrapper', { hasText: 'Deny' })).toBeVisible();
      await snap(page, 'admin-wallet-loads-refused', project);
    } else {
      await openRow(rows(page).filter({ hasText: 'Pending' }).filter({ hasText: 'Momo' }));
    }
    await decide(page, 'Deny', 'No mobile-money payment with this reference arrived.');
    await expect(page.getByText('Top-up denied.')).toBeVisible();
    await expect(drawer(page)).toHaveCount(0);
    const denied = rows(page)
      .filter({ hasText: desktop ? 'USDT 150.00' : 'USDT 250.00' })
      .filter({ hasText: 'Momo' });
    await expect(denied.getByText('Denied', { exact: true })).toBeVisible();
    // Both left Pending: one now received, the other denied; the total stays.
    const [approvedCents, deniedCents] = desktop ? [30_000, 15_000] : [100_000, 25_000];
    await expectTotals(page, {
      received: before.received + approvedCents,
      pending: before.pending - approvedCents - deniedCents,
      denied: before.denied + deniedCents,
      total: before.total,
    });
    await snap(page, 'admin-wallet-loads-decided', project);
  });

  await test.step('Wallet Transfers: details with the real date and status', async () => {
    await openMenu(page, 'Wallet Transfers');
    await expect(page.getByRole('heading', { name: 'Wallet Transfer Transactions' })).toBeVisible();
    if (!isPhone(page)) {
      for (const c of ['Transaction Id', 'Type', 'Amount', 'Reference', 'Transaction By', 'Last Modified']) {
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      }
    }
    // The demo's three transfers (customer journeys running meanwhile may add theirs).
    const seeded = rows(page).filter({ hasText: /USDT 25\.00(?![\d])/ });
    await expect(seeded).toHaveCount(1);
    expect(await rows(page).count()).toBeGreaterThanOrEqual(3);
    await snap(page, 'admin-wallet-transfers', project);
    // Acme's 25.00 to Ama, three days ago.
    await openRow(seeded);
    const d = drawer(page);
    await expect(d.getByText('Transfer Details')).toBeVisible();
    const row = (label: string) =>
      d.locator('tr', { has: page.locator('th', { hasText: new RegExp(`^${label}$`) }) }).locator('td');
    // Three days before the demo was seeded, which may have been before the last midnight.
    const days = [0, 1].map((back) =>
      dayjs()
        .subtract(3 + back, 'day')
        .format('D MMM YYYY')
        .replace(/ /g, '\\s'),
    );
    await expect(row('Date')).toContainText(new RegExp(days.join('|')));
    await expect(row('Status')).toHaveText('Completed');
    await expect(row('Amount')).toHaveText('USDT 25.00');
    await expect(row('Type')).toHaveText('Transfer');
    await expect(row('From')).toHaveText('Acme Logistics Ltd');
    await expect(row('To')).toHaveText('Ama Mensah');
    await expect(row('Balance Before')).toHaveText(/^USDT [\d,]+\.\d{2}$/);
    await expect(row('Balance After')).toHaveText(/^USDT [\d,]+\.\d{2}$/);
    await snap(page, 'admin-transfer-details', project);
    await d.getByRole('button', { name: 'Close' }).click();
  });
});

test('a Tron top-up without its hash offers no Approve; a top-up decided meanwhile is refused inside the drawer', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const project = info.project.name;
  const desktop = project === 'desktop';
  // This run's own customer, so the figures are known: three Tron top-ups made through the API.
  const last = `Darko${letters(5)}`;
  const customer = await verifiedIndividual(page.request, 'Yaw', last);
  const auth = {
    authorization: `Bearer ${await staffToken(page.request, customer.email, customer.password)}`,
  };
  const profile = await page.request.get('/api/v1/individuals/profile', { headers: auth });
  const wallet = (await profile.json()).data.user.wallet_id as string;
  const topUp = async (amount: string, hash: boolean) => {
    const made = await page.request.post('/api/v1/wallet/topup-balance', {
      headers: auth,
      data: { wallet_id: wallet, amount, method: 'tron' },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { reference } = (await made.json()).data as { reference: string };
    if (hash) {
      const confirmed = await page.request.post('/api/v1/wallet/topup-confirm', {
        headers: auth,
        data: { reference, transaction_hash: hex64() },
      });
      expect(confirmed.status(), await confirmed.text()).toBe(200);
    }
    const list = await page.request.get(`/api/v1/reports/view-wallet-topups?wallet=${wallet}&per_page=100`, {
      headers: auth,
    });
    return ((await list.json()).data as Array<{ id: string; reference: string }>).find(
      (t) => t.reference === reference,
    )!.id;
  };
  await topUp('40.00', false);
  const contested = await topUp('25.00', true);
  const received = await topUp('15.00', true);
  // Another staff member, through the API: approves one now, and will deny the contested one meanwhile.
  const other = {
    authorization: `Bearer ${await staffToken(page.request, desktop ? 'admin@cardwallet.example' : 'super@cardwallet.example')}`,
  };
  const decideAsOther = async (topup_id: string, action: 'approve' | 'deny', reason?: string) => {
    const r = await page.request.post('/api/v1/wallet/approve-topup', {
      headers: other,
      data: {
        topup_id,
        action,
        ...(reason ? { reason } : {}),
        // the hashes here are made up: approving one the chain did not confirm needs a note
        ...(action === 'approve' ? { note: 'Checked on a Tron explorer: paid.' } : {}),
      },
    });
    expect(r.status(), await r.text()).toBe(200);
  };
  await decideAsOther(received, 'approve');

  await signedInAs(page, desktop ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  await expect(page).toHaveURL(/\/admin$/);
  const name = `Yaw ${last}`;
  await visit(page, `/admin/wallet-loads?individual_id=${wallet}&acc_name=${encodeURIComponent(name)}`);
  await expect(page.getByRole('heading', { name: `${name} - Wallet Top-Ups / Loads` })).toBeVisible();
  await expect(rows(page)).toHaveCount(3);
  await expectTotals(page, { received: 1_500, pending: 6_500, denied: 0, total: 8_000 });

  await test.step('no hash yet: Deny only, and the drawer says why', async () => {
    await openRow(rows(page).filter({ hasText: 'USDT 40.00' }));
    const d = drawer(page);
    await expect(d.getByText('Approve or Deny Top-Up')).toBeVisible();
    await expect(d.getByTestId('not-approvable')).toHaveText(
      'A Tron top-up can be approved once the customer has provided the transaction hash.',
    );
    await expect(d.locator('.ant-radio-button-wrapper', { hasText: 'Approve' })).toHaveCount(0);
    await expect(d.locator('.ant-radio-button-wrapper', { hasText: 'Deny' })).toBeVisible();
    await snap(page, 'admin-wallet-loads-tron-no-hash', project);
    await d.getByRole('button', { name: 'Close' }).click();
    await expect(drawer(page)).toHaveCount(0);
  });

  await test.step('decided by someone else meanwhile: the refusal is said once, in the drawer', async () => {
    await openRow(rows(page).filter({ hasText: 'USDT 25.00' }));
    const d = drawer(page);
    await expect(d.getByTestId('not-approvable')).toHaveCount(0);
    await d.getByText('Approve', { exact: true }).click();
    await decideAsOther(contested, 'deny', 'The hash belongs to a transfer to another address.');
    await d.getByRole('button', { name: 'Submit' }).click();
    await giveApprovalNote(page, 'Checked on a Tron explorer: paid.');
    const refusal = 'This top-up was already denied.';
    await expect(d.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
    // Once on the page, no toast (it would cover the drawer's title); nothing left to decide.
    await expect(page.getByText(refusal)).toHaveCount(1);
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
    await expect(d.getByText('Approve or Deny Top-Up')).toBeVisible();
    await expect(d.getByRole('button', { name: 'Submit' })).toBeHidden();
    await snap(page, 'admin-wallet-loads-decided-meanwhile', project);
    await d.getByRole('button', { name: 'Close' }).click();
    await expect(drawer(page)).toHaveCount(0);
    // The list behind now tells the truth.
    await expect(rows(page).filter({ hasText: 'USDT 25.00' }).getByText('Denied', { exact: true })).toBeVisible();
    await expectTotals(page, { received: 1_500, pending: 4_000, denied: 2_500, total: 8_000 });
  });
});

test('the Super-Admin edits fees and saves the momo settings', async ({ page, request }, info) => {
  test.skip(
    info.project.name !== 'desktop',
    'Super-Admin screens run once, on desktop (phone-size screenshots included)',
  );
  test.setTimeout(300_000);
  const project = info.project.name;
  await signedInAs(page, 'super@cardwallet.example');
  // The demo holds fee changes for a second person (issue 33): each save waits for Akosua's approval.
  const approvedBySecondPerson = async (summary: RegExp) => {
    await expect(page.getByText(SENT_FOR_APPROVAL)).toBeVisible();
    await approveAsSecondPerson(request, summary, SUPER2);
    await page.reload();
  };

  await test.step('List of Fees: filter, edit a value, deactivate and reactivate', async () => {
    await openMenu(page, 'Fees Management');
    await expect(page.getByRole('heading', { name: 'List of Fees' })).toBeVisible();
    for (const c of ['Name', 'Type', 'Value', 'State', 'For', 'Company', 'Last Modified']) {
      await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
    }
    await pickOption(page, 'Fees For', 'Default');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(13);
    await snap(page, 'admin-fees', project);

    const fee = () => rows(page).filter({ hasText: 'card-issuance-tokencard' });
    await fee().getByRole('button', { name: 'Edit card-issuance-tokencard' }).click();
    const d = drawer(page);
    await expect(d.getByLabel('Name')).toHaveValue('card-issuance-tokencard');
    await expect(d.getByLabel('Name')).toHaveAttribute('readonly', '');
    await d.getByLabel('Value').fill('');
    await d.getByRole('button', { name: 'Save' }).click();
    await expect(d.getByText('Value is required')).toBeVisible();
    await d.getByLabel('Value').fill('3.25');
    await snap(page, 'admin-fee-edit', project);
    await d.getByRole('button', { name: 'Save' }).click();
    // The demo holds fee changes for a second person (issue 33): the fee is as it was until approved.
    await approvedBySecondPerson(/^Set the fee "card-issuance-tokencard" to USD 3\.25, active$/);
    await expect(fee()).toContainText('USD 3.25');

    await fee().getByRole('button', { name: 'Edit card-issuance-tokencard' }).click();
    await drawer(page).getByRole('switch', { name: 'State' }).click();
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await approvedBySecondPerson(/^Set the fee "card-issuance-tokencard" to USD 3\.25, inactive$/);
    await expect(fee().getByText('Inactive', { exact: true })).toBeVisible();
    await fee().getByRole('button', { name: 'Edit card-issuance-tokencard' }).click();
    await expect(drawer(page).getByRole('switch', { name: 'State' })).not.toBeChecked();
    await drawer(page).getByRole('switch', { name: 'State' }).click();
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await approvedBySecondPerson(/^Set the fee "card-issuance-tokencard" to USD 3\.25, active$/);
    await expect(fee().getByText('Active', { exact: true })).toBeVisible();
  });

  await test.step("a company's fees: editing an inherited default creates its own", async () => {
    await visit(page, `/admin/fees/${ACME}?acc_name=${encodeURIComponent('Acme Logistics Ltd')}`);
    await expect(page.getByRole('heading', { name: 'Acme Logistics Ltd - Fees' })).toBeVisible();
    const load = () => rows(page).filter({ hasText: 'card-load-general' });
    await expect(load().getByText('Default', { exact: true })).toBeVisible();
    await load().getByRole('button', { name: 'Edit card-load-general' }).click();
    await expect(drawer(page).getByLabel('Company')).toHaveValue('Acme Logistics Ltd');
    await drawer(page).getByLabel('Value').fill('1.25');
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await approvedBySecondPerson(/^Set the fee "card-load-general" for Acme Logistics Ltd to 1\.25%/);
    await expect(load()).toContainText('1.25 %');
    await expect(load().getByText('Company', { exact: true })).toBeVisible();
    await snap(page, 'admin-company-fees', project);
    await page.getByRole('button', { name: 'All fees' }).click();
    await pickOption(page, 'Fees For', 'Company');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Acme Logistics Ltd');
  });

  await test.step('Momo Details: required fields, a server refusal, then a save', async () => {
    await openMenu(page, 'Momo Management');
    await expect(page.getByRole('heading', { name: 'Momo Details' })).toBeVisible();
    await expect(page.getByLabel('Momo Name')).toHaveValue('Cardwallet Ltd');
    await expect(page.getByLabel('MoMo Alert Emails')).toHaveValue('momo-alerts@cardwallet.example');
    await page.getByLabel('Momo Name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Momo Name is required')).toBeVisible();
    await page.getByLabel('Momo Name').fill('Cardwallet Payments Ltd');
    // The rate stays as seeded: customer journeys running meanwhile quote Momo amounts with it.
    await expect(page.getByLabel('Rate')).toHaveValue('15.50');
    await page.getByLabel('MoMo Alert Emails').fill('momo-alerts@cardwallet.example, ops@cardwallet.example');
    // Confirmation users are picked by name and email; the demo's momo agent is shown by name.
    const confirmers = page.getByLabel('Momo Confirmation Users');
    const field = page.locator('.ant-form-item').filter({ has: confirmers });
    await expect(field.locator('.ant-select-selection-item')).toHaveText(['Kwame Asare · agent@cardwallet.example']);
    // A company user picked, then deleted by their company before the save: said once, under the field.
    const member = await companyMember(page);
    // The search box is read-only until the picker opens: click it, then type.
    await confirmers.click();
    await page.keyboard.type(member.email.slice(0, 12));
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .getByText(`Esi Badu · ${member.email} (Cape Coast Ventures)`)
      .click();
    await page.keyboard.press('Escape');
    await expect(field.locator('.ant-select-selection-item')).toHaveCount(2);
    await snap(page, 'admin-momo-picker', project);
    await member.remove();
    await page.getByRole('button', { name: 'Save' }).click();
    const refusal = `Esi Badu (${member.email}) is no longer a customer: remove them and save again`;
    await expect(field.locator(FIELD_ERROR)).toHaveText(refusal);
    await expect(page.locator('.ant-message-error')).toHaveCount(0);
    // Removing them clears the message at once.
    await field
      .locator('.ant-select-selection-item')
      .filter({ hasText: 'Esi Badu' })
      .locator('.ant-select-selection-item-remove')
      .click();
    await expect(field.locator(FIELD_ERROR)).toHaveCount(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Momo settings saved.')).toBeVisible();
    // Read back from the server.
    await openMenu(page, 'Dashboard');
    await openMenu(page, 'Momo Management');
    await expect(page.getByLabel('Rate')).toHaveValue('15.50');
    await expect(page.getByLabel('Momo Name')).toHaveValue('Cardwallet Payments Ltd');
    await expect(page.getByLabel('MoMo Alert Emails')).toHaveValue(
      'momo-alerts@cardwallet.example, ops@cardwallet.example',
    );
    await expect(field.locator('.ant-select-selection-item')).toHaveText(['Kwame Asare · agent@cardwallet.example']);
    await snap(page, 'admin-momo', project);
    const flatFee = await page.getByLabel('Flat Fee').inputValue();

    // The audit trail writes the amounts of these changes as money: the momo flat fee (pesewas on the wire) in
    // GHS, the fixed fee in USD.
    await visit(page, '/admin/audit-logs');
    const entry = (label: string) =>
      page.locator('tr.ant-table-row, .ant-list-item').filter({ hasText: label }).first();
    await expect(entry('Momo settings saved')).toContainText(`flat fee: GHS ${flatFee}`);
    await expect(entry('Fee updated')).toContainText('value: USD 3.25');
    await snap(page, 'admin-audit-money', project);
  });

  await test.step('the same screens at phone size', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await visit(page, '/admin/fees');
    await expect(page.getByRole('heading', { name: 'List of Fees' })).toBeVisible();
    await snap(page, 'admin-fees-at-390', project);
    await rows(page).first().getByRole('button').click();
    await expect(drawer(page).getByLabel('Value')).toBeVisible();
    await snap(page, 'admin-fee-edit-at-390', project);
    await page.keyboard.press('Escape');
    await visit(page, '/admin/momo');
    await expect(page.getByLabel('Momo Name')).toBeVisible();
    await snap(page, 'admin-momo-at-390', project);
    await visit(page, `/admin/fees/${ACME}`);
    await expect(page.getByRole('heading', { name: 'Acme Logistics Ltd - Fees' })).toBeVisible();
    await snap(page, 'admin-company-fees-at-390', project);
  });
});
