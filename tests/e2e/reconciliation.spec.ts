import { type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import {
  cardOption,
  centsOf,
  day,
  drawer,
  fundWallet,
  letters,
  pickRange,
  rowOf,
  sessionOf,
  staffToken,
} from './support/cards';
import { otherBrowser } from './support/integrations';
import { PASSWORD, isPhone, logInThroughUi, snap as snapNow } from './support/flows';
import { confirmCardMoney } from './support/confirm';
import { signedInAs } from './support/session';

/**
 * Durable money (issue 12): the sandbox issuer refuses every load after the first to a card held
 * by a "… Topupfail" (as an issuer that is down would). The customer funds such a card; the
 * worker retries, gives up and refunds the wallet. Staff see the failed load and its refund on the
 * Reconciliation screen; the customer sees the refund in the card's and the wallet's history.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const snap = (page: Page, name: string, project: string) => snapNow(page, `reconciliation-${name}`, project);

async function openAdminMenu(page: Page, entry: string) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: entry, exact: true }).click();
}

test('an issuer failure shows on the Reconciliation screen, and the customer sees the refund in the card and wallet history', async ({
  page,
  browser,
  request,
}, info) => {
  const project = info.project.name;
  const staffEmail = project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example';
  const nickname = `Failing ${letters(4)}`;

  // The customer: a funded wallet and a card held by "Kwame Topupfail".
  const { email } = await verifiedIndividual(request, 'Kwame', `Asante${letters(4)}`);
  await logInThroughUi(page, email, PASSWORD);
  await fundWallet(page, request, staffEmail, '200.00');
  const { token } = await sessionOf(page);
  const made = await request.post('/api/v1/cards', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      first_name: 'Kwame',
      last_name: 'Topupfail',
      nickname,
      type: 'premium',
      purpose: 'general',
      card_amount: '20.00',
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const cardId = (await made.json()).data.card.id as string;

  let fees = 0;
  const returned = () => `${((5_000 + fees) / 100).toFixed(2)}`;
  await test.step('the customer funds the card; the ledger moves at once, the issuer is owed the load', async () => {
    await page.goto(`/portal/prepaid-cards/${cardId}`);
    await expect(page.getByRole('heading', { name: nickname, exact: true })).toBeVisible();
    await cardOption(page, 'Fund Card');
    const panel = drawer(page);
    await panel.getByLabel('Amount', { exact: true }).fill('50');
    fees = centsOf(await panel.getByTestId('fee-total').innerText());
    await panel.getByRole('button', { name: 'Fund Card' }).click();
    await confirmCardMoney(page);
    await expect(page.locator('.ant-message').getByText('Card funded.')).toBeVisible();
  });

  // The worker tries three times a second apart (ISSUER_RETRY_SECONDS=1,1 in this run), then refunds.
  const staff = await staffToken(request, staffEmail);
  await expect(async () => {
    const res = await request.get('/api/v1/reconciliation/operations?state=failed&per_page=100', {
      headers: { authorization: `Bearer ${staff}` },
    });
    const ops = (await res.json()).data as { card_id: string; refund: unknown }[];
    expect(ops.find((o) => o.card_id === cardId)?.refund).toBeTruthy();
  }).toPass({ timeout: 60_000 });

  await test.step('the customer sees the refund in the card history and the wallet history', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: nickname, exact: true })).toBeVisible();
    await expect(rowOf(page, 'Returned to the master wallet: the card issuer failed')).toBeVisible();
    await expect(page.getByTestId('card-balance')).toHaveText('20.00');
    await snap(page, 'card-history-refund', project);

    await page.goto('/portal/wallet-transactions');
    await expect(page.getByRole('heading', { name: 'Wallet Transactions' })).toBeVisible();
    await pickRange(page, day(-1), day(1));
    await page.getByRole('button', { name: 'Search' }).click();
    // The list shows the spec's columns; the reason is in the row's details.
    const refund = rowOf(page, 'Refund').filter({ hasText: `+ USDT ${returned()}` });
    await expect(refund).toBeVisible();
    await snap(page, 'wallet-history-refund', project);
    await refund.click();
    await expect(drawer(page).getByText('Transaction Details')).toBeVisible();
    await expect(
      drawer(page).getByText(`Card top-up failed at the issuer: USD ${returned()} returned (${nickname})`),
    ).toBeVisible();
  });

  await test.step('staff find the failed load and its refund on the Reconciliation screen', async () => {
    const { context, page: admin } = await otherBrowser(browser, page);
    try {
      await signedInAs(admin, staffEmail);
      await expect(admin).toHaveURL(/\/admin/);
      await openAdminMenu(admin, 'Reconciliation');
      await expect(admin).toHaveURL(/\/admin\/reconciliation$/);
      await expect(admin.getByRole('heading', { name: 'Reconciliation' })).toBeVisible();
      const failed = rowOf(admin, nickname);
      await expect(failed).toBeVisible();
      await expect(failed).toContainText('Load');
      await expect(failed).toContainText('Card top-up');
      await expect(failed).toContainText(`USDT ${returned()} returned`);
      await expect(failed).toContainText('The sandbox issuer fails every top-up');
      await snap(admin, 'staff-failed-load', project);

      if (project === 'desktop') {
        // The Super-Admin runs the comparison now: the refund left the card and the issuer agreeing.
        await admin.getByRole('button', { name: 'Run now' }).click();
        await expect(admin.locator('.ant-message').getByText(/^Reconciliation done: /)).toBeVisible();
        const res = await request.get('/api/v1/reconciliation', { headers: { authorization: `Bearer ${staff}` } });
        const run = (await res.json()).data as { drift: { card_id: string }[] };
        expect(run.drift.find((d) => d.card_id === cardId)).toBeUndefined();
      } else {
        await expect(admin.getByRole('button', { name: 'Run now' })).toHaveCount(0);
      }
    } finally {
      await context.close();
    }
  });
});
