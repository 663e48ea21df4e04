import { readFileSync } from 'node:fs';
import { type Page, expect as baseExpect, test } from '@playwright/test';
import { pdfText } from '../support/pdf-text';
import { verifiedIndividual } from './support/accounts';
import { balanceCents, centsOf, day, fundWallet, letters, pickRange, sessionOf } from './support/cards';
import { PASSWORD, isPhone, logInThroughUi, openFromMenu, snap, visit } from './support/flows';
import { signedInAs } from './support/session';
import { customerWithCards } from './support/staff-cards';

/**
 * Wallet statements (issue 14): on Wallet Transactions a person picks a date range and downloads
 * the wallet's PDF statement; the file is read back and its holder and balances checked against
 * the API's balance. A customer on their own wallet; staff on one account's Wallet Transactions.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const STAFF = 'admin@cardwallet.example';

/** Clicks Download statement and answers the saved file's name and text. */
async function downloadStatement(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download statement' }).click(),
  ]);
  const file = await download.path();
  const bytes = readFileSync(file!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return { name: download.suggestedFilename(), pdf: await pdfText(bytes) };
}

const valueBeside = (lines: string[][], label: RegExp) => lines.find((l) => label.test(l[0] ?? ''))?.[1];

test('a customer downloads the statement of their wallet for the days they pick', async ({ page, request }, info) => {
  const project = info.project.name;
  const last = `Statement${letters(5)}`;
  const { email } = await verifiedIndividual(request, 'Efua', last);
  await logInThroughUi(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  await fundWallet(page, request, STAFF, '250.00');
  const balance = await balanceCents(page, request);
  expect(balance).toBe(24_875); // 250.00 less the 0.5 % Tron fee

  await openFromMenu(page, isPhone(page) ? 'Reports' : 'Wallet Transactions', /\/portal\/wallet-transactions$/);
  await expect(page.getByRole('heading', { name: 'Wallet Transactions' })).toBeVisible();
  // The screen opens on the last 30 days (issue 31); the statement covers the days picked.
  await expect(page.getByText('1 transaction', { exact: false })).toBeVisible();
  await pickRange(page, day(-1), day(0));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('1 transaction', { exact: false })).toBeVisible();
  await snap(page, 'statement-customer-wallet-transactions', project);

  const { name, pdf } = await downloadStatement(page);
  expect(name).toBe(`wallet-statement-${day(-1)}-to-${day(0)}.pdf`);
  expect(pdf.lines).toContainEqual(['Account holder', `Efua ${last} (Individual)`]);
  expect(pdf.lines).toContainEqual(['Wallet ID', (await sessionOf(page)).wallet]);
  expect(valueBeside(pdf.lines, /^Opening balance at /)).toBe('USDT 0.00');
  expect(centsOf(valueBeside(pdf.lines, /^Closing balance/)!)).toBe(balance);
  const movements = pdf.lines.filter((l) => /^[A-Z]{3}-[0-9A-Z]{10}$/.test(l[1] ?? ''));
  expect(movements.map((l) => [l[2], l[3], l[4], l[5]])).toEqual([['Wallet Top Up', '1.25', '+248.75', '248.75']]);
});

test('staff download the statement of one account from its Wallet Transactions', async ({ page, request }, info) => {
  const project = info.project.name;
  await signedInAs(page, project === 'desktop' ? 'super@cardwallet.example' : STAFF);
  await expect(page).toHaveURL(/\/admin$/);
  const { token } = await sessionOf(page);
  const c = await customerWithCards(request, token, `Stm${letters(6)}`);

  // Over every wallet there is no one statement to offer.
  await visit(page, '/admin/wallet-transactions');
  await expect(page.getByRole('heading', { name: 'Wallet Transactions' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download statement' })).toHaveCount(0);

  // From one account's Wallet Transactions for Cards (where the customer lists lead) to all its movements.
  await visit(page, `/admin/card-transfers?individual_id=${c.id}&acc_name=${encodeURIComponent(c.name)}`);
  await expect(page.getByRole('heading', { name: `${c.name} - Wallet Transactions for Cards` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Wallet statement' })).toBeVisible();
  await snap(page, 'statement-admin-card-transfers', project);
  await page.getByRole('button', { name: 'Wallet statement' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/wallet-transactions\\?individual_id=${c.id}&acc_name=`));
  await expect(page.getByRole('heading', { name: `${c.name} - Wallet Transactions` })).toBeVisible();
  await pickRange(page, day(-1), day(1));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('4 transactions')).toBeVisible();
  await snap(page, 'statement-admin-wallet-transactions', project);

  const { name, pdf } = await downloadStatement(page);
  expect(name).toBe(`wallet-statement-${day(-1)}-to-${day(1)}.pdf`);
  expect(pdf.lines).toContainEqual(['Account holder', `${c.name} (Individual)`]);
  const res = await request.get(`/api/v1/wallet/account-balance/${c.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const balance = centsOf((await res.json()).data);
  expect(valueBeside(pdf.lines, /^Opening balance at /)).toBe('USDT 0.00');
  expect(centsOf(valueBeside(pdf.lines, /^Closing balance/)!)).toBe(balance);
  // the approved top-up, two card issuances and a card top-up, oldest first, ending at the balance
  const movements = pdf.lines.filter((l) => /^[A-Z]{3}-[0-9A-Z]{10}$/.test(l[1] ?? ''));
  expect(movements.map((l) => l[2])).toEqual(['Wallet Top Up', 'Card Issuance', 'Card Issuance', 'Card Top Up']);
  expect(centsOf(movements.at(-1)![5]!)).toBe(balance);
});
