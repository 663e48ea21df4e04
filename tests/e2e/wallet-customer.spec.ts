import { type Browser, type Locator, type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { sessionOf } from './support/cards';
import { confirmTransfer, continueTransfer, giveApprovalNote } from './support/confirm';
import { chooseOption, FIELD_ERROR, isPhone, logInThroughUi, motionless, PASSWORD, snap, visit } from './support/flows';
import { signedInAs } from './support/session';

// The machine may be busy (other suites, builds): give screens time to appear, journeys time to finish.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const ACME_WALLET = '00000000-0000-4000-8000-0000000000c1';
const AMA_WALLET = '00000000-0000-4000-8000-000000000003';
const AGENT = 'agent@cardwallet.example';

const hex64 = () => Array.from({ length: 64 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
const letters = (n: number) =>
  Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');

const logInDemo = (page: Page, email: string) => signedInAs(page, email);

/** A side-menu entry on desktop; the account menu on phones (no side panel there). */
async function openScreen(
  page: Page,
  entry: 'Wallet Loads' | 'Wallet Transfers' | 'Wallet Transactions' | 'Momo Wallet Load',
) {
  const path = {
    'Wallet Loads': 'wallet-loads',
    'Wallet Transfers': 'wallet-transfers',
    'Wallet Transactions': 'wallet-transactions',
    'Momo Wallet Load': 'momo-loads',
  }[entry];
  // The menus re-render when the profile refreshes: retry until the screen changes.
  await expect(async () => {
    if (isPhone(page)) {
      await page.getByRole('button', { name: 'Account menu' }).click({ timeout: 5_000 });
      await page
        .getByRole('menuitem', { name: entry === 'Wallet Transactions' ? 'Reports' : entry })
        .click({ timeout: 5_000 });
    } else {
      await page.getByRole('menuitem', { name: entry }).click({ timeout: 5_000 });
    }
    await expect(page).toHaveURL(new RegExp(`/portal/${path}$`), { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

/** One entry of a wallet list: a table row on desktop, a compact list item on phones. */
const rowOf = (page: Page, text: string | RegExp): Locator =>
  isPhone(page) ? page.locator('.ant-list-item', { hasText: text }) : page.locator('tbody tr', { hasText: text });

const centsIn = (text: string) => {
  const m = /USDT ([\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no USDT amount in ${text}`);
  return Number(m[1]!.replace(/,/g, '')) * 100 + Number(m[2]);
};

const drawer = (page: Page) => page.locator('.ant-drawer-content');
const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

async function otherBrowser(browser: Browser, page: Page) {
  const phone = isPhone(page);
  const context = await browser.newContext({
    viewport: page.viewportSize()!,
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: phone ? 2 : 1,
  });
  return { context, page: await context.newPage() };
}

test('a new customer tops up by Tron and by Momo, and the momo agent confirms the Momo payment', async ({
  page,
  browser,
  request,
}, info) => {
  const project = info.project.name;
  const last = `Kyei${letters(6)}`;
  const { email } = await verifiedIndividual(request, 'Abena', last);
  await logInThroughUi(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);

  // Dashboard: an empty wallet, its id to share, no transactions yet.
  const balance = page.getByTestId('wallet-balance');
  await expect(balance).toHaveText('USDT 0.00');
  await expect(page.getByText('Wallet ID:')).toBeVisible();
  await expect(
    page.getByText('You have no transactions yet. All your recent master wallet transaction will appear here'),
  ).toBeVisible();
  await snap(page, 'cust-wallet-dashboard-new', project);

  // Top up by Tron from the dashboard modal.
  await page.getByRole('button', { name: 'Top Up' }).click();
  const topUp = dialog(page, 'Top Up');
  await topUp.getByRole('button', { name: 'Continue' }).click();
  await expect(topUp.getByText('Amount is required')).toBeVisible();
  await topUp.getByLabel('Amount').fill('0.50');
  // The old message slides out first: a quick refusal would otherwise show beside it for a moment.
  await expect(topUp.locator(FIELD_ERROR)).toHaveCount(0);
  await topUp.getByRole('button', { name: 'Continue' }).click();
  // The server's word, said once: under the amount, not again as a toast.
  await expect(topUp.locator(FIELD_ERROR)).toHaveText('The minimum top-up is USDT 1.00');
  await expect(page.locator('.ant-message').getByText('The minimum top-up is USDT 1.00')).toHaveCount(0);
  await topUp.getByLabel('Amount').fill('1,250.50');
  await expect(topUp.getByText('You Receive')).toBeVisible();
  await expect(topUp.getByText('USDT 1,244.25')).toBeVisible(); // 0.5 % Tron fee, by the shared fee function
  await snap(page, 'cust-topup-tron-form', project);
  await topUp.getByRole('button', { name: 'Continue' }).click();
  await expect(topUp.getByText('Tron USDT (TRC20)', { exact: true })).toBeVisible();
  await expect(topUp.getByText('+ USDT 1,250.50')).toBeVisible();
  await topUp.getByRole('button', { name: 'Submit' }).click();
  await expect(topUp.getByText('Transaction hash is required')).toBeVisible();
  await topUp.getByLabel('Provide transaction hash').fill(hex64());
  await snap(page, 'cust-topup-tron-instructions', project);
  await topUp.getByRole('button', { name: 'Submit' }).click();
  await expect(topUp.getByText('Processing')).toBeVisible();
  await expect(topUp.getByText('Balance Before')).toBeVisible();
  await expect(topUp.getByText('USDT 1,244.25 (once approved)')).toBeVisible();
  await snap(page, 'cust-topup-tron-summary', project);
  await topUp.getByRole('button', { name: 'Done' }).click();
  await expect(topUp).toBeHidden();

  // Top up by Momo from the Wallet Loads panel; leave at the payment step, continue from the list.
  await openScreen(page, 'Wallet Loads');
  await expect(page.getByText('Wallet Load Transactions')).toBeVisible();
  await page.getByRole('button', { name: 'Top Up' }).click();
  const panel = drawer(page);
  await expect(panel.getByText('Top Up', { exact: true })).toBeVisible();
  await panel.getByLabel('Amount').fill('20');
  await motionless(page);
  await panel.getByRole('combobox', { name: 'Method' }).click({ force: true });
  await page.getByTitle('Momo (Mobile Money, GHS)').click();
  await expect(panel.getByTestId('momo-amount-to-send')).toHaveText('GHS 315.00'); // 15.50 × 20 + 5.00
  await snap(page, 'cust-topup-momo-form', project);
  await panel.getByRole('button', { name: 'Continue' }).click();
  await expect(panel.getByText('Transfer Details')).toBeVisible();
  await expect(panel.getByText('Momo Number')).toBeVisible();
  await expect(panel.getByText('GHS 315.00', { exact: true })).toBeVisible();
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();

  const momoRow = rowOf(page, 'USDT 20.00');
  await expect(momoRow.getByText('Pending')).toHaveClass(/ant-tag-gold/);
  await momoRow.click();
  const details = drawer(page);
  await expect(details.getByText('Transaction Details')).toBeVisible();
  await expect(details.getByText('Transfer Details')).toBeVisible();
  await snap(page, 'cust-topup-momo-continue', project);
  await details.getByRole('button', { name: 'Paid' }).click();
  await expect(details.getByText('Processing')).toBeVisible();
  await details.getByRole('button', { name: 'Done' }).click();

  for (const amount of ['USDT 1,250.50', 'USDT 20.00']) {
    // Waiting for the operator: "Processing", the one name every screen gives that state.
    await expect(rowOf(page, amount).getByText('Processing', { exact: true })).toHaveClass(/ant-tag-gold/);
    await expect(rowOf(page, amount).getByText('Hash-provided')).toHaveCount(0);
  }
  await snap(page, 'cust-wallet-loads-new', project);

  // The momo agent confirms the payment in Momo Wallet Load.
  const agent = await otherBrowser(browser, page);
  await logInDemo(agent.page, AGENT);
  await openScreen(agent.page, 'Momo Wallet Load');
  const agentRow = rowOf(agent.page, `Abena ${last}`);
  // The list opens on what the agent can confirm, each with the GHS amount the customer pays (issue 31).
  await expect(agent.page.getByRole('combobox', { name: 'State' })).toBeVisible();
  await expect(agent.page.locator('.ant-select-selection-item', { hasText: 'To confirm' })).toBeVisible();
  await expect(agentRow.getByText('Processing', { exact: true })).toBeVisible();
  await expect(agentRow.getByText('Hash-provided')).toHaveCount(0);
  await expect(agentRow.getByText('GHS 315.00')).toBeVisible();
  await snap(agent.page, 'cust-momo-loads-to-confirm', project);
  await agentRow.click();
  const confirm = dialog(agent.page, 'Momo Confirmation');
  await expect(confirm.getByText('confirm momo transaction')).toBeVisible();
  await expect(confirm.getByText('GHS 315.00')).toBeVisible();
  await expect(confirm.getByText(`Abena ${last} (Individual)`)).toBeVisible();
  await snap(agent.page, 'cust-momo-confirmation', project);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();
  // confirmed, it leaves the agent's list; the filter shows it among the others
  await expect(agentRow).toHaveCount(0);
  await chooseOption(agent.page, agent.page.getByRole('combobox', { name: 'State' }), 'MoMo processed');
  await expect(agentRow.getByText('MoMo processed')).toBeVisible();
  await snap(agent.page, 'cust-momo-loads', project);
  await agent.context.close();

  // The customer sees it too.
  await page.reload();
  await expect(rowOf(page, 'USDT 20.00').getByText('MoMo processed')).toHaveClass(/ant-tag-gold/);
});

test('a customer reads a denied top-up, transfers to another wallet and finds it in the reports', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  // Two demo customers so the desktop and phone runs never share an account.
  const who =
    project === 'desktop'
      ? {
          email: 'ama@example.com',
          to: ACME_WALLET,
          toName: 'Acme Logistics Ltd',
          toShort: 'Acme Logistics Ltd',
          denied: '80.00',
          reason: 'No mobile-money payment with this reference arrived within 24 hours.',
        }
      : {
          email: 'kofi@acme.example.com',
          to: AMA_WALLET,
          toName: 'Ama Mensah',
          toShort: 'Ama M.',
          denied: '750.00',
          reason: 'The transaction hash belongs to a transfer to another address.',
        };
  await logInDemo(page, who.email);
  await expect(page).toHaveURL(/\/portal$/);

  // Dashboard: the balance and recent transactions; a row opens its details.
  await expect(page.getByTestId('wallet-balance')).toHaveText(/^USDT [\d,]+\.\d{2}$/);
  const recent = page.locator('.ant-card', { hasText: 'Recent Transactions' });
  await expect(rowOf(page, 'Wallet Top Up').first()).toBeVisible();
  await snap(page, 'cust-wallet-dashboard', project);
  await rowOf(page, 'Wallet Top Up').first().click();
  await expect(drawer(page).getByText('Transaction Details')).toBeVisible();
  await expect(drawer(page).getByText('Balance After')).toBeVisible();
  await snap(page, 'cust-recent-transaction-details', project);
  await drawer(page).getByRole('button', { name: 'Close' }).click();
  await expect(recent).toBeVisible();

  // Wallet Loads: colours by state, and a denied top-up's reason.
  await openScreen(page, 'Wallet Loads');
  await expect(rowOf(page, 'Approved').first().getByText('Approved')).toHaveClass(/ant-tag-green/);
  // The demo's denied top-up (staff journeys running meanwhile may deny others).
  const denied = rowOf(page, 'Denied').filter({
    hasText: new RegExp(`(^|[^\\d,])${who.denied.replace('.', '\\.')}(?!\\d)`),
  });
  await expect(denied.getByText('Denied')).toHaveClass(/ant-tag-red/);
  await snap(page, 'cust-wallet-loads', project);
  await denied.click();
  const details = drawer(page);
  await expect(details.getByText('Reason', { exact: true })).toBeVisible();
  await expect(details.getByText(who.reason)).toBeVisible();
  await expect(details.getByText('Top Up', { exact: true })).toBeVisible();
  await snap(page, 'cust-topup-denied-details', project);
  await details.getByRole('button', { name: 'Close' }).click();

  // Wallet Transfers: Internal Transfer, refused then completed.
  await openScreen(page, 'Wallet Transfers');
  await expect(page.getByText('Wallet Transfer Transactions')).toBeVisible();
  await page.getByRole('button', { name: /Transfer$/ }).click();
  const modal = dialog(page, 'Internal Transfer');
  await modal.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(modal.getByText('Wallet is required')).toBeVisible();
  await expect(modal.getByText('Amount is required')).toBeVisible();
  await modal.getByLabel('Destination Wallet').fill(who.to);
  await modal.getByLabel('Amount').fill('9,999,999');
  // Under CI load a tap landing while the form still validates the typed amount can be lost
  // (seen once on the phone): tap again until the refusal shows, as a person would. The server refuses
  // on Confirm, and the form comes back with the refusal under the amount.
  await expect(async () => {
    if (!(await modal.getByText('Insufficient balance in your master wallet').isVisible())) {
      if (await modal.getByTestId('transfer-confirm').isVisible()) await confirmTransfer(modal);
      else await modal.getByRole('button', { name: 'Continue', exact: true }).click({ timeout: 5_000 });
    }
    await expect(modal.getByText('Insufficient balance in your master wallet')).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 40_000 });
  await expect(page.locator('.ant-message').getByText('Insufficient balance in your master wallet')).toHaveCount(0);
  const note = `E2E ${project} ${letters(5)}`;
  await modal.getByLabel('Amount').fill('12.34');
  await modal.getByLabel('Reference (optional)').fill(note);
  await snap(page, 'cust-transfer-form', project);
  // Nothing moves before Confirm: the recipient is named (shortened) first; Back keeps what was typed.
  let confirm = await continueTransfer(modal);
  await expect(confirm.getByRole('heading', { name: `Send USDT 12.34 to ${who.toShort}` })).toBeVisible();
  await confirm.getByRole('button', { name: 'Back' }).click();
  await expect(modal.getByLabel('Amount')).toHaveValue('12.34');
  await expect(modal.getByLabel('Reference (optional)')).toHaveValue(note);
  await expect(modal.getByLabel('Destination Wallet')).toHaveValue(who.to);
  confirm = await continueTransfer(modal);
  await expect(confirm.getByRole('heading', { name: `Send USDT 12.34 to ${who.toShort}` })).toBeVisible();
  await snap(page, 'cust-transfer-confirm', project);
  await confirmTransfer(modal);
  await expect(modal.getByText('Completed')).toBeVisible();
  await expect(modal.getByText(who.toName)).toBeVisible();
  const before = centsIn(await modal.locator('tr', { hasText: 'Balance Before' }).innerText());
  const after = centsIn(await modal.locator('tr', { hasText: 'Balance After' }).innerText());
  expect(before - after).toBe(1234);
  await snap(page, 'cust-transfer-summary', project);
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(modal).toBeHidden();

  const transferRow = rowOf(page, note);
  await expect(transferRow.getByText('Debit')).toBeVisible();
  await snap(page, 'cust-wallet-transfers', project);
  await transferRow.click();
  await expect(drawer(page).getByText('Transaction Details')).toBeVisible();
  await expect(drawer(page).getByText('Completed')).toBeVisible();
  await expect(drawer(page).getByText(who.toName)).toBeVisible();
  await snap(page, 'cust-transfer-details', project);
  await drawer(page).getByRole('button', { name: 'Close' }).click();

  // Wallet Transactions: the last 30 days at once (issue 31), then a custom range.
  await openScreen(page, 'Wallet Transactions');
  await expect(page.getByText('See all transactions that occur in your account')).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Period' }).getByRole('radio', { name: '30 days' })).toBeChecked();
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await snap(page, 'cust-wallet-transactions-30-days', project);
  await page.getByRole('radiogroup', { name: 'Period' }).getByText('Custom', { exact: true }).click();
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const from = page.getByLabel('Date from');
  await from.click();
  await from.fill(day(-120));
  await from.press('Enter');
  const to = page.getByLabel('Date to');
  await to.click();
  await to.fill(day(1));
  await to.press('Enter');
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Date range required')).toBeHidden();
  await expect(rowOf(page, 'Wallet Top Up').first()).toBeVisible();
  await expect(rowOf(page, 'Transfer').first()).toBeVisible();
  await snap(page, 'cust-wallet-transactions', project);
  await rowOf(page, 'Wallet Top Up').first().click();
  await expect(drawer(page).getByText('Transaction Details')).toBeVisible();
  await snap(page, 'cust-wallet-transaction-details', project);
  await drawer(page).getByRole('button', { name: 'Close' }).click();

  // A transfer made elsewhere (the API) meanwhile: Search with the same range shows it, read again, not from the cache.
  const { token } = await sessionOf(page);
  const sent = await request.post('/api/v1/wallet/transfer', {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    data: { wallet_id: who.to, amount: '1.00', reference: `${note} again` },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const ref = ((await sent.json()).data as { trans_ref: string }).trans_ref;
  await expect(rowOf(page, ref)).toHaveCount(0);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rowOf(page, ref)).toBeVisible();
});

test('staff decide a new customer’s top-ups, the customer sees the balance, states and reason; a transfer shows on both sides', async ({
  page,
  browser,
  request,
}, info) => {
  const project = info.project.name;
  const [payerLast, payeeLast] = [`Owusu${letters(5)}`, `Ansah${letters(5)}`];
  const payer = await verifiedIndividual(request, 'Esi', payerLast);
  const payee = await verifiedIndividual(request, 'Kojo', payeeLast);
  await logInThroughUi(page, payer.email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  const { token, wallet } = await sessionOf(page);

  // Two Tron top-ups the customer says are paid (the top-up screens are the first journey's).
  const auth = { authorization: `Bearer ${token}` };
  for (const amount of ['100.00', '40.00']) {
    const top = await request.post('/api/v1/wallet/topup-balance', {
      headers: auth,
      data: { wallet_id: wallet, amount, method: 'tron' },
    });
    expect(top.status(), await top.text()).toBe(201);
    const { reference } = (await top.json()).data;
    const confirm = await request.post('/api/v1/wallet/topup-confirm', {
      headers: auth,
      data: { reference, transaction_hash: hex64() },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
  }

  await test.step('staff approve one and deny the other with a reason', async () => {
    const staff = await otherBrowser(browser, page);
    await logInDemo(staff.page, 'admin@cardwallet.example');
    await visit(
      staff.page,
      `/admin/wallet-loads?individual_id=${wallet}&acc_name=${encodeURIComponent(`Esi ${payerLast}`)}`,
    );
    await expect(staff.page.getByRole('heading', { name: `Esi ${payerLast} - Wallet Top-Ups / Loads` })).toBeVisible();
    const staffRow = (amount: string) =>
      (isPhone(staff.page)
        ? staff.page.locator('.ant-list-item')
        : staff.page.locator('.ant-table-tbody tr.ant-table-row')
      ).filter({ hasText: `USDT ${amount}` });
    const decide = async (amount: string, action: 'Approve' | 'Deny', toast: string, reason?: string) => {
      await staffRow(amount).click({ position: { x: 24, y: 16 } });
      const d = staff.page.locator('.ant-drawer-open .ant-drawer-content');
      await expect(d.getByText('Approve or Deny Top-Up')).toBeVisible();
      await d.getByText(action, { exact: true }).click();
      if (reason) await d.getByLabel('Reason').fill(reason);
      await d.getByRole('button', { name: 'Submit' }).click();
      // The hash is made up: the chain did not confirm it, so approving asks why.
      if (action === 'Approve') await giveApprovalNote(staff.page, 'Checked on a Tron explorer: paid.');
      await expect(staff.page.getByText(toast)).toBeVisible();
      await expect(d).toBeHidden();
    };
    await decide('100.00', 'Approve', 'Top-up approved and the wallet credited.');
    await decide('40.00', 'Deny', 'Top-up denied.', 'The transaction hash belongs to a transfer to another address.');
    await expect(staffRow('100.00').getByText('Approved', { exact: true })).toBeVisible();
    await expect(staffRow('40.00').getByText('Denied', { exact: true })).toBeVisible();
    await staff.context.close();
  });

  await test.step('the customer sees the credited balance, the states and why one was denied', async () => {
    await page.reload();
    // Tron top-ups pay the 0.5 % fee: 100.00 − 0.50.
    await expect(page.getByTestId('wallet-balance')).toHaveText('USDT 99.50');
    await openScreen(page, 'Wallet Loads');
    await expect(rowOf(page, 'USDT 100.00').getByText('Approved')).toHaveClass(/ant-tag-green/);
    const denied = rowOf(page, 'USDT 40.00');
    await expect(denied.getByText('Denied')).toHaveClass(/ant-tag-red/);
    await denied.click();
    await expect(
      drawer(page).getByText('The transaction hash belongs to a transfer to another address.'),
    ).toBeVisible();
    await snap(page, 'cust-topups-decided', project);
    await drawer(page).getByRole('button', { name: 'Close' }).click();
  });

  await test.step('a transfer leaves one wallet and arrives in the other', async () => {
    const other = await otherBrowser(browser, page);
    await logInThroughUi(other.page, payee.email, PASSWORD);
    await expect(other.page.getByTestId('wallet-balance')).toHaveText('USDT 0.00');
    const payeeWallet = (await sessionOf(other.page)).wallet;

    await openScreen(page, 'Wallet Transfers');
    await page.getByRole('button', { name: /Transfer$/ }).click();
    const modal = dialog(page, 'Internal Transfer');
    await modal.getByLabel('Destination Wallet').fill(payeeWallet);
    await modal.getByLabel('Amount').fill('12.50');
    await modal.getByLabel('Reference (optional)').fill('Lunch');
    const confirm = await continueTransfer(modal);
    await expect(confirm.getByRole('heading', { name: 'Send USDT 12.50 to Kojo A.' })).toBeVisible();
    await confirmTransfer(modal);
    await expect(modal.getByText('Completed')).toBeVisible();
    await expect(modal.getByText(`Kojo ${payeeLast}`)).toBeVisible();
    await modal.getByRole('button', { name: 'Done' }).click();
    await expect(modal).toBeHidden();
    await expect(rowOf(page, 'Lunch')).toBeVisible();

    await other.page.reload();
    await expect(other.page.getByTestId('wallet-balance')).toHaveText('USDT 12.50');
    await openScreen(other.page, 'Wallet Transfers');
    const received = rowOf(other.page, 'Lunch');
    await expect(received).toContainText('12.50');
    await expect(received.getByText('Credit')).toBeVisible();
    await snap(other.page, 'cust-transfer-received', project);
    await other.context.close();
  });
});

test('a refused transfer leaves the form ready to send again, however fast the refusal comes', async ({
  page,
  request,
}) => {
  const payer = await verifiedIndividual(request, 'Yaw', `Mensah${letters(5)}`);
  await logInThroughUi(page, payer.email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  await openScreen(page, 'Wallet Transfers');
  await page.getByRole('button', { name: /Transfer$/ }).click();
  const modal = dialog(page, 'Internal Transfer');
  await modal.getByLabel('Destination Wallet').fill(AMA_WALLET);
  await modal.getByLabel('Amount').fill('5.00');
  // The refusal (an empty wallet) arrives within a frame or two after Confirm: no spinner may outlive it.
  const send = modal.getByRole('button', { name: 'Continue', exact: true });
  for (let attempt = 0; attempt < 8; attempt++) {
    await send.click({ timeout: 10_000 });
    await expect(modal.getByTestId('transfer-confirm')).toBeVisible();
    await confirmTransfer(modal);
    await expect(modal.getByText('Insufficient balance in your master wallet')).toBeVisible();
    await expect(send).toBeEnabled({ timeout: 10_000 });
  }
  await expect(modal.locator('.anticon-loading')).toHaveCount(0);
});
