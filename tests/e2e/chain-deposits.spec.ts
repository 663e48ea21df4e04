import { type APIRequestContext, type Locator, type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { balanceCents, letters, sessionOf, staffToken } from './support/cards';
import { PASSWORD, chooseOption, isPhone, logInThroughUi, motionless, snap, visit } from './support/flows';
import { signedInAs } from './support/session';

/**
 * On-chain deposits (issue 15): a customer's master wallet has its own Tron address, shown with a
 * QR code on Top Up and on the wallet screen; USDT sent there is credited by the deposit watcher
 * (every 2 s on the e2e servers) and the screen follows without staff and without a reload. Staff
 * see what no wallet could take on Chain Deposits and assign it to a customer, or record its return.
 */

// The watcher, the screen's 10 s poll and a busy machine: give the credit time to show.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const STAFF = 'admin@cardwallet.example';
/** The platform's shared address (TRON_DEPOSIT_ADDRESS's default): watched, but of no wallet. */
const SHARED_ADDRESS = process.env.TRON_DEPOSIT_ADDRESS ?? 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** An amount of whole even dollars, so the 0.5 % Tron fee is whole cents: N × 2.00 costs N cents. */
const evenAmount = (from = 100, span = 900) => {
  const n = from + Math.floor(Math.random() * span);
  return { amount: `${2 * n}.00`, cents: 200 * n, fee: n };
};
const grouped = (amount: string) => Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 });
const usdtText = (cents: number) => `USDT ${grouped((cents / 100).toFixed(2))}`;
/** How both apps write an amount: currency first. */
const staffAmount = (amount: string) => `USDT ${grouped(amount)}`;

/**
 * One staff session per project and worker: each login spends a fresh 30-second 2FA code, so a
 * login per transfer would wait out the clock.
 */
const staffSessions = new Map<string, Promise<string>>();
function staffSession(request: APIRequestContext) {
  const project = test.info().project.name;
  if (!staffSessions.has(project)) staffSessions.set(project, staffToken(request, STAFF));
  return staffSessions.get(project)!;
}

/** A USDT transfer on the sandbox chain, as staff may send one (settled at once). */
async function sendOnChain(request: APIRequestContext, to: string, amount: string) {
  const token = await staffSession(request);
  const res = await request.post('/api/v1/sandbox/chain/transfers', {
    headers: { authorization: `Bearer ${token}` },
    data: { to, amount },
  });
  baseExpect(res.status(), await res.text()).toBe(201);
  const { hash } = (await res.json()).data as { hash: string };
  baseExpect(hash).toMatch(/^[0-9a-f]{64}$/);
  return hash;
}

const rowOf = (page: Page, text: string | RegExp): Locator =>
  isPhone(page) ? page.locator('.ant-list-item', { hasText: text }) : page.locator('tbody tr', { hasText: text });

async function openWalletLoads(page: Page) {
  // The menus re-render when the profile refreshes: retry until the screen changes.
  await expect(async () => {
    if (isPhone(page)) await page.getByRole('button', { name: 'Account menu' }).click({ timeout: 5_000 });
    await page.getByRole('menuitem', { name: 'Wallet Loads' }).click({ timeout: 5_000 });
    await expect(page).toHaveURL(/\/portal\/wallet-loads$/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

test('a deposit to the wallet’s own address is credited and shows without staff or a reload', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const { email } = await verifiedIndividual(request, 'Kojo', `Chain${letters(6)}`);
  await logInThroughUi(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  const { token, wallet } = await sessionOf(page);
  const api = await request.get(`/api/v1/wallet/deposit-address/${wallet}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  baseExpect(api.status()).toBe(200);
  const { address, network } = (await api.json()).data as { address: string; network: string };
  baseExpect(address).toMatch(TRON_ADDRESS);
  baseExpect(network).toBe('Tron USDT (TRC20)');

  // The master wallet screen: the balance, and the address with its QR and copy button.
  await openWalletLoads(page);
  await expect(page.getByTestId('wallet-balance')).toHaveText('USDT 0.00');
  const card = page.getByRole('region', { name: 'Deposit Address' });
  await expect(card.getByTestId('deposit-address')).toHaveText(address);
  await expect(card.getByAltText('QR code of the deposit address')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Copy deposit address' })).toBeVisible();
  await expect(card.getByText('Send only USDT on the Tron network (TRC20)', { exact: false })).toBeVisible();
  await snap(page, 'chain-wallet-loads-address', project);

  // Top Up by Tron: step 2 is the same address, with a QR, the network and the automatic credit.
  const { amount, cents, fee } = evenAmount();
  await page.getByRole('button', { name: 'Top Up' }).click();
  const panel = page.locator('.ant-drawer-open .ant-drawer-content');
  await motionless(page);
  await panel.getByLabel('Amount').fill(amount);
  await panel.getByRole('button', { name: 'Continue' }).click();
  await expect(panel.getByText('Tron USDT (TRC20)', { exact: true })).toBeVisible();
  await expect(panel.getByTestId('deposit-address')).toHaveText(address);
  await expect(panel.getByAltText('QR code of the deposit address')).toBeVisible();
  await expect(panel.getByText('Credited automatically')).toBeVisible();
  await expect(panel.getByLabel('Provide transaction hash')).toBeVisible();
  await snap(page, 'chain-topup-address', project);
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();

  // A mark on the document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { cwNoReload: boolean }).cwNoReload = true));
  const hash = await sendOnChain(request, address, amount);

  // No staff, no reload: the watcher credits it, the screen's poll shows the balance and the row.
  await expect(page.getByTestId('wallet-balance')).toHaveText(usdtText(cents - fee));
  const row = rowOf(page, `USDT ${grouped(amount)}`);
  await expect(row.getByText('Approved', { exact: true })).toBeVisible();
  baseExpect(await page.evaluate(() => (window as unknown as { cwNoReload?: boolean }).cwNoReload)).toBe(true);
  baseExpect(await balanceCents(page, request)).toBe(cents - fee);
  await snap(page, 'chain-wallet-loads-credited', project);

  await row.click();
  const details = page.locator('.ant-drawer-open .ant-drawer-content');
  await expect(details.getByText('Automatically, once confirmed on the chain')).toBeVisible();
  await expect(details.getByText(hash)).toBeVisible();
  await snap(page, 'chain-topup-credited-details', project);
  await details.getByRole('button', { name: 'Close' }).click();
  await expect(details).toBeHidden();

  // Sent, then its hash pasted at once: settled on the chain, so the top-up is approved there and then.
  const second = evenAmount();
  await page.getByRole('button', { name: 'Top Up' }).click();
  const again = page.locator('.ant-drawer-open .ant-drawer-content');
  await motionless(page);
  await again.getByLabel('Amount').fill(second.amount);
  await again.getByRole('button', { name: 'Continue' }).click();
  await expect(again.getByTestId('deposit-address')).toHaveText(address);
  await again.getByLabel('Provide transaction hash').fill(await sendOnChain(request, address, second.amount));
  await again.getByRole('button', { name: 'Submit' }).click();
  await expect(again.getByText('Approved', { exact: true })).toBeVisible();
  await expect(again.getByText(usdtText(second.cents - second.fee), { exact: true })).toBeVisible(); // Credited
  await expect(again.getByText(usdtText(cents - fee + second.cents - second.fee), { exact: true })).toBeVisible(); // Balance
  await snap(page, 'chain-topup-approved-summary', project);
  await again.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('wallet-balance')).toHaveText(usdtText(cents - fee + second.cents - second.fee));
});

test('staff assign a deposit to an address of no wallet, and return another, on Chain Deposits', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const last = `Assign${letters(6)}`;
  const esi = await verifiedIndividual(request, 'Esi', last);
  // Both projects send to the shared address at once: amounts of disjoint ranges keep every row one.
  const base = project === 'desktop' ? 100 : 550;
  const toAssign = evenAmount(base, 225);
  const toReturn = evenAmount(base + 225, 225);
  await signedInAs(page, project === 'desktop' ? 'super@cardwallet.example' : STAFF);
  await expect(page).toHaveURL(/\/admin$/);
  if (isPhone(page)) await visit(page, '/admin/chain-deposits');
  else await page.getByRole('menuitem', { name: 'Chain Deposits' }).click();
  await expect(page.getByRole('heading', { name: 'Chain Deposits' })).toBeVisible();
  // The list as it is before the deposits: empty, or older ones.
  await expect(page.getByText('No deposits match this filter').or(rowOf(page, 'USDT')).first()).toBeVisible();

  // Sent while the list is open: the watcher records them within seconds, and Search (its filter unchanged) reads
  // the list again.
  await sendOnChain(request, SHARED_ADDRESS, toAssign.amount);
  await sendOnChain(request, SHARED_ADDRESS, toReturn.amount);
  // Both, before acting: the watcher may record them in different passes, and the list reads
  // itself again only on Search or after an action.
  const assignRow = rowOf(page, staffAmount(toAssign.amount));
  const returnRow = rowOf(page, staffAmount(toReturn.amount));
  await expect(async () => {
    if (isPhone(page) && !(await page.getByRole('button', { name: 'Search' }).isVisible()))
      await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(assignRow).toBeVisible({ timeout: 3_000 });
    await expect(returnRow).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await expect(assignRow.getByText('Unassigned')).toBeVisible();
  await expect(assignRow.getByText('Address of no wallet')).toBeVisible();
  await snap(page, 'chain-deposits-unassigned', project);

  // Assign: pick the customer's wallet by name.
  await assignRow.getByRole('button', { name: /^Assign / }).click();
  const assign = page.getByRole('dialog', { name: 'Assign deposit' });
  await motionless(page);
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign.getByText('Wallet is required')).toBeVisible();
  await assign.getByRole('combobox', { name: 'Wallet' }).click();
  await page.keyboard.type(last, { delay: 20 });
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `Esi ${last}` }).click();
  await snap(page, 'chain-deposits-assign', project);
  await assign.getByRole('button', { name: 'Assign' }).click();
  await expect(assign).toBeHidden();
  await expect(assignRow).toHaveCount(0);

  // Return the other with a note.
  await returnRow.getByRole('button', { name: /^Return / }).click();
  const giveBack = page.getByRole('dialog', { name: 'Return deposit' });
  await motionless(page);
  await giveBack.getByLabel('Note').fill('Sent back to the sender: not a customer');
  await giveBack.getByLabel('Return transaction hash (optional)').fill('abc');
  await giveBack.getByRole('button', { name: 'Mark as returned' }).click();
  await expect(giveBack.getByText('A Tron transaction hash is 64 hexadecimal characters')).toBeVisible();
  await giveBack.getByLabel('Return transaction hash (optional)').fill('');
  await snap(page, 'chain-deposits-return', project);
  await giveBack.getByRole('button', { name: 'Mark as returned' }).click();
  await expect(giveBack).toBeHidden();
  await expect(returnRow).toHaveCount(0);

  // The customer's wallet holds the deposit less the Tron fee, as an approved Tron top-up staff decided.
  const auth = { authorization: `Bearer ${await staffSession(request)}` };
  const found = await (await request.get(`/api/v1/individuals?name=${last}`, { headers: auth })).json();
  const walletId = found.data[0].id as string;
  const balance = await (await request.get(`/api/v1/wallet/account-balance/${walletId}`, { headers: auth })).json();
  baseExpect(balance.data).toBe(((toAssign.cents - toAssign.fee) / 100).toFixed(2));

  // A hash the chain knows but sent to another address, of another amount: the top-up waits for staff.
  const customer = { authorization: `Bearer ${await staffToken(request, esi.email, PASSWORD)}` };
  const top = await request.post('/api/v1/wallet/topup-balance', {
    headers: customer,
    data: { wallet_id: walletId, amount: '3.50', method: 'tron' },
  });
  baseExpect(top.status(), await top.text()).toBe(201);
  const elsewhere = await sendOnChain(request, SHARED_ADDRESS, '12.00');
  const conf = await request.post('/api/v1/wallet/topup-confirm', {
    headers: customer,
    data: { reference: (await top.json()).data.reference, transaction_hash: elsewhere },
  });
  baseExpect(conf.status(), await conf.text()).toBe(200);
  const confirmed = (await conf.json()).data;
  baseExpect(confirmed.state).toBe('Hash-provided');
  baseExpect(confirmed.chain_check).toMatchObject({ found: true, matches: false, to: SHARED_ADDRESS, amount: '12.00' });

  // Wallet Loads: the assigned deposit says who decided it; the waiting top-up shows the chain's facts beside Approve and Deny.
  await page.goto(`/admin/wallet-loads?individual_id=${walletId}&acc_name=${encodeURIComponent(`Esi ${last}`)}`);
  const loaded = rowOf(page, staffAmount(toAssign.amount));
  await expect(loaded.getByText('Approved', { exact: true })).toBeVisible();
  await expect(loaded.getByTestId('decided-by')).toHaveText(project === 'desktop' ? 'by Sena Agbeko' : 'by Yaw Darko');
  await snap(page, 'chain-wallet-loads-assigned', project);
  // 3.50: no even amount of the deposits above ends so.
  await rowOf(page, 'USDT 3.50').click();
  const decide = page.locator('.ant-drawer-open .ant-drawer-content');
  const facts = decide.getByTestId('chain-facts');
  await expect(facts.getByText('No: another address or amount')).toBeVisible();
  await expect(facts.getByText('USDT 12.00')).toBeVisible();
  await expect(facts.getByText(SHARED_ADDRESS)).toBeVisible();
  await motionless(page);
  await snap(page, 'chain-topup-decide-facts', project);
  await decide.getByRole('button', { name: 'Close' }).click();

  // Both are listed under their new status.
  await page.goto('/admin/chain-deposits');
  if (isPhone(page)) await page.getByRole('button', { name: 'Filters' }).click();
  await chooseOption(page, page.getByRole('combobox', { name: 'Status' }), 'Assigned');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(assignRow.getByText('Assigned', { exact: true })).toBeVisible();
  await expect(assignRow.getByText(`Esi ${last}`)).toBeVisible();
});
