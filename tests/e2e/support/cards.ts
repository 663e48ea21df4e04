import { type APIRequestContext, type Locator, type Page, expect as baseExpect } from '@playwright/test';
import { DEMO_PASSWORD, chooseOption, isPhone, motionless, openDropdown } from './flows';
import { sessionFor } from './session';

/** Helpers of the card journeys: funding a wallet as staff would, reading balances, antd pickers. */

const expect = baseExpect.configure({ timeout: 30_000 });

export const hex64 = () =>
  Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
export const letters = (n: number) =>
  Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A staff member's (or any account's) token: the run's shared session of that account. */
export async function staffToken(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  return (await sessionFor(request, email, password)).access_token;
}

/** The signed-in customer's token and wallet, as the SPA stored them. */
export const sessionOf = (page: Page) =>
  page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('cw.auth')!);
    return { token: atob(s.token) as string, wallet: s.user.wallet_id as string };
  });

export async function balanceCents(page: Page, request: APIRequestContext): Promise<number> {
  const { token, wallet } = await sessionOf(page);
  const res = await request.get(`/api/v1/wallet/account-balance/${wallet}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return centsOf((await res.json()).data);
}

export const centsOf = (text: string) => {
  const m = /([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no amount in ${text}`);
  return Number(m[1]!.replace(/,/g, '')) * 100 + Number(m[2]);
};

/** Funds the customer's wallet as it happens for real: a Tron top-up, its hash, a staff approval. */
export async function fundWallet(page: Page, request: APIRequestContext, staffEmail: string, amount: string) {
  const { token, wallet } = await sessionOf(page);
  const auth = { authorization: `Bearer ${token}` };
  const top = await request.post('/api/v1/wallet/topup-balance', {
    headers: auth,
    data: { wallet_id: wallet, amount, method: 'tron' },
  });
  expect(top.status()).toBe(201);
  const { reference } = (await top.json()).data;
  const conf = await request.post('/api/v1/wallet/topup-confirm', {
    headers: auth,
    data: { reference, transaction_hash: hex64() },
  });
  expect(conf.status()).toBe(200);
  const list = await request.get(`/api/v1/reports/view-wallet-topups?wallet=${wallet}&per_page=100`, { headers: auth });
  const row = (await list.json()).data.find((r: { reference: string }) => r.reference === reference);
  const staff = await staffToken(request, staffEmail);
  const approve = await request.post('/api/v1/wallet/approve-topup', {
    headers: { authorization: `Bearer ${staff}` },
    data: { topup_id: row.id, action: 'approve', note: 'Checked on a Tron explorer: paid.' },
  });
  expect(approve.status(), await approve.text()).toBe(200);
}

/** A side-menu entry on desktop; on phones the account menu and the links on Prepaid Cards. */
export async function openScreen(page: Page, entry: 'Prepaid Cards' | 'Card Spending' | 'Card Transactions') {
  const path = {
    'Prepaid Cards': 'prepaid-cards',
    'Card Spending': 'card-spending',
    'Card Transactions': 'card-transactions',
  }[entry];
  if (!isPhone(page)) {
    // The side menu re-renders when the profile refreshes: retry until the screen is shown.
    await expect(async () => {
      await page.getByRole('menuitem', { name: entry }).click({ timeout: 5_000 });
      await expect(page).toHaveURL(new RegExp(`/portal/${path}$`), { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    return;
  }
  // The account menu may re-render while the profile refreshes: retry until the list is shown.
  await expect(async () => {
    const item = page.getByRole('menuitem', { name: 'Prepaid Cards' });
    if (!(await item.isVisible())) await openDropdown(page, page.getByRole('button', { name: 'Account menu' }), 5_000);
    await item.click({ timeout: 5_000 });
    await expect(page).toHaveURL(/\/portal\/prepaid-cards$/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  if (entry !== 'Prepaid Cards') await page.getByRole('button', { name: entry }).click();
}

export const rowOf = (page: Page, text: string | RegExp): Locator =>
  isPhone(page) ? page.locator('.ant-list-item', { hasText: text }) : page.locator('tbody tr', { hasText: text });
export const drawer = (page: Page) => page.locator('.ant-drawer-open .ant-drawer-content');
export const confirmDialog = (page: Page) => page.locator('.ant-modal-confirm');

export async function pick(page: Page, scope: Page | Locator, label: string, option: string) {
  await motionless(page);
  await chooseOption(page, scope.getByRole('combobox', { name: label, exact: true }), option);
}

export async function cardOption(page: Page, option: string) {
  const menu = await openDropdown(page, page.getByRole('button', { name: 'Card options' }));
  await menu.getByRole('menuitem', { name: option, exact: true }).click();
}

/** The swipe of the type chooser: a drag of `dx` pixels on the top card. */
export async function swipe(page: Page, dx: number) {
  const box = (await page.locator('[data-swipe-top]').boundingBox())!;
  const y = box.y + 60;
  const x = box.x + box.width / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + (dx * i) / 10, y);
  await page.mouse.up();
}

/** The create-card form: fills it, reads the fee preview, answers what it showed. */
export async function fillCard(
  page: Page,
  c: {
    first: string;
    last: string;
    nickname: string;
    amount: string;
    purpose: 'Visa' | 'Mastercard';
    limit?: string;
    control?: string;
  },
) {
  await page.getByLabel('First Name').fill(c.first);
  await page.getByLabel('Last Name').fill(c.last);
  await page.getByLabel('Unique Card Nickname').fill(c.nickname);
  await pick(page, page, 'Card Purpose', c.purpose);
  await page.getByLabel('Amount', { exact: true }).fill(c.amount);
  if (c.limit) await page.getByLabel('Spending Limit (USD)').fill(c.limit);
  if (c.control) {
    // The radio's own input is hidden under antd's dot, so the visible label is what a user clicks; the
    // form may still be settling (the Visa-only fields just appeared), hence the retry until it is checked.
    const radio = page.getByRole('radio', { name: c.control });
    const label = page.locator('label.ant-radio-wrapper', { hasText: new RegExp(`^${c.control}$`) });
    await expect(async () => {
      await label.click();
      await expect(radio).toBeChecked({ timeout: 1000 });
    }).toPass();
  }
  const preview = page.getByTestId('fee-preview');
  await expect(preview.getByText('All fees are in USD')).toBeVisible();
  await expect(preview.getByText('Total fees')).toBeVisible();
  return {
    fees: centsOf(await preview.getByTestId('fee-total').innerText()),
    total: centsOf(await preview.getByTestId('fee-grand-total').innerText()),
  };
}

/** 'card number (nickname)' of one of the signed-in customer's cards. */
export async function cardLabel(page: Page, request: APIRequestContext, nickname: string) {
  const { token, wallet } = await sessionOf(page);
  const res = await request.get(`/api/v1/cards/individual/${wallet}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const card = (await res.json()).data.find((c: { nickname: string }) => c.nickname === nickname);
  return card ? `${card.masked_number} (${card.nickname})` : null;
}

export async function pickDay(scope: Locator, label: string, value: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(value);
  await input.press('Enter');
}

export async function pickRange(page: Page, from: string, to: string) {
  // The popover may still be closing from the last pick (visible, then gone): open it until its field takes a click.
  await expect(async () => {
    const first = page.getByLabel('Date from');
    if (!(await first.isVisible())) await page.getByRole('button', { name: /Date range/ }).click();
    await first.click({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  for (const [label, value] of [
    ['Date from', from],
    ['Date to', to],
  ] as const) {
    const input = page.getByLabel(label);
    await input.click();
    await input.fill(value);
    await input.press('Enter');
  }
  await page.getByRole('button', { name: 'Done' }).click();
}
