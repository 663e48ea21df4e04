import { type Locator, type Page, expect, test } from '@playwright/test';
import { chooseOption, motionless, snap, visit } from './support/flows';
import { letters, sessionOf } from './support/cards';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Issue 32, "Done when": a staff member walks a payment through increment, partial clearing,
 * reversal of the rest and refund on the back-office card show's Simulate panel, and sees the
 * card's figures change after each step. Desktop runs as the Super-Admin, phone as the Admin.
 */

const FIGURES = [
  'Approved Sum',
  'Settled Sum',
  'Reversal Sum',
  'Refund Sum',
  'Available Sum',
  'Held Sum',
  'Ledger Sum',
  'Debt',
] as const;
type Figures = Partial<Record<(typeof FIGURES)[number], string>>;

/** A figure of the Card Summary as a person reads it: the cell beside its label. */
const figure = (page: Page, label: string) =>
  page
    .locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::*[contains(@class, "ant-descriptions-item-content")][1]');

async function expectFigures(page: Page, want: Figures) {
  for (const [label, amount] of Object.entries(want))
    await expect(figure(page, label), label).toHaveText(`USD ${amount}`);
}

const panel = (page: Page) => page.getByTestId('simulate-panel');
const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });
const pendingAt = (page: Page, merchant: string) =>
  panel(page).getByTestId('pending-authorization').filter({ hasText: merchant });

/** Opens a step's dialog, fills it, sends it, and waits for the panel's answer. */
async function step(page: Page, open: Locator, title: string, fill: (d: Locator) => Promise<void>, okText: string) {
  await open.click();
  const d = dialog(page, title);
  await expect(d).toBeVisible();
  await motionless(page);
  await fill(d);
  await d.getByRole('button', { name: okText, exact: true }).click();
  await expect(d).toBeHidden();
  const answer = panel(page).getByTestId('simulate-answer');
  await expect(answer).toBeVisible();
  return answer;
}

async function merchant(d: Locator, name: string, mcc: string, country: string) {
  await d.getByLabel('Merchant', { exact: true }).fill(name);
  await d.getByLabel('Merchant category (MCC)').fill(mcc);
  await d.getByLabel('Country').fill(country);
}

test('a payment walked through increment, partial clearing, reversal and refund changes the card’s figures', async ({
  page,
  request,
}, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  await signedInAs(page, project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  const { token } = await sessionOf(page);
  const c = await customerWithCards(request, token, `Life${letters(6)}`);
  // Staff fund the customer's Mastercard for them: 20.00 + 200.00 on it.
  const funded = await request.post('/api/v1/cards/add-funds', {
    headers: { authorization: `Bearer ${token}` },
    data: { card: c.master.id, amount: '200.00' },
  });
  expect(funded.status(), await funded.text()).toBe(200);

  await visit(page, `/admin/cards/${c.master.id}`);
  await expect(page.getByRole('heading', { name: 'Admin Master' })).toBeVisible();
  await expect(panel(page).getByText('No payment is on hold')).toBeVisible();
  await expectFigures(page, {
    'Approved Sum': '0.00',
    'Settled Sum': '0.00',
    'Reversal Sum': '0.00',
    'Refund Sum': '0.00',
    'Available Sum': '220.00',
    'Held Sum': '0.00',
    'Ledger Sum': '220.00',
  });
  await expect(figure(page, 'Debt')).toHaveText('USD 0.00');

  await test.step('a hotel asks for USD 100.00: approved and held', async () => {
    const answer = await step(
      page,
      panel(page).getByRole('button', { name: 'Authorise a payment' }),
      'Authorise a payment',
      async (d) => {
        await d.getByLabel('Amount', { exact: true }).fill('100.00');
        await merchant(d, 'Hotel Lagos', '7011', 'NG');
        await snap(page, 'card-lifecycle-authorise-dialog', project);
      },
      'Authorise',
    );
    await expect(answer).toHaveText('Approved USD 100.00 at Hotel Lagos.');
    await expectFigures(page, {
      'Approved Sum': '100.00',
      'Held Sum': '100.00',
      'Available Sum': '120.00',
      'Ledger Sum': '220.00',
    });
    await expect(pendingAt(page, 'Hotel Lagos')).toContainText('Holds USD 100.00 of USD 100.00 approved');
  });

  await test.step('the hotel adds USD 20.00 to its hold', async () => {
    const answer = await step(
      page,
      pendingAt(page, 'Hotel Lagos').getByRole('button', { name: 'Increment' }),
      'Increment the hold at Hotel Lagos',
      (d) => d.getByLabel('Add to the hold').fill('20.00'),
      'Increment',
    );
    await expect(answer).toHaveText('Hold increased by USD 20.00 at Hotel Lagos.');
    await expectFigures(page, {
      'Approved Sum': '120.00',
      'Held Sum': '120.00',
      'Available Sum': '100.00',
      'Ledger Sum': '220.00',
    });
    await expect(pendingAt(page, 'Hotel Lagos')).toContainText('Holds USD 120.00 of USD 120.00 approved');
    await snap(page, 'card-lifecycle-pending', project);
  });

  await test.step('it clears USD 70.00 and keeps the authorisation open', async () => {
    await step(
      page,
      pendingAt(page, 'Hotel Lagos').getByRole('button', { name: 'Clear' }),
      'Clear the payment at Hotel Lagos',
      async (d) => {
        await expect(d.getByLabel('Amount to clear')).toHaveValue('120.00');
        await d.getByLabel('Amount to clear').fill('70.00');
        await d.getByRole('checkbox', { name: 'Close the authorisation' }).uncheck();
        await snap(page, 'card-lifecycle-clear-dialog', project);
      },
      'Clear',
    );
    await expectFigures(page, {
      'Approved Sum': '120.00',
      'Settled Sum': '70.00',
      'Held Sum': '50.00',
      'Available Sum': '100.00',
      'Ledger Sum': '150.00',
    });
    await expect(pendingAt(page, 'Hotel Lagos')).toContainText('Holds USD 50.00 of USD 120.00 approved');
  });

  await test.step('the rest of the hold is reversed', async () => {
    await step(
      page,
      pendingAt(page, 'Hotel Lagos').getByRole('button', { name: 'Reverse' }),
      'Reverse the hold at Hotel Lagos',
      async () => undefined,
      'Reverse',
    );
    await expectFigures(page, {
      'Approved Sum': '120.00',
      'Settled Sum': '70.00',
      'Reversal Sum': '50.00',
      'Held Sum': '0.00',
      'Available Sum': '150.00',
      'Ledger Sum': '150.00',
    });
    await expect(panel(page).getByText('No payment is on hold')).toBeVisible();
  });

  await test.step('the hotel refunds USD 10.00 of the payment', async () => {
    await step(
      page,
      panel(page).getByRole('button', { name: 'Refund', exact: true }),
      'Refund to the card',
      async (d) => {
        await d.getByLabel('Amount', { exact: true }).fill('10.00');
        await chooseOption(page, d.getByRole('combobox', { name: 'For the payment' }), /^Hotel Lagos · USD 120\.00/);
        await merchant(d, 'Hotel Lagos', '7011', 'NG');
      },
      'Refund',
    );
    await expectFigures(page, {
      'Approved Sum': '120.00',
      'Settled Sum': '70.00',
      'Reversal Sum': '50.00',
      'Refund Sum': '10.00',
      'Held Sum': '0.00',
      'Available Sum': '160.00',
      'Ledger Sum': '160.00',
    });
    await expect(page.getByTestId('card-balance')).toHaveText('160.00');
  });

  await test.step('a payment above the balance, no partial approval allowed: declined, and why', async () => {
    const answer = await step(
      page,
      panel(page).getByRole('button', { name: 'Authorise a payment' }),
      'Authorise a payment',
      async (d) => {
        await d.getByLabel('Amount', { exact: true }).fill('500.00');
        await merchant(d, 'Air Ghana', '4511', 'GH');
      },
      'Authorise',
    );
    await expect(answer).toHaveText(/^Declined: .+/);
    await expectFigures(page, { 'Approved Sum': '120.00', 'Held Sum': '0.00', 'Available Sum': '160.00' });
    await expect(page.getByTestId('decline-reason').first()).toHaveText(/^Declined: .+/);
  });

  await test.step('the card’s transactions tell each step in words', async () => {
    const txs = page.locator('.ant-card').filter({ has: page.getByText('Card Transactions', { exact: true }) });
    for (const word of ['Hold increased', 'Cleared', 'Reversed', 'Refund'])
      await expect(txs.getByText(word, { exact: true }).first(), word).toBeVisible();
    await snap(page, 'card-lifecycle-after-refund', project);
  });

  await test.step('the customer reads the same story on the card’s page', async () => {
    await signedInAs(page, c.email, c.password);
    await visit(page, `/portal/prepaid-cards/${c.master.id}`);
    await expect(page.getByRole('heading', { name: 'Admin Master' })).toBeVisible();
    await expect(page.getByTestId('simulate-panel')).toHaveCount(0);
    const txs = page.locator('.ant-card').filter({ has: page.getByText('Card Transactions', { exact: true }) });
    for (const text of [
      'Hold increased',
      'Cleared',
      'Refund',
      'Hotel Lagos added USD 20.00 to its hold',
      'Refund from Hotel Lagos',
    ])
      await expect(txs.getByText(text, { exact: true }).first(), text).toBeVisible();
    await expect(txs.getByTestId('decline-reason').first()).toHaveText(/^Declined: .+/);
    await snap(page, 'card-lifecycle-customer', project);
  });
});

test('a partial approval, and a charge without authorisation that puts the card in debt', async ({
  page,
  request,
}, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  await signedInAs(page, project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  const { token } = await sessionOf(page);
  const c = await customerWithCards(request, token, `Debt${letters(6)}`);
  await visit(page, `/admin/cards/${c.master.id}`);
  await expect(page.getByRole('heading', { name: 'Admin Master' })).toBeVisible();
  await expectFigures(page, { 'Available Sum': '20.00', 'Held Sum': '0.00' });

  await test.step('a shop asks for USD 50.00 and accepts less: USD 20.00 approved', async () => {
    const answer = await step(
      page,
      panel(page).getByRole('button', { name: 'Authorise a payment' }),
      'Authorise a payment',
      async (d) => {
        await d.getByLabel('Amount', { exact: true }).fill('50.00');
        await merchant(d, 'Accra Mall', '5311', 'GH');
        await d.getByRole('checkbox', { name: 'The merchant accepts a partial approval' }).check();
      },
      'Authorise',
    );
    await expect(answer).toHaveText('Approved USD 20.00 of USD 50.00 at Accra Mall (partial approval).');
    await expectFigures(page, { 'Approved Sum': '20.00', 'Held Sum': '20.00', 'Available Sum': '0.00' });
  });

  await test.step('the shop reverses it whole', async () => {
    await step(
      page,
      pendingAt(page, 'Accra Mall').getByRole('button', { name: 'Reverse' }),
      'Reverse the hold at Accra Mall',
      async () => undefined,
      'Reverse',
    );
    await expectFigures(page, { 'Reversal Sum': '20.00', 'Held Sum': '0.00', 'Available Sum': '20.00' });
  });

  await test.step('an airline charges USD 100.00 without authorisation: the card owes USD 80.00', async () => {
    await step(
      page,
      panel(page).getByRole('button', { name: 'Force-post' }),
      'Force-post a charge',
      async (d) => {
        await d.getByLabel('Amount', { exact: true }).fill('100.00');
        await merchant(d, 'Air Ghana', '4511', 'GH');
      },
      'Force-post',
    );
    await expectFigures(page, { 'Settled Sum': '100.00', Debt: '80.00' });
    await expect(figure(page, 'Debt').locator('.ant-typography-danger')).toHaveText('USD 80.00');
    await expect(
      page
        .locator('.ant-card')
        .filter({ has: page.getByText('Card Transactions', { exact: true }) })
        .getByText('Charge without authorisation', { exact: true }),
    ).toBeVisible();
    await snap(page, 'card-lifecycle-debt', project);
  });
});
