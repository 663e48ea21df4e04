import { type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { hex64, letters, staffToken } from './support/cards';
import { PASSWORD, isPhone, snap } from './support/flows';
import { sessionFor, signedInAs } from './support/session';

/**
 * The staff dashboard's "Needs attention" (issue 31, item 7): tiles with counts, each a link to its list with the
 * filter applied. Desktop runs as the Super-Admin, phone as the Admin.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const TILES = {
  verifications_individuals: 'Individual verifications waiting',
  verifications_companies: 'Company verifications waiting',
  topups_to_decide: 'Top-ups to decide',
  chain_deposits_unassigned: 'Chain deposits unassigned',
  flagged_cards: 'Flagged cards',
  reconciliation_drift: 'Reconciliation drift',
  approvals_pending: 'Approvals waiting',
  disputes_to_send: 'Disputes to send',
} as const;

const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');

/** On a phone the filters are folded under a button that says how many are set: it must say so before it opens. */
async function openSetFilters(page: Page) {
  const button = page.getByRole('button', { name: /Filters \(\d+\)$/ });
  await expect(button).toBeVisible();
  await button.click();
}

test('the dashboard shows what needs attention, and each tile opens its list filtered', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const staffEmail = project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example';
  const last = `Waiting${letters(5)}`;

  // A customer's Tron top-up with its hash: one more top-up to decide.
  const { email } = await verifiedIndividual(request, 'Efua', last);
  const customer = await sessionFor(request, email, PASSWORD);
  const headers = { authorization: `Bearer ${customer.access_token}` };
  const made = await request.post('/api/v1/wallet/topup-balance', {
    headers,
    data: { wallet_id: String(customer.user.wallet_id), amount: '31.00', method: 'tron' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { reference } = (await made.json()).data as { reference: string };
  const conf = await request.post('/api/v1/wallet/topup-confirm', {
    headers,
    data: { reference, transaction_hash: hex64() },
  });
  expect(conf.status(), await conf.text()).toBe(200);

  const staff = await staffToken(request, staffEmail);
  const counts = async () => {
    const res = await request.get('/api/v1/admin/attention', { headers: { authorization: `Bearer ${staff}` } });
    expect(res.status()).toBe(200);
    return (await res.json()).data as Record<keyof typeof TILES, number>;
  };

  await signedInAs(page, staffEmail);
  const section = page.getByRole('region', { name: 'Needs attention' });

  await test.step('each tile shows its count, as the server counts it', async () => {
    // the other project's journeys change counts too: read both until they agree
    await expect(async () => {
      await page.reload();
      const want = await counts();
      for (const [key, label] of Object.entries(TILES)) {
        const tile = section.getByTestId(`attention-${key}`);
        await expect(tile).toHaveAccessibleName(`${label}: ${want[key as keyof typeof TILES]}`, { timeout: 5_000 });
      }
      expect(want.topups_to_decide).toBeGreaterThan(0);
    }).toPass({ timeout: 60_000 });
    await snap(page, 'staff-dashboard-attention', project);
  });

  await test.step('from the keyboard, "Top-ups to decide" opens Wallet Loads with only those', async () => {
    const tile = section.getByRole('link', { name: /^Top-ups to decide: \d+$/ });
    await tile.focus();
    await expect(tile).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin\/wallet-loads\?/);
    if (isPhone(page)) await openSetFilters(page);
    await expect(page.getByRole('checkbox', { name: 'Ready to decide' })).toBeChecked();
    await expect(rows(page).filter({ hasText: last })).toHaveCount(1);
    const states = await rows(page).allInnerTexts();
    expect(states.length).toBeGreaterThan(0);
    for (const text of states) expect(text).toMatch(/MoMo processed|Processing/);
    await snap(page, 'staff-dashboard-topups-to-decide', project);
  });

  await test.step('"Individual verifications waiting" opens the KYC list on In-review (pending)', async () => {
    await page.goBack();
    await section.getByRole('link', { name: /^Individual verifications waiting: \d+$/ }).click();
    await expect(page).toHaveURL(/\/admin\/verifications-individuals\?/);
    if (isPhone(page)) await openSetFilters(page);
    await expect(page.getByRole('form', { name: 'Filters' }).locator('.ant-select-selection-item')).toHaveText(
      'In-review',
    );
  });

  await test.step('"Chain deposits unassigned" opens Chain Deposits on Unassigned', async () => {
    await page.goBack();
    await section.getByRole('link', { name: /^Chain deposits unassigned: \d+$/ }).click();
    await expect(page).toHaveURL(/\/admin\/chain-deposits\?/);
    if (isPhone(page)) await openSetFilters(page);
    await expect(page.getByRole('form', { name: 'Filters' }).locator('.ant-select-selection-item')).toHaveText(
      'Unassigned',
    );
  });

  await test.step('"Flagged cards" opens Flagged Cards', async () => {
    await page.goBack();
    await section.getByRole('link', { name: /^Flagged cards: \d+$/ }).click();
    await expect(page).toHaveURL(/\/admin\/cards\/flagged/);
  });

  await test.step('"Disputes to send" opens Disputes on Submitted; "Approvals waiting" opens the pending requests', async () => {
    await page.goBack();
    await section.getByRole('link', { name: /^Disputes to send: \d+$/ }).click();
    await expect(page).toHaveURL(/\/admin\/disputes\?/);
    if (isPhone(page)) await openSetFilters(page);
    await expect(page.getByRole('form', { name: 'Filters' }).locator('.ant-select-selection-item')).toHaveText(
      'Submitted',
    );
    // the demo's dispute Ama opened yesterday waits to be sent
    await expect(rows(page).filter({ hasText: 'Netflix' })).toHaveCount(1);
    await page.goBack();
    await section.getByRole('link', { name: /^Approvals waiting: \d+$/ }).click();
    await expect(page).toHaveURL(/\/admin\/approvals/);
    await expect(page.getByRole('heading', { name: 'Approvals' })).toBeVisible();
  });
});
