import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { drawer, letters, staffToken } from './support/cards';
import { isPhone, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Card controls (issue 32, "Done when"): a customer blocks gambling on a card; a simulated gambling
 * payment (posted through the sandbox API as staff) is declined, and the customer sees why in the
 * card's transactions, with the merchant's category and country. Staff see the card's controls and
 * the program's on the back-office.
 */

const SUPER = 'super@cardwallet.example';
// One after the other: the first lifts a program control for a moment, the second saves the program as it reads it.
test.describe.configure({ mode: 'serial' });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Program = { blocked_categories: string[]; blocked_countries: string[] };
async function program(request: APIRequestContext, token: string): Promise<Program> {
  const res = await request.get('/api/v1/program/controls', { headers: auth(token) });
  expect(res.status()).toBe(200);
  const { blocked_categories, blocked_countries } = (await res.json()).data as Program;
  return { blocked_categories, blocked_countries };
}
const setProgram = (request: APIRequestContext, token: string, data: Program) =>
  request.put('/api/v1/program/controls', { headers: auth(token), data });

const transactionRows = (page: Page) =>
  page
    .getByTestId('card-controls')
    .locator('xpath=following-sibling::div[1]')
    .locator(isPhone(page) ? '.ant-list-item' : '.ant-table-tbody tr.ant-table-row');

test('a customer blocks gambling on a card; a gambling payment is declined and says why', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const staff = await staffToken(request, SUPER);
  const customer = await customerWithCards(request, staff, `Mensah${letters(5)}`);
  await signedInAs(page, customer.email, customer.password);
  await visit(page, `/portal/prepaid-cards/${customer.visa.id}`);

  const section = page.getByTestId('card-controls');
  await expect(section.getByText('Merchant categories')).toBeVisible();
  await expect(section.getByText('Any').first()).toBeVisible();
  await section.getByRole('button', { name: 'Set Controls' }).click();
  const panel = drawer(page);
  await expect(panel.getByText('Card Controls')).toBeVisible();
  await panel.getByText('Block these').first().click();
  const categories = panel.getByLabel('Blocked categories');
  await categories.click();
  await categories.fill('Gambl');
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('Gambling and betting').click();
  await page.keyboard.press('Escape');
  await snap(page, 'card-controls-drawer', project);
  await panel.getByRole('button', { name: 'Save Controls' }).click();
  await expect(page.getByText('Card controls saved.')).toBeVisible();
  await expect(section.getByText('Blocked: Gambling and betting')).toBeVisible();

  // The program blocks gambling on every card by default, and is checked first: lifted for this payment, so the
  // card's own control is what declines it. Put back whatever happens.
  const before = await program(request, staff);
  try {
    await setProgram(request, staff, {
      ...before,
      blocked_categories: before.blocked_categories.filter((c) => c !== 'gambling'),
    });
    const res = await request.post('/api/v1/sandbox/authorizations', {
      headers: auth(staff),
      data: {
        card_id: customer.visa.id,
        amount: '12.00',
        merchant: 'Lucky Star Bets',
        mcc: '7995',
        country: 'GH',
        currency: 'USD',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const answer = (await res.json()).data;
    expect(answer).toMatchObject({ approved: false, decline_code: 'merchant_category_blocked' });
  } finally {
    expect((await setProgram(request, staff, before)).status()).toBe(200);
  }

  await page.reload();
  const declined = transactionRows(page).filter({ hasText: 'Lucky Star Bets' });
  await expect(declined).toHaveCount(1);
  await expect(declined.getByTestId('decline-reason')).toHaveText(
    "Declined: This card's controls do not allow payments to gambling and betting.",
  );
  await expect(declined.getByText('Gambling and betting', { exact: false }).first()).toBeVisible();
  await expect(declined.getByText('Ghana', { exact: false }).first()).toBeVisible();
  await snap(page, 'card-controls-declined', project);
});

test("staff see a card's controls and the program's; only a Super-Admin changes the program", async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const staff = await staffToken(request, SUPER);
  const customer = await customerWithCards(request, staff, `Owusu${letters(5)}`);
  const set = await request.put(`/api/v1/cards/${customer.master.id}/controls`, {
    headers: auth(staff),
    data: {
      allowed_countries: ['GH', 'NG'],
      per_transaction_limit: '40.00',
      max_approvals: { count: 5, interval: 'daily' },
    },
  });
  expect(set.status(), await set.text()).toBe(200);

  await signedInAs(page, 'admin@cardwallet.example');
  await visit(page, `/admin/cards/${customer.master.id}`);
  const section = page.getByTestId('card-controls');
  await expect(section.getByText('Only Ghana, Nigeria')).toBeVisible();
  await expect(section.getByText('At most USD 40.00')).toBeVisible();
  await expect(section.getByText('At most 5 per day')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Set Controls' })).toBeVisible();
  await snap(page, 'card-controls-staff', project);

  await visit(page, '/admin/program-controls');
  await expect(page.getByRole('heading', { name: 'Program Controls' })).toBeVisible();
  await expect(page.getByText('Only a Super-Admin can change the program controls.')).toBeVisible();
  await expect(page.getByTestId('program-controls').getByText('Gambling and betting', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  await snap(page, 'program-controls-admin', project);

  await signedInAs(page, SUPER);
  await visit(page, '/admin/program-controls');
  const form = page.getByRole('form', { name: 'Program Controls' });
  await expect(form.locator('.ant-select-selection-item').filter({ hasText: 'Gambling and betting' })).toBeVisible();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Program controls saved.')).toBeVisible();
  await snap(page, 'program-controls-super', project);
});
