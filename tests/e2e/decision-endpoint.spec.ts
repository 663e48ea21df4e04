import { type Locator, type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedCompany } from './support/accounts';
import { FIELD_ERROR, logInThroughUi, openFromMenu, PASSWORD, snap as snapNow } from './support/flows';
import { approveKyb, sessionOf } from './support/integrations';
import { sessionFor } from './support/session';

/**
 * Authorisation decisions (issue 32): a Company-Admin sets the endpoint that decides the company's card payments on
 * the API Settings screen, sees its signing secret, and removes it. Each project makes its own company (KYB approved
 * and credentials generated through the API), so neither touches the demo company's credentials.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const snap = (page: Page, name: string, project: string) => snapNow(page, `decision-${name}`, project);
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${name}$`) });
const decisionCard = (page: Page) => page.locator('.ant-card', { has: page.getByText('Authorisation decisions') });

test('a Company-Admin sets the authorisation decision endpoint, sees its secret, and removes it', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const { email } = await verifiedCompany(request);
  await logInThroughUi(page, email, PASSWORD);
  const staff = await sessionFor(request, 'admin@cardwallet.example');
  await approveKyb(request, page, staff.access_token);
  const { token, companyId } = await sessionOf(page);
  const generated = await request.post('/api/v1/third-party/clients', {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': crypto.randomUUID() },
    data: { name: 'Cape Coast Ventures', redirect_uri: null, identifier: companyId },
  });
  expect(generated.status(), await generated.text()).toBe(201);

  await page.goto('/portal');
  await openFromMenu(page, 'API Settings', /\/portal\/apisettings$/);
  const card = decisionCard(page);
  await expect(card).toBeVisible();
  await expect(card.getByText('Not set')).toBeVisible();
  await expect(card.getByText("Decide your cards' payments yourself.", { exact: false })).toBeVisible();
  await expect(button(card, 'Remove')).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'empty', project);

  // Bad input is said under its field, as the server would say it.
  const url = card.getByLabel('Decision URL', { exact: true });
  const timeout = card.getByLabel('Timeout (ms)', { exact: true });
  await url.fill('not a url');
  await timeout.fill('');
  await button(card, 'Save').click();
  await expect(
    card.locator(FIELD_ERROR).filter({ hasText: 'Enter a full URL such as https://example.com/decide' }),
  ).toBeVisible();
  await expect(card.locator(FIELD_ERROR).filter({ hasText: /Timeout must be a whole number/ })).toBeVisible();

  await url.fill('https://93.184.216.34/cardwallet/decide');
  await timeout.fill('750');
  await card.getByText('Approve', { exact: true }).click();
  await button(card, 'Save').click();
  await expect(toast(page, 'Decision endpoint saved')).toBeVisible();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await expect(card.getByRole('textbox', { name: 'Decision Signing Secret' })).toHaveValue(/^whsec_•+$/);
  await snap(page, 'saved', project);

  // What was saved is what the server keeps.
  await page.reload();
  const again = decisionCard(page);
  await expect(again.getByLabel('Decision URL', { exact: true })).toHaveValue(
    'https://93.184.216.34/cardwallet/decide',
  );
  await expect(again.getByLabel('Timeout (ms)', { exact: true })).toHaveValue('750');
  await expect(again.getByRole('radio', { name: 'Approve' })).toBeChecked();
  const read = await request.get('/api/v1/third-party/authorization-decision', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await read.json()).data).toMatchObject({
    url: 'https://93.184.216.34/cardwallet/decide',
    timeout_ms: 750,
    on_timeout: 'approve',
  });

  await button(again, 'Remove').click();
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog.locator('.ant-modal-confirm-title')).toHaveText('Remove the decision endpoint');
  await snap(page, 'remove-confirm', project);
  await button(dialog, 'Remove').click();
  await expect(toast(page, 'Authorisation decision endpoint removed')).toBeVisible();
  await expect(again.getByText('Not set')).toBeVisible();
  await expect(button(again, 'Remove')).toHaveCount(0);
  await expect(again.getByRole('textbox', { name: 'Decision Signing Secret' })).toHaveCount(0);
  const gone = await request.get('/api/v1/third-party/authorization-decision', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await gone.json()).data).toBeNull();
});
