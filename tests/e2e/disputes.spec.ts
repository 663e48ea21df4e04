import { expect, test } from '@playwright/test';
import { drawer, letters, rowOf, staffToken } from './support/cards';
import { PDF_RECEIPT } from './support/disputes';
import { motionless, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Issue 36, "Done when": a customer disputes a cleared payment with a receipt from the payment's
 * details, staff send the dispute to the card issuer on the back-office, the sandbox issuer decides
 * it won, and the customer sees the outcome and the credit.
 */
test('a customer disputes a payment with a receipt and sees the outcome', async ({ page, browser, request }, info) => {
  test.setTimeout(300_000);
  const project = info.project.name;
  const staffEmail = 'admin@cardwallet.example';
  const token = await staffToken(request, staffEmail);
  const staff = { authorization: `Bearer ${token}` };
  const merchant = `Kumasi Gadgets ${letters(4)}`;
  const c = await customerWithCards(request, token, `Disp${letters(6)}`);
  // A merchant charges the Visa 25.00 and clears it.
  const paid = await request.post('/api/v1/sandbox/authorizations', {
    headers: staff,
    data: { card_id: c.visa.id, amount: '25.00', merchant, mcc: '5732', country: 'GH', currency: 'USD' },
  });
  expect(paid.status(), await paid.text()).toBe(201);
  const payment = (await paid.json()).data.transaction.id as string;
  const settled = await request.post(`/api/v1/sandbox/authorizations/${payment}/settle`, { headers: staff });
  expect(settled.status(), await settled.text()).toBe(200);

  let disputeId = '';
  await test.step('the customer opens the payment on the card and disputes it with a receipt', async () => {
    await signedInAs(page, c.email, c.password);
    await visit(page, `/portal/prepaid-cards/${c.visa.id}`);
    const row = rowOf(page, `Payment at ${merchant}`);
    await expect(row).toBeVisible();
    await row.click({ position: { x: 24, y: 16 } });
    const d = drawer(page);
    await expect(d.getByText('Transaction Details')).toBeVisible();
    await d.getByRole('button', { name: 'Dispute' }).click();
    const form = page.getByRole('dialog', { name: 'Dispute this payment' });
    await expect(form).toBeVisible();
    await motionless(page);
    await form.getByLabel('Reason').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('Not as described').click();
    await expect(form.getByLabel('Amount (USD)')).toHaveValue('25.00');
    await form.getByLabel('What happened').fill('The headphones arrived broken and the shop does not answer.');
    await form.locator('input[type="file"]').setInputFiles({
      name: 'receipt.pdf',
      mimeType: 'application/pdf',
      buffer: PDF_RECEIPT,
    });
    await expect(form.getByText('receipt.pdf')).toBeVisible();
    await snap(page, 'dispute-form', project);
    const answer = page.waitForResponse((r) => r.url().includes(`/card-transactions/${payment}/disputes`));
    await form.getByRole('button', { name: 'Send dispute' }).click();
    const res = await answer;
    expect(res.status(), await res.text()).toBe(201);
    disputeId = (await res.json()).data.id;
    await expect(form).toBeHidden();
    await expect(d.getByTestId('payment-disputes').getByText('Submitted')).toBeVisible();
    await expect(d.getByRole('button', { name: 'Dispute' })).toBeHidden();
    await snap(page, 'dispute-on-payment', project);
  });

  await test.step('staff send it to the issuer and the sandbox issuer decides it won', async () => {
    const ctx = await browser.newContext({ baseURL: info.project.use.baseURL, viewport: page.viewportSize() });
    const admin = await ctx.newPage();
    try {
      await signedInAs(admin, staffEmail);
      await visit(admin, '/admin/disputes');
      await expect(rowOf(admin, merchant)).toBeVisible();
      await snap(admin, 'disputes-admin-list', project);
      await rowOf(admin, merchant).click({ position: { x: 24, y: 16 } });
      await expect(admin.getByRole('heading', { name: 'Dispute', exact: true })).toBeVisible();
      await expect(admin.getByRole('button', { name: /receipt\.pdf/ })).toBeVisible();
      await admin.getByRole('button', { name: 'Submit to issuer' }).click();
      await admin.locator('.ant-popconfirm').getByRole('button', { name: 'Send' }).click();
      await expect(admin.getByTestId('dispute-state').first()).toHaveText('Under review');
      await snap(admin, 'dispute-admin-under-review', project);
      await admin.getByRole('button', { name: 'Resolve as won (sandbox)' }).click();
      await expect(admin.getByTestId('dispute-state').first()).toHaveText('Won');
      await snap(admin, 'dispute-admin-won', project);
    } finally {
      await ctx.close();
    }
  });

  await test.step('the customer sees the outcome under Card Disputes', async () => {
    await visit(page, '/portal/disputes');
    await expect(page.getByRole('heading', { name: 'Card Disputes' })).toBeVisible();
    const row = rowOf(page, merchant);
    await expect(row.getByText('Won')).toBeVisible();
    await snap(page, 'disputes-customer-list', project);
    await row.click({ position: { x: 24, y: 16 } });
    await expect(page).toHaveURL(new RegExp(`/portal/disputes/${disputeId}$`));
    await expect(page.getByTestId('dispute-outcome')).toHaveText('You won: USD 25.00 is on the card.');
    for (const step of ['Submitted', 'Under review', 'Won'])
      await expect(page.locator('.ant-timeline').getByText(step, { exact: true })).toBeVisible();
    await expect(page.locator('.ant-timeline').getByText('Support team')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Withdraw' })).toBeHidden();
    await snap(page, 'dispute-customer-won', project);
  });
});
