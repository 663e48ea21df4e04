import { type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import {
  balanceCents,
  cardLabel,
  cardOption,
  centsOf,
  confirmDialog,
  day,
  drawer,
  fillCard,
  fundWallet,
  letters,
  openScreen,
  pick,
  pickDay,
  pickRange,
  rowOf,
  sessionOf,
  staffToken,
  swipe,
} from './support/cards';
import {
  FIELD_ERROR,
  isPhone,
  logInThroughUi,
  motionless,
  openDropdown,
  PASSWORD,
  snap as snapNow,
} from './support/flows';
import { confirmCardMoney } from './support/confirm';
import { signedInAs } from './support/session';

/**
 * Customer card journeys (issue 4): a new customer with a funded wallet creates a premium Visa and
 * a basic Mastercard and pays exactly the fees the form showed, reveals and copies the number,
 * freezes and unfreezes, funds and withdraws, sets spending limits, and deletes the basic card
 * after seeing what is forfeited. Demo customers show a declined payment's reason.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000, permissions: ['clipboard-read', 'clipboard-write'] });

const snap = (page: Page, name: string, project: string) => snapNow(page, `cards-${name}`, project);

test('a customer creates, uses, limits and deletes cards, charged exactly what the forms showed', async ({
  page,
  request,
}, info) => {
  test.setTimeout(600_000); // a long journey; the machine may be shared with other suites
  const project = info.project.name;
  const phone = isPhone(page);
  const last = `Kyei${letters(6)}`;
  const { email } = await verifiedIndividual(request, 'Adwoa', last);
  await logInThroughUi(page, email, PASSWORD);
  await fundWallet(
    page,
    request,
    project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example',
    '500.00',
  );
  await page.reload();

  await test.step('an empty list, then the type chooser', async () => {
    await openScreen(page, 'Prepaid Cards');
    await expect(page.getByRole('heading', { name: 'Prepaid Cards' })).toBeVisible();
    await expect(page.getByText('See all your cards here')).toBeVisible();
    await expect(page.getByText('You have no cards yet. Use Add New Card to create one.')).toBeVisible();
    await page.getByRole('button', { name: 'Add New Card' }).click();
    await expect(
      page.getByText(phone ? 'Swipe to see card features' : 'See card features', { exact: true }),
    ).toBeVisible();
    await expect(page.getByText('Freeze or delete at any moment')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
    if (phone) {
      const top = page.locator('[data-swipe-top]');
      await expect(top).toContainText('Premium');
      await swipe(page, -120); // under the 200 px threshold: the swipe is cancelled
      await expect(top).toContainText('Unlimited top-ups');
      await swipe(page, -230);
      await expect(top).toContainText('One-time top-up at creation');
      await snap(page, 'chooser-swiped', project);
      await page.getByRole('button', { name: 'Show Premium' }).click();
      await expect(top).toContainText('Unlimited top-ups');
    } else {
      await expect(page.getByText('Cannot be frozen but can be deleted at any moment')).toBeVisible();
    }
    await snap(page, 'chooser', project);
    await page
      .locator(phone ? '[data-swipe-top]' : '[aria-label="Premium card"]')
      .getByRole('button', { name: 'Create Card' })
      .click();
    await expect(page.getByText('Complete the form below to create your new card')).toBeVisible();
  });

  await test.step('a premium Visa: required fields, then created; the wallet pays amount + the fees shown', async () => {
    await page.getByRole('button', { name: 'Create Card' }).click();
    for (const m of [
      'First Name is required',
      'Last Name is required',
      'Nickname is required',
      'Amount is required',
      'Card Purpose is required',
    ]) {
      await expect(page.getByText(m)).toBeVisible();
    }
    await pick(page, page, 'Card Purpose', 'Visa');
    await expect(page.getByRole('radio', { name: 'Lifetime' })).toBeChecked();
    await page.getByRole('button', { name: 'Create Card' }).click();
    await expect(page.getByText('Spending Limit is required')).toBeVisible();
    const before = await balanceCents(page, request);
    expect(before).toBe(49_750); // 500.00 less the 0.5 % Tron fee
    const shown = await fillCard(page, {
      first: 'Adwoa',
      last,
      nickname: 'Travel Visa',
      amount: '100.00',
      purpose: 'Visa',
      limit: '1,000.00',
      control: 'Week',
    });
    expect(shown.fees).toBe(700); // 5.00 issuance + 1.50 % load + 0.50 flat, by the shared fee function
    await snap(page, 'create-visa-form', project);
    await page.getByRole('button', { name: 'Create Card' }).click();
    const ok = page.locator('.ant-modal-confirm-success');
    await expect(ok.locator('.ant-modal-confirm-title')).toHaveText('Successful');
    await expect(
      ok.getByText('Your card has been created successfully. Click continue to view your card(s)'),
    ).toBeVisible();
    await snap(page, 'create-success', project);
    expect(before - (await balanceCents(page, request))).toBe(10_000 + shown.fees);
    await ok.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('See all your cards here')).toBeVisible();
    await expect(rowOf(page, 'Visa').getByText('Active')).toHaveClass(/ant-tag-green/);
  });

  await test.step('a basic Mastercard: a refused nickname says why, then created and charged as shown', async () => {
    await page.getByRole('button', { name: 'Add New Card' }).click();
    if (phone) {
      await swipe(page, 240); // either way
      await expect(page.locator('[data-swipe-top]')).toContainText('One-time top-up at creation');
    }
    await page
      .locator(phone ? '[data-swipe-top]' : '[aria-label="Basic card"]')
      .getByRole('button', { name: 'Create Card' })
      .click();
    await expect(page.getByLabel('Card Type')).toBeAttached();
    await expect(page.locator('.ant-select-selection-item', { hasText: 'Basic' })).toBeVisible();
    const shown = await fillCard(page, {
      first: 'Adwoa',
      last,
      nickname: 'Travel Visa',
      amount: '20',
      purpose: 'Mastercard',
    });
    await expect(page.getByLabel('Spending Limit (USD)')).toHaveCount(0);
    expect(shown.fees).toBe(580); // 5.00 + 1.50 % of 20.00 + 0.50
    await page.getByRole('button', { name: 'Create Card' }).click();
    // Said once, under the field it is about: no 'Failed' dialog over the form as well.
    const nickname = page.locator('.ant-form-item').filter({ has: page.getByLabel('Unique Card Nickname') });
    await expect(nickname.locator(FIELD_ERROR)).toHaveText('You already have a card with this nickname');
    await expect(page.locator('.ant-modal-confirm-error')).toHaveCount(0);
    await snap(page, 'create-failed', project);
    await page.getByLabel('Unique Card Nickname').fill('Streaming');
    await expect(nickname.locator(FIELD_ERROR)).toHaveCount(0);
    const before = await balanceCents(page, request);
    await snap(page, 'create-mastercard-form', project);
    await page.getByRole('button', { name: 'Create Card' }).click();
    await page.locator('.ant-modal-confirm-success').getByRole('button', { name: 'Continue' }).click();
    expect(before - (await balanceCents(page, request))).toBe(2_000 + shown.fees);
    await expect(rowOf(page, 'Streaming')).toBeVisible();
    await expect(rowOf(page, 'Mastercard')).toBeVisible();
    await snap(page, 'list', project);
    // nothing on the list is wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      page.viewportSize()!.width,
    );
  });

  await test.step('the filters narrow the list', async () => {
    await page.getByRole('button', { name: 'Search Cards' }).click();
    const panel = drawer(page);
    await expect(panel.getByText('Search Cards')).toBeVisible();
    // the panel slides in: pick once it has stopped moving
    await page
      .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    await pick(page, panel, 'Purpose', 'Mastercard');
    await snap(page, 'filters', project);
    await panel.getByRole('button', { name: 'Filter Cards' }).click();
    await expect(rowOf(page, 'Streaming')).toBeVisible();
    await expect(rowOf(page, 'Travel Visa')).toHaveCount(0);
    await expect(page.getByText('1 filter applied')).toBeVisible();
    await page.getByRole('button', { name: 'Search Cards' }).click();
    await panel.getByLabel('Search', { exact: true }).fill('nothing like this');
    await panel.getByRole('button', { name: 'Filter Cards' }).click();
    await expect(page.getByText('No cards match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(rowOf(page, 'Travel Visa')).toBeVisible();
    // Dates go together: one alone is refused; a range without the cards finds none. (Enter in a
    // date field submits the panel, as in any form.)
    await page.getByRole('button', { name: 'Search Cards' }).click();
    await pickDay(panel, 'Start Date', day(-3));
    await expect(panel.getByText('Choose both a start date and an end date').first()).toBeVisible();
    await pickDay(panel, 'End Date', day(-2));
    await expect(page.getByText('No cards match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Search Cards' }).click();
    await pickDay(panel, 'End Date', day(1));
    await expect(rowOf(page, 'Travel Visa')).toBeVisible();
    await expect(rowOf(page, 'Streaming')).toBeVisible();
    await expect(page.getByText('1 filter applied')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  await test.step('the Visa card: face, balance, the number revealed and copied, the CVC', async () => {
    await rowOf(page, 'Travel Visa').click();
    await expect(page).toHaveURL(/\/portal\/prepaid-cards\/[0-9a-f-]{36}$/);
    const face = page.getByTestId('card-face');
    await expect(face).toHaveAttribute('data-variant', 'visa-premium');
    await expect(face).toHaveAttribute('data-deactivated', 'false');
    await expect(page.getByTestId('card-face-expiry')).toHaveText(/^\d{2}\/\d{2}$/);
    await expect(page.getByTestId('card-balance')).toHaveText('100.00');
    await expect(page.getByText('Balance (USD)')).toBeVisible();
    await expect(page.getByTestId('card-cvc')).toHaveText('•••');
    await expect(page.getByTestId('card-number')).toContainText('•••• •••• ••••');
    await page.getByRole('button', { name: 'Show card number' }).click();
    await expect(page.getByTestId('card-number')).toHaveText(/^4\d{3} \d{4} \d{4} \d{4}$/);
    const full = (await page.getByTestId('card-number').innerText()).replace(/\s/g, '');
    await page.getByRole('button', { name: 'Copy card number' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
    await page.getByRole('button', { name: 'Show CVC' }).click();
    await expect(page.getByTestId('card-cvc')).toHaveText(/^\d{3}$/);
    await expect(page.getByText('Initial card load')).toBeVisible();
    await snap(page, 'detail-revealed', project);
    await page.getByRole('button', { name: 'Hide card number' }).click();
    await page.getByRole('button', { name: 'Hide CVC' }).click();
  });

  await test.step('freeze and unfreeze, each confirmed', async () => {
    await cardOption(page, 'Freeze Card');
    await expect(confirmDialog(page).locator('.ant-modal-confirm-title')).toHaveText(
      'Please do you wish to freeze this card?',
    );
    await expect(confirmDialog(page).getByRole('button', { name: 'Cancel' })).toBeVisible();
    await snap(page, 'confirm-freeze', project);
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect(page.locator('.ant-message').getByText('Card frozen successfully.')).toBeVisible();
    await expect(page.getByTestId('card-face')).toHaveAttribute('data-deactivated', 'true');
    await expect(page.getByText('This card is frozen')).toBeVisible();
    await snap(page, 'detail-frozen', project);
    await cardOption(page, 'Unfreeze Card');
    await expect(confirmDialog(page).locator('.ant-modal-confirm-title')).toHaveText(
      'Please do you wish to unfreeze this card?',
    );
    // A tap on the dialog while it still zooms in can be lost (seen once under CI load).
    await motionless(page);
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect(page.locator('.ant-message').getByText('Card unfrozen successfully.')).toBeVisible();
    await expect(page.getByTestId('card-face')).toHaveAttribute('data-deactivated', 'false');
  });

  await test.step('fund the card and withdraw from it, at the fees shown', async () => {
    let before = await balanceCents(page, request);
    await cardOption(page, 'Fund Card');
    const panel = drawer(page);
    await expect(panel.getByText('Fund Card', { exact: true }).first()).toBeVisible();
    const amount = panel.getByLabel('Amount', { exact: true });
    await expect(amount).toHaveValue('0.00');
    await expect(amount).toHaveAttribute('placeholder', 'USD 5000.00');
    await expect(panel.getByTestId('fee-preview')).toHaveCount(0);
    await expect(panel.getByLabel('Master Wallet')).toHaveValue(/^[0-9a-f-]{36}$/);
    await amount.fill('50');
    await expect(panel.getByText('All fees are in USD')).toBeVisible();
    const fundFees = centsOf(await panel.getByTestId('fee-total').innerText());
    expect(fundFees).toBe(125); // 1.50 % of 50.00 + 0.50
    await snap(page, 'fund', project);
    await panel.getByRole('button', { name: 'Fund Card' }).click();
    // Nothing moves before Confirm: the amount, the fee and what the wallet pays, said once more.
    await expect(confirmDialog(page).getByTestId('card-money-confirm')).toHaveText(
      /^Fund card •••• \d{4} with USD 50\.00 — fee USD 1\.25, total USDT 51\.25$/,
    );
    await snap(page, 'fund-confirm', project);
    await confirmCardMoney(page);
    await expect(page.locator('.ant-message').getByText('Card funded.')).toBeVisible();
    await expect(page.getByTestId('card-balance')).toHaveText('150.00');
    expect(before - (await balanceCents(page, request))).toBe(5_000 + fundFees);

    before = await balanceCents(page, request);
    await cardOption(page, 'Card Withdrawal');
    await expect(panel.getByText('Card Withdrawal', { exact: true }).first()).toBeVisible();
    await panel.getByLabel('Amount', { exact: true }).fill('30.00');
    const withdrawFees = centsOf(await panel.getByTestId('fee-total').innerText());
    expect(withdrawFees).toBe(80); // 1 % of 30.00 + 0.50
    await expect(panel.getByTestId('fee-grand-total')).toHaveText('USD 29.20');
    await snap(page, 'withdraw', project);
    await panel.getByRole('button', { name: 'Withdraw Funds' }).click();
    await confirmCardMoney(
      page,
      /^Withdraw USD 30\.00 from card •••• \d{4} — fee USD 0\.80, USDT 29\.20 to the master wallet$/,
    );
    await expect(page.locator('.ant-message').getByText('Funds withdrawn to the master wallet.')).toBeVisible();
    await expect(page.getByTestId('card-balance')).toHaveText('120.00');
    expect((await balanceCents(page, request)) - before).toBe(3_000 - withdrawFees);
    await expect(page.getByText('Withdrawal to master wallet')).toBeVisible();
  });

  await test.step('an additional spend limit on the Visa card', async () => {
    await cardOption(page, 'Additional Spend Limit');
    const panel = drawer(page);
    await expect(panel.getByText('Spending limit USD 1,000.00 per week')).toBeVisible();
    await panel.getByLabel('Amount', { exact: true }).fill('200');
    await panel.getByRole('button', { name: 'Update Card' }).click();
    await expect(page.locator('.ant-message').getByText('Additional spend limit added.')).toBeVisible();
    await snap(page, 'detail', project);
  });

  await test.step('Card Spending: a Visa limit saved; a Mastercard row offers no Edit', async () => {
    await openScreen(page, 'Card Spending');
    await expect(
      page.getByText('Update your virtual card spending controls to suit your spending needs!'),
    ).toBeVisible();
    await snap(page, 'spending', project);
    await page.getByRole('button', { name: 'Edit spending limit of Travel Visa' }).click();
    const modal = page.getByRole('dialog', { name: 'Set card spending limit' });
    await expect(modal.getByLabel('Spending Limit (USD)')).toHaveValue('1000.00');
    await modal.getByLabel('Spending Limit (USD)').fill('');
    await expect(modal.getByLabel('Spending Limit (USD)')).toHaveAttribute('placeholder', '20,000.00');
    await modal.getByLabel('Spending Limit (USD)').fill('750.50');
    await pick(page, modal, 'Reset Every', 'Month');
    await snap(page, 'spending-modal', project);
    await modal.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.locator('.ant-message').getByText('Spending limit updated.')).toBeVisible();
    await expect(modal).toBeHidden();
    // A Mastercard row offers no Edit (it could only say 'Not applicable!'): it says the limit is for Visa only.
    const streaming = page.locator('tr.ant-table-row, .ant-list-item').filter({ hasText: 'Streaming' });
    await expect(streaming.getByText('Visa only', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit spending limit of Streaming' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit spending limit of Travel Visa' })).toBeVisible();
    await snap(page, 'spending-not-applicable', project);
  });

  await test.step('Card Transactions: a card and a date range, then the rows', async () => {
    await openScreen(page, 'Card Transactions');
    await expect(page.getByRole('heading', { name: 'Card Transactions' })).toBeVisible();
    // the period is the last 30 days from the start: only the card is left to choose, and choosing it searches
    await expect(page.getByText('Select a card to search. Results of query would be displayed here.')).toBeVisible();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('Please select a card')).toBeVisible();
    await pick(page, page, 'select card', (await cardLabel(page, request, 'Travel Visa'))!);
    await expect(rowOf(page, 'Card top-up')).toBeVisible();
    await pickRange(page, day(-1), day(1));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(rowOf(page, 'Card top-up')).toBeVisible();
    await expect(rowOf(page, 'Initial card load')).toBeVisible();
    await snap(page, 'transactions', project);
  });

  await test.step('delete the basic card, seeing the forfeited amount first', async () => {
    await openScreen(page, 'Prepaid Cards');
    await rowOf(page, 'Streaming').click();
    await expect(page.getByTestId('card-face')).toHaveAttribute('data-variant', 'mastercard-basic');
    const menu = await openDropdown(page, page.getByRole('button', { name: 'Card options' }));
    await expect(menu.getByRole('menuitem', { name: 'Freeze Card' })).toHaveCount(0);
    await expect(menu.getByRole('menuitem', { name: 'Fund Card' })).toHaveCount(0);
    await menu.getByRole('menuitem', { name: 'Delete Card' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog.locator('.ant-modal-confirm-title')).toHaveText('Please do you wish to delete this card?');
    await expect(dialog.getByTestId('delete-consequence')).toContainText(
      'The remaining balance of USD 20.00 on this basic card will be forfeited',
    );
    await snap(page, 'confirm-delete-basic', project);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(
      page.locator('.ant-message').getByText('Card deleted. The remaining USD 20.00 was forfeited.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/portal\/prepaid-cards$/);
    await expect(rowOf(page, 'Travel Visa')).toBeVisible();
    await expect(rowOf(page, 'Streaming')).toHaveCount(0);
  });
});

test('a customer sees why a card payment was declined', async ({ page }, info) => {
  const project = info.project.name;
  // Demo cards with a declined payment: Acme's flagged Visa 'Travel' (over its weekly limit) and
  // Ama's 'Online shopping' (more than it holds); one per project.
  const who =
    project === 'desktop'
      ? {
          email: 'kofi@acme.example.com',
          nickname: 'Travel',
          merchant: 'Uber',
          flagged: true,
          reason: "over the card's spending limit",
        }
      : {
          email: 'ama@example.com',
          nickname: 'Online shopping',
          merchant: 'AliExpress',
          flagged: false,
          reason: 'Insufficient funds on the card.',
        };
  await signedInAs(page, who.email);
  await openScreen(page, 'Prepaid Cards');
  await expect(rowOf(page, who.nickname).first()).toBeVisible();
  await snap(page, 'demo-list', project);
  await rowOf(page, who.nickname).first().click();
  await expect(page.getByRole('heading', { name: who.nickname, exact: true })).toBeVisible();
  if (who.flagged) await expect(page.getByText('This card is under review')).toBeVisible();
  const declined = rowOf(page, who.merchant).filter({ hasText: 'Declined' });
  await expect(declined.getByTestId('decline-reason')).toContainText(who.reason);
  await snap(page, 'demo-detail-declined', project);
  await declined.first().click();
  await expect(drawer(page).getByText('Decline Reason')).toBeVisible();
  await snap(page, 'demo-declined-details', project);
  await drawer(page).getByRole('button', { name: 'Close' }).click();

  // Another face: Acme's tokenised card (standard face); Ama's frozen premium Mastercard (red border).
  const other =
    project === 'desktop'
      ? { nickname: 'Partner token', variant: 'standard', frozen: 'false' }
      : { nickname: 'Subscriptions', variant: 'mastercard-premium', frozen: 'true' };
  await page.getByRole('link', { name: 'Back to Prepaid Cards' }).click();
  await rowOf(page, other.nickname).first().click();
  await expect(page.getByTestId('card-face')).toHaveAttribute('data-variant', other.variant);
  await expect(page.getByTestId('card-face')).toHaveAttribute('data-deactivated', other.frozen);
  await snap(page, 'demo-other-face', project);

  await openScreen(page, 'Card Transactions');
  const cards = page.getByRole('combobox', { name: 'select card' });
  await cards.click({ force: true });
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `(${who.nickname})` })
    .first()
    .click();
  await pickRange(page, day(-120), day(1));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rowOf(page, who.merchant).filter({ hasText: 'Declined' }).getByTestId('decline-reason')).toBeVisible();
  await snap(page, 'demo-transactions-declined', project);
});

test('a merchant’s payments reach a new card; the customer sees which were declined and why', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const staffEmail = project === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example';
  const { email } = await verifiedIndividual(request, 'Akua', `Darko${letters(5)}`);
  await logInThroughUi(page, email, PASSWORD);
  await fundWallet(page, request, staffEmail, '100.00');
  const { token } = await sessionOf(page);
  const made = await request.post('/api/v1/cards', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      first_name: 'Akua',
      last_name: 'Darko',
      nickname: 'Groceries',
      type: 'premium',
      purpose: 'media',
      card_amount: '20.00',
      // issue 32: the limit is checked before the balance; above the 20.00 loaded, so Melcom's 22.00 is short of funds
      spending_limit: '25.00',
      spending_control: 'day',
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const cardId = (await made.json()).data.card.id as string;

  // The sandbox issuer brings three payments, as a merchant's terminal would.
  const staff = await staffToken(request, staffEmail);
  const pay = async (amount: string, merchant: string) => {
    const res = await request.post('/api/v1/sandbox/authorizations', {
      headers: { authorization: `Bearer ${staff}` },
      data: { card_id: cardId, amount, merchant, mcc: '5411', country: 'GH', currency: 'USD' },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).data as { approved: boolean; decline_reason: string | null };
  };
  expect(await pay('22.00', 'Melcom')).toMatchObject({
    approved: false,
    decline_reason: 'Insufficient funds on the card.',
  });
  expect(await pay('10.00', 'Shoprite')).toMatchObject({ approved: true });
  expect((await pay('16.00', 'Koala')).approved).toBe(false);

  await openScreen(page, 'Prepaid Cards');
  await rowOf(page, 'Groceries').click();
  await expect(page.getByRole('heading', { name: 'Groceries', exact: true })).toBeVisible();
  const melcom = rowOf(page, 'Melcom').filter({ hasText: 'Declined' });
  await expect(melcom.getByTestId('decline-reason')).toHaveText(/Insufficient funds on the card\./);
  const koala = rowOf(page, 'Koala').filter({ hasText: 'Declined' });
  await expect(koala.getByTestId('decline-reason')).toContainText(
    "This payment would go over the card's spending limit of USD 25.00 per day.",
  );
  await expect(rowOf(page, 'Shoprite').filter({ hasText: 'Declined' })).toHaveCount(0);
  await expect(rowOf(page, 'Shoprite')).toContainText('10.00');
  // 20.00 loaded, 10.00 held for Shoprite's payment.
  await expect(page.getByTestId('card-balance')).toHaveText('10.00');
  await snap(page, 'declines-new-card', project);
  await koala.click();
  await expect(drawer(page).getByText('Decline Reason')).toBeVisible();
  await expect(
    drawer(page).getByText("This payment would go over the card's spending limit of USD 25.00 per day."),
  ).toBeVisible();
  await drawer(page).getByRole('button', { name: 'Close' }).click();
});
