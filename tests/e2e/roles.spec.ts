import { type Page, expect as baseExpect, test } from '@playwright/test';
import { letters, staffToken } from './support/cards';
import { isPhone, openDropdown, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Roles by job (issue 33): the back-office shows a person only what their role may do. The Auditor walks every
 * screen of their menu and finds nothing that changes anything; Support reads customers and cards, freezes a
 * card, and sees neither the Fees menu nor a top-up's Approve.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

/** Every button that changes something somewhere in the back-office. */
const CHANGES =
  /^(Approve|Disapprove|Deny|Fund Card|Card Withdrawal|Withdraw|Delete.*|Save|Add.*|Freeze.*|Unfreeze.*|Assign.*|Return.*|Run now|Activate Cards|Edit.*|Reset 2FA.*|Deactivate|Reactivate|Simulate.*)$/;

async function expectNoChangeButton(page: Page, where: string) {
  await expect(page.getByRole('button', { name: CHANGES }), `${where}: a button that changes something`).toHaveCount(0);
}

/** The Auditor's screens: every entry of their menu (Admin Management, Audit Trail and the settings included). */
const AUDITOR_SCREENS = [
  ['/admin', 'Dashboard'],
  ['/admin/verifications-individuals', 'individual-verifications'],
  ['/admin/verifications-companies', 'company-verifications'],
  ['/admin/fees', 'fees'],
  ['/admin/administration-admins', 'admins'],
  ['/admin/momo', 'momo'],
  ['/admin/audit-logs', 'audit'],
  ['/admin/card-transfers', 'wallet-transactions'],
  ['/admin/wallet-loads', 'wallet-loads'],
  ['/admin/wallet-transfers', 'wallet-transfers'],
  ['/admin/chain-deposits', 'chain-deposits'],
  ['/admin/cards', 'cards'],
  ['/admin/cards/deleted', 'cards-deleted'],
  ['/admin/cards/flagged', 'cards-flagged'],
  ['/admin/program-controls', 'program-controls'],
  ['/admin/reconciliation', 'reconciliation'],
  ['/admin/customers-individuals', 'customers'],
  ['/admin/customers-companies', 'companies'],
  ['/admin/third-parties', 'third-parties'],
  ['/admin/reports/statistics', 'statistics'],
] as const;

test('an Auditor walks every back-office screen and finds no button that changes anything', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const token = await staffToken(request, 'auditor@cardwallet.example');
  const get = async (path: string) => {
    const res = await request.get(`/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status(), path).toBe(200);
    return (await res.json()) as { data: Array<{ id: string | number }> };
  };
  await signedInAs(page, 'auditor@cardwallet.example');

  if (!isPhone(page))
    await test.step('the menu holds every screen, the Auditor’s own included', async () => {
      for (const entry of ['Admin Management', 'Audit Trail', 'Fees Management', 'Momo Management', 'Reconciliation'])
        await expect(page.getByRole('menuitem', { name: entry })).toBeAttached();
    });

  for (const [path, name] of AUDITOR_SCREENS)
    await test.step(`${path}: read only`, async () => {
      await visit(page, path, { newScreen: path !== '/admin' });
      await expect(page.locator('#root h1, #root h2').first()).toBeVisible();
      await expect(page.getByText('403', { exact: true })).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      await expectNoChangeButton(page, path);
      await snap(page, `auditor-${name}`, project);
    });

  await test.step('a customer’s row menu: links only', async () => {
    await visit(page, '/admin/customers-individuals', { newScreen: true });
    const menu = await openDropdown(page, page.getByRole('button', { name: /^Actions for / }).first());
    await expect(menu.getByRole('menuitem', { name: 'View Cards' })).toBeVisible();
    for (const entry of ['Reset 2FA', 'Deactivate', 'Reactivate'])
      await expect(menu.getByRole('menuitem', { name: entry })).toHaveCount(0);
    await page.keyboard.press('Escape');
  });

  await test.step('a card’s detail and its options: no change', async () => {
    const cards = await get('/cards?per_page=5');
    await visit(page, `/admin/cards/${cards.data[0]!.id}`, { newScreen: true });
    await expect(page.getByRole('button', { name: 'Card options' })).toBeVisible();
    await expectNoChangeButton(page, 'card detail');
    const menu = await openDropdown(page, page.getByRole('button', { name: 'Card options' }));
    await expect(menu.getByRole('menuitem', { name: 'Card Transactions' })).toBeVisible();
    for (const entry of ['Fund Card', 'Card Withdrawal', 'Freeze Card', 'Unfreeze Card', 'Delete Card'])
      await expect(menu.getByRole('menuitem', { name: entry })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await snap(page, 'auditor-card-detail', project);
  });

  await test.step('a verification’s detail: no decision', async () => {
    const list = await get('/verification/get-individuals?per_page=5');
    await visit(page, `/admin/verifications-individuals/${list.data[0]!.id}`, { newScreen: true });
    await expect(page.getByRole('button', { name: /Back/ }).first()).toBeVisible();
    await expectNoChangeButton(page, 'verification detail');
    await snap(page, 'auditor-verification-detail', project);
  });

  await test.step('a company’s fees: no edit', async () => {
    const companies = await get('/companies?per_page=5');
    await visit(page, `/admin/fees/${companies.data[0]!.id}`, { newScreen: true });
    await page.waitForLoadState('networkidle');
    await expectNoChangeButton(page, 'company fees');
    await snap(page, 'auditor-company-fees', project);
  });
});

test('Support reads customers and cards and freezes a card, without Fees or a top-up’s Approve', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const superToken = await staffToken(request, 'super@cardwallet.example');
  const customer = await customerWithCards(request, superToken, `Sup${letters(5)}`);
  await signedInAs(page, 'support@cardwallet.example');

  if (!isPhone(page))
    await test.step('the menu: customers and cards, no Fees, no staff, no audit', async () => {
      await expect(page.getByRole('menuitem', { name: 'Customers List' })).toBeAttached();
      await expect(page.getByRole('menuitem', { name: 'All Cards' })).toBeAttached();
      for (const entry of ['Fees Management', 'Admin Management', 'Audit Trail', 'Reconciliation', 'Statistics'])
        await expect(page.getByRole('menuitem', { name: entry })).toHaveCount(0);
    });

  await test.step('the Fees screen answers 403', async () => {
    await visit(page, '/admin/fees', { newScreen: true });
    await expect(page.getByText('Sorry, your role does not give access to this page.')).toBeVisible();
  });

  await test.step('top-ups: read, never decided', async () => {
    await visit(page, '/admin/wallet-loads', { newScreen: true });
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: /^(Approve|Deny)$/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Open top-up/ })).toHaveCount(0);
    await snap(page, 'support-wallet-loads', project);
  });

  await test.step('a customer’s card: freeze it, and nothing that moves money', async () => {
    await visit(page, `/admin/cards/${customer.master.id}`, { newScreen: true });
    const menu = await openDropdown(page, page.getByRole('button', { name: 'Card options' }));
    for (const entry of ['Fund Card', 'Card Withdrawal', 'Delete Card'])
      await expect(menu.getByRole('menuitem', { name: entry })).toHaveCount(0);
    await menu.getByRole('menuitem', { name: 'Freeze Card' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm.locator('.ant-modal-confirm-title')).toHaveText('Please do you wish to freeze this card?');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Card frozen successfully.')).toBeVisible();
    await snap(page, 'support-card-frozen', project);
  });
});
