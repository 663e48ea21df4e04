import { type Page, expect, test } from '@playwright/test';
import { SENT_FOR_APPROVAL, SUPER2 } from './support/approvals';
import { drawer, letters, sessionOf } from './support/cards';
import { confirmCardMoney } from './support/confirm';
import { isPhone, motionless, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Maker-checker (issue 33) on demo data, where staff card withdrawals need a second person: an
 * Admin asks to withdraw from a card, the second Super-Admin sees the count in the menu, opens the
 * request, approves it, and the card's balance changes once.
 */
test.describe.configure({ timeout: 240_000 });

const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');

async function openMenu(page: Page, entry: string | RegExp) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: entry }).click();
}

test('an Admin asks to withdraw from a card; a second Super-Admin approves; the balance changes once', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  await signedInAs(page, 'admin@cardwallet.example');
  const { token } = await sessionOf(page);
  const last = `Appr${letters(6)}`;
  const c = await customerWithCards(request, token, last);
  const balance = async () => {
    const res = await request.get(`/api/v1/cards/${c.visa.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    return (await res.json()).data.card.balance as string;
  };
  expect(await balance()).toBe('60.00');

  await test.step('the Admin asks: "Sent for approval", nothing moved', async () => {
    await visit(page, `/admin/cards?individual_id=${c.id}&acc_name=${encodeURIComponent(c.name)}`);
    await page.getByRole('button', { name: 'Card Withdrawal' }).click();
    const panel = drawer(page);
    await expect(panel.locator('.ant-drawer-title')).toHaveText('Card Withdrawal');
    await motionless(page);
    await panel.getByRole('combobox', { name: 'Card', exact: true }).click({ force: true });
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Admin Visa' })
      .click();
    await panel.getByLabel('Amount').fill('5.00');
    await panel.getByRole('button', { name: 'Withdraw Funds' }).click();
    await confirmCardMoney(page, /^Withdraw USD 5\.00 from card •••• \d{4}/);
    await expect(page.getByText(SENT_FOR_APPROVAL)).toBeVisible();
    expect(await balance()).toBe('60.00');
  });

  const asked = `Withdraw USD 5\\.00 from card •••• \\d{4} of Yaw ${last}`;
  const summary = new RegExp(`^${asked}$`);
  const inRow = new RegExp(asked);
  await test.step('the second Super-Admin sees the count, opens the request and approves it', async () => {
    await signedInAs(page, SUPER2);
    if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
    const entry = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /^Approvals/ });
    await expect(entry.getByLabel(/^\d+ waiting$/)).toBeVisible();
    await entry.click();
    await expect(page.getByRole('heading', { name: 'Approvals' })).toBeVisible();
    const row = rows(page).filter({ hasText: inRow });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('admin@cardwallet.example');
    await snap(page, 'admin-approvals', project);
    await row.getByRole('button', { name: /^Approve: / }).click();
    await expect(page.getByText('Funds withdrawn to the master wallet.')).toBeVisible();
    await expect(rows(page).filter({ hasText: inRow })).toHaveCount(0);
    expect(await balance()).toBe('55.00');
  });

  await test.step('decided: it shows as approved, and approving again changes nothing', async () => {
    await openMenu(page, /^Approvals/);
    const { token: superToken } = await sessionOf(page);
    const list = await request.get('/api/v1/approvals?state=approved&per_page=100', {
      headers: { authorization: `Bearer ${superToken}` },
    });
    const done = ((await list.json()).data as Array<{ id: string; summary: string; state: string }>).find((a) =>
      summary.test(a.summary),
    )!;
    expect(done.state).toBe('approved');
    const again = await request.post(`/api/v1/approvals/${done.id}/approve`, {
      headers: { authorization: `Bearer ${superToken}` },
    });
    expect(again.status()).toBe(409);
    expect(await balance()).toBe('55.00');
  });
});
