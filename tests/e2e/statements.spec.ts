import { randomBytes } from 'node:crypto';
import { type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { staffToken } from './support/cards';
import { PASSWORD, isPhone, snap as snapNow, visit } from './support/flows';
import { sessionFor, signedInAs } from './support/session';

/**
 * Statement matching (issue 36): a customer's USDT deposit reaches the ledger through the chain
 * watcher; Finance uploads a TronGrid export with that transfer and one the ledger never saw, sees
 * the first matched and the second missing on our side, and resolves it with a note.
 */

const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const FINANCE = 'finance@cardwallet.example';
const snap = (page: Page, name: string, project: string) => snapNow(page, `statements-${name}`, project);
const hex64 = () => randomBytes(32).toString('hex');

test('Finance uploads a TronGrid export, sees what matched and resolves a line missing from our ledger', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const finance = await staffToken(request, FINANCE);

  // Real ledger data: USDT sent on the sandbox chain to a customer's own address, credited by the watcher.
  const { email } = await verifiedIndividual(request, 'Ama', 'Statement');
  const customer = await sessionFor(request, email, PASSWORD);
  const wallet = customer.user.wallet_id as string;
  const auth = { authorization: `Bearer ${customer.access_token}` };
  const address = (await (await request.get(`/api/v1/wallet/deposit-address/${wallet}`, { headers: auth })).json()).data
    .address as string;
  const sent = await request.post('/api/v1/sandbox/chain/transfers', {
    headers: { authorization: `Bearer ${finance}` },
    data: { to: address, amount: '12.00' },
  });
  baseExpect(sent.status(), await sent.text()).toBe(201);
  const hash = (await sent.json()).data.hash as string;
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/v1/wallet/account-balance/${wallet}`, { headers: auth })).json()).data,
    )
    .not.toBe('0.00');

  const unknown = hex64();
  const now = Date.now();
  const csv = [
    'transaction_id,block_timestamp,from,to,value',
    `${hash},${now},TSender,${address},12000000`,
    `${unknown},${now},TSender,${address},3500000`,
  ].join('\n');

  await signedInAs(page, FINANCE);
  await visit(page, '/admin/statements');
  await expect(page.getByRole('heading', { name: 'Statement Matching' })).toBeVisible();
  await page.locator('input[type="file"]').setInputFiles({
    name: `trongrid-${project}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(page.getByText(`trongrid-${project}.csv`)).toBeVisible();
  await snap(page, 'upload', project);
  await page.getByRole('button', { name: 'Upload and match' }).click();
  await expect(page).toHaveURL(/\/admin\/statements\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('tab', { name: 'Missing on our side (1)' })).toBeVisible();

  const row = isPhone(page)
    ? page.locator('.ant-list-item', { hasText: '3.50' })
    : page.locator('tbody tr', { hasText: unknown.slice(0, 12) });
  await expect(row).toContainText('Not in our ledger');
  await snap(page, 'result', project);

  await row.getByRole('button', { name: 'Resolve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve item' });
  await dialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(dialog.getByText('Note is required')).toBeVisible();
  await dialog.getByLabel('Note').fill('Sent to the wrong address by the customer; returned on chain.');
  await snap(page, 'resolve', project);
  await dialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.locator('.ant-message').getByText('Resolved.')).toBeVisible();
  await expect(row).toContainText('Sent to the wrong address by the customer');
  await expect(row).toContainText(FINANCE);

  await page.getByRole('tab', { name: /^Matched/ }).click();
  const matched = isPhone(page)
    ? page.locator('.ant-list-item', { hasText: '12.00' })
    : page.locator('tbody tr', { hasText: hash.slice(0, 12) });
  await expect(matched.first()).toBeVisible();
  await snap(page, 'matched', project);

  // The mappings screen: the chain's built-in columns, as Finance may change them.
  await page.getByRole('button', { name: 'All statements' }).click();
  await page.getByRole('button', { name: 'Column mappings' }).click();
  await expect(page.getByRole('heading', { name: 'Column Mappings' })).toBeVisible();
  await expect(page.getByLabel('Date column')).toHaveValue('block_timestamp');
  await snap(page, 'mappings', project);
});
