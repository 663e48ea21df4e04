import { type Locator, type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { cardOption, drawer, fundWallet, hex64, letters, openScreen, sessionOf, staffToken } from './support/cards';
import { confirmTransfer, continueTransfer, giveApprovalNote } from './support/confirm';
import { FIELD_ERROR, PASSWORD, isPhone, logInThroughUi, motionless, snap as snapNow, visit } from './support/flows';
import { signedInAs } from './support/session';

/** Money is confirmed before it moves, and screens say why they refuse (issue 31). */

const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
const snap = (page: Page, name: string, project: string) => snapNow(page, `confirm-${name}`, project);
const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');
const openRow = (row: Locator) => row.click({ position: { x: 24, y: 16 } });
const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });

test('a transfer names its recipient, shortened, and moves only on Confirm; an unknown wallet is refused on the field', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const payer = await verifiedIndividual(request, 'Esi', `Owusu${letters(5)}`);
  const payee = await verifiedIndividual(request, 'Yaw', `Tetteh${letters(5)}`);
  // The payee only signs in through the API, for their wallet id.
  const payeeAuth = { authorization: `Bearer ${await staffToken(request, payee.email, payee.password)}` };
  const to = (await (await request.get('/api/v1/individuals/profile', { headers: payeeAuth })).json()).data.user
    .wallet_id as string;
  await logInThroughUi(page, payer.email, PASSWORD);
  await fundWallet(
    page,
    request,
    project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example',
    '50.00',
  );
  await page.reload();

  await visit(page, '/portal/wallet-transfers');
  await page.getByRole('button', { name: /Transfer$/ }).click();
  const modal = dialog(page, 'Internal Transfer');
  await modal.getByLabel('Destination Wallet').fill('00000000-0000-4000-8000-000000000000');
  await modal.getByLabel('Amount').fill('12.34');
  await modal.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(modal.locator(FIELD_ERROR).filter({ hasText: 'No master wallet has this id' })).toBeVisible();
  await expect(modal.getByTestId('transfer-confirm')).toHaveCount(0);

  await modal.getByLabel('Destination Wallet').fill(to);
  const confirm = await continueTransfer(modal);
  await expect(confirm.getByRole('heading', { name: 'Send USDT 12.34 to Yaw T.' })).toBeVisible();
  await expect(confirm).toContainText('Fee');
  await snap(page, 'transfer', project);
  const { token, wallet } = await sessionOf(page);
  const balance = async () =>
    (
      await (
        await request.get(`/api/v1/wallet/account-balance/${wallet}`, { headers: { authorization: `Bearer ${token}` } })
      ).json()
    ).data as string;
  // Nothing has moved yet.
  expect(await balance()).toBe('49.75');
  await confirmTransfer(modal);
  await expect(modal.getByText('Completed')).toBeVisible();
  expect(await balance()).toBe('37.41');
});

test('a card withdrawal above the card balance, or one its fees would eat whole, is refused on the field', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const { email } = await verifiedIndividual(request, 'Kofi', `Asare${letters(5)}`);
  await logInThroughUi(page, email, PASSWORD);
  await fundWallet(
    page,
    request,
    project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example',
    '100.00',
  );
  const { token } = await sessionOf(page);
  const made = await request.post('/api/v1/cards', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      first_name: 'Kofi',
      last_name: 'Asare',
      nickname: 'Groceries',
      type: 'premium',
      purpose: 'general',
      card_amount: '20.00',
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const cardId = (await made.json()).data.card.id as string;

  await visit(page, `/portal/prepaid-cards/${cardId}`);
  await expect(page.getByRole('heading', { name: 'Groceries', exact: true })).toBeVisible();
  await cardOption(page, 'Card Withdrawal');
  const panel = drawer(page);
  await expect(panel.getByText('On the card: USD 20.00')).toBeVisible();
  const amount = panel.getByLabel('Amount', { exact: true });
  await amount.fill('25.00');
  await expect(panel.locator(FIELD_ERROR)).toHaveText('The card holds USD 20.00: enter at most that amount');
  await expect(panel.getByTestId('fee-preview')).toHaveCount(0);
  await snap(page, 'withdraw-over-balance', project);
  await panel.getByRole('button', { name: 'Withdraw Funds' }).click();
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);

  // An amount the fees would eat whole: said on the field, and nothing to confirm.
  await amount.fill('0.40');
  await panel.getByRole('button', { name: 'Withdraw Funds' }).click();
  await expect(panel.locator(FIELD_ERROR)).toHaveText(/^The amount must be more than the fees \(USD 0\.5\d\)\.$/);
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);

  await amount.fill('20.00');
  await expect(panel.locator(FIELD_ERROR)).toHaveCount(0);
  await expect(panel.getByTestId('fee-preview')).toBeVisible();
  await expect(panel.getByTestId('fee-grand-total')).toHaveText('USD 19.30');
});

test("'Add New Card' at the card cap says why instead of opening the form", async ({ page, request }, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  const { email } = await verifiedIndividual(request, 'Ama', `Darko${letters(5)}`);
  await logInThroughUi(page, email, PASSWORD);
  await fundWallet(
    page,
    request,
    project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example',
    '100.00',
  );
  const { token } = await sessionOf(page);
  for (let i = 1; i <= 5; i++) {
    const made = await request.post('/api/v1/cards', {
      headers: { authorization: `Bearer ${token}` },
      data: {
        first_name: 'Ama',
        last_name: 'Darko',
        nickname: `Card ${i}`,
        type: 'basic',
        purpose: 'general',
        card_amount: '5.00',
      },
    });
    expect(made.status(), await made.text()).toBe(201);
  }

  await page.reload();
  await openScreen(page, 'Prepaid Cards');
  await expect(page.getByText(/Card 5$/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Add New Card' }).click();
  const told = page.getByTestId('card-allowance');
  await expect(told).toContainText('No cards left: unverified accounts may have 5 in all.');
  await expect(told).toContainText('Complete your verification to create more.');
  // Still the list: no type chooser, no form.
  await expect(page.getByText('See all your cards here')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
  await snap(page, 'card-cap', project);
});

test('staff approving a top-up the chain did not confirm are asked why; the note shows on the top-up and in the audit trail', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const desktop = project === 'desktop';
  const last = `Boateng${letters(5)}`;
  const customer = await verifiedIndividual(request, 'Kwesi', last);
  const auth = { authorization: `Bearer ${await staffToken(request, customer.email, customer.password)}` };
  const wallet = (await (await request.get('/api/v1/individuals/profile', { headers: auth })).json()).data.user
    .wallet_id as string;
  const made = await request.post('/api/v1/wallet/topup-balance', {
    headers: auth,
    data: { wallet_id: wallet, amount: '64.00', method: 'tron' },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { reference } = (await made.json()).data as { reference: string };
  const paid = await request.post('/api/v1/wallet/topup-confirm', {
    headers: auth,
    data: { reference, transaction_hash: hex64() },
  });
  expect((await paid.json()).data.chain_check).toMatchObject({ found: false });

  const staffEmail = desktop ? 'super@cardwallet.example' : 'admin@cardwallet.example';
  await signedInAs(page, staffEmail);
  const name = `Kwesi ${last}`;
  await visit(page, `/admin/wallet-loads?individual_id=${wallet}&acc_name=${encodeURIComponent(name)}`);
  await expect(rows(page)).toHaveCount(1);
  await openRow(rows(page).first());
  const d = page.locator('.ant-drawer-open .ant-drawer-content');
  await expect(d.getByTestId('chain-facts')).toContainText('Not found on the chain');
  await d.getByText('Approve', { exact: true }).click();
  await expect(d.getByText('Required: the chain did not confirm this payment.')).toBeVisible();
  await d.getByRole('button', { name: 'Submit' }).click();

  const ask = dialog(page, 'Approve a payment the chain did not confirm?');
  await expect(ask.getByText('The chain did not confirm this payment.')).toBeVisible();
  await motionless(page);
  await ask.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(ask.getByText('Say why you approve a payment the chain did not confirm')).toBeVisible();
  await snap(page, 'approve-unconfirmed', project);
  // Cancel changes nothing: the top-up still waits.
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(d.getByText('Approve or Deny Top-Up')).toBeVisible();

  const note = `Seen on Tronscan, block ${letters(4)}`;
  await d.getByRole('button', { name: 'Submit' }).click();
  await giveApprovalNote(page, note);
  await expect(page.getByText('Top-up approved and the wallet credited.')).toBeVisible();
  const row = rows(page).first();
  await expect(row.getByText('Approved', { exact: true })).toBeVisible();
  await expect(row.getByTestId('decision-note')).toHaveText(`Note: ${note}`);
  await snap(page, 'approved-with-note', project);

  // The audit trail is the Super-Admin's: the phone's Admin hands over.
  if (!desktop) await signedInAs(page, 'super@cardwallet.example');
  await visit(page, '/admin/audit-logs');
  await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();
  const entry = rows(page).filter({ hasText: note });
  await expect(entry.first()).toBeVisible();
  await expect(entry.first()).toContainText('Top-up approved');
  await snap(page, 'audit-note', project);
});
