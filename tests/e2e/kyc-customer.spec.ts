import { type Browser, type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedCompany, verifiedIndividual } from './support/accounts';
import {
  FIELD_ERROR,
  isPhone,
  logInThroughUi,
  openFromMenu,
  PASSWORD,
  snap as snapNow,
  uniqueEmail,
  visit,
} from './support/flows';
import { signedInAs } from './support/session';
import { waitForLink } from './support/mail';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const UNVERIFIED = 'Complete KYC form in order to create unlimited cards and access your API setttings';
const PENDING = 'KYC verification submitted pending approval';
const PREFIX = 'An error occurred. Please try again. - ';
const AMA_REASON = 'The utility bill is older than three months. Please upload a recent one.';

// Small real documents, and one fake: text with a .png name.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: PDF });
const fakePng = {
  name: 'not-really.png',
  mimeType: 'image/png',
  buffer: Buffer.from('This is a text file pretending to be a PNG.\n'),
};
const tooBig = {
  name: 'huge-scan.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5 * 1024 * 1024)]),
};

/** From the top, so the sticky top bar is where a person sees it in the full-page shot. */
async function snap(page: Page, name: string, project: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snapNow(page, `kyc-${name}`, project);
}

/** The form item of a field (by its name, which antd uses as the control's id). */
const item = (page: Page, field: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator(`label[for="${field}"]`) });
// (antd keeps a leaving message in the DOM while it fades out)
const fieldError = (page: Page, field: string) => item(page, field).locator(FIELD_ERROR);
const fileInput = (page: Page, field: string) => page.locator(`input[type=file]#${field}`);

async function topBarEntries(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await expect(menu.getByRole('menuitem', { name: 'Home' })).toBeVisible();
  const labels = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  return labels.map((l) => l.trim());
}

async function openFromTopBar(page: Page) {
  await openFromMenu(page, 'KYC Verification', /\/portal\/kycverifications$/, 'account');
}

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

test('an individual submits KYC with two documents and sees it pending', async ({ page, request }, info) => {
  const project = info.project.name;
  const { email } = await verifiedIndividual(request, 'Abena', 'Sarpong');
  await logInThroughUi(page, email, PASSWORD);
  await expect(page.getByText('Finish your account setup')).toBeVisible();
  await expect(page.getByText(UNVERIFIED)).toBeVisible();
  expect(await topBarEntries(page)).toContain('KYC Verification');
  await snap(page, 'dashboard-unverified', project);

  await page.getByRole('button', { name: 'Set Up' }).click();
  await expect(page).toHaveURL(/\/portal\/kycverifications$/);
  await expect(page.getByRole('heading', { name: 'KYC Verification' })).toBeVisible();
  await expect(item(page, 'id_type')).toContainText('National ID');

  // Everything the form requires, said on its field.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(fieldError(page, 'issued_id')).toHaveText('Issued id details is required');
  await expect(fieldError(page, 'address_proof')).toHaveText('Address proof is required');
  await expect(fieldError(page, 'selfie_image')).toHaveText('Selfie with Id is required');
  await snap(page, 'form-errors', project);

  // A file over 5 MB is refused before it is sent.
  await fileInput(page, 'address_proof').setInputFiles(tooBig);
  await expect(fieldError(page, 'address_proof')).toHaveText('The file is larger than 5 MB');

  await item(page, 'id_type').locator('.ant-select-selector').click();
  await page.getByTitle('Passport').click();
  await page.getByLabel('Issued id details').fill('G1234567');
  await fileInput(page, 'address_proof').setInputFiles(pdf('utility-bill.pdf'));
  await fileInput(page, 'selfie_image').setInputFiles(png('selfie.png'));
  await expect(fieldError(page, 'address_proof')).toHaveCount(0);
  await expect(item(page, 'address_proof')).toContainText('utility-bill.pdf');
  await expect(item(page, 'address_proof')).toContainText(`${PDF.length} B`);
  await expect(item(page, 'selfie_image')).toContainText('selfie.png');
  await expect(item(page, 'selfie_image')).toContainText(`${PNG.length} B`);
  await snap(page, 'form-filled', project);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('KYC submitted. We will review it and let you know by email.')).toBeVisible();
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByText(PENDING)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set Up' })).toHaveCount(0);
  await snap(page, 'dashboard-pending', project);

  // Still not Verified, so the top bar entry stays and leads to the pending screen.
  await openFromTopBar(page);
  await expect(page.locator('.ant-result-title', { hasText: PENDING })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await snap(page, 'pending', project);
  const state = await page.evaluate(() => JSON.parse(localStorage.getItem('cw.auth')!).user.state);
  expect(state).toBe('pending');
});

test('a company admin submits KYB; their Company-User is told the admin does it', async ({
  page,
  request,
  browser,
}, info) => {
  const project = info.project.name;
  const { email } = await verifiedCompany(request);
  await logInThroughUi(page, email, PASSWORD);
  await expect(page.getByText(UNVERIFIED)).toBeVisible();

  // A teammate with role user, invited and accepted through the API.
  const member = uniqueEmail('kybuser');
  const invited = await page.evaluate(async (who) => {
    const s = JSON.parse(localStorage.getItem('cw.auth')!);
    const res = await fetch(`/api/v1/company/users/${s.company.id}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${atob(s.token)}`,
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({
        first_name: 'Esi',
        last_name: 'Quaye',
        phone_number: '+233245550101',
        email: who,
        role: 'user',
      }),
    });
    return res.status;
  }, member);
  expect(invited).toBe(201);
  const link = new URL(await waitForLink(member, '/onboarding/invited'));
  const identity = JSON.parse(Buffer.from(link.searchParams.get('identity')!, 'base64').toString('utf8')) as {
    token: string;
  };
  const accepted = await request.post('/api/v1/account/accept-invite', {
    data: {
      first_name: 'Esi',
      last_name: 'Quaye',
      password: PASSWORD,
      token: identity.token,
      phone_number: '+233245550101',
    },
  });
  expect(accepted.status()).toBe(200);
  const teammate = await otherBrowser(browser, page);
  await logInThroughUi(teammate.page, member, PASSWORD);
  await visit(teammate.page, '/portal/kycverifications');
  await expect(teammate.page.getByText('Your company admin completes the KYB')).toBeVisible();
  await expect(teammate.page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await snap(teammate.page, 'company-user', project);

  await openFromTopBar(page);
  await expect(page.getByRole('heading', { name: 'KYB Verification' })).toBeVisible();
  await expect(page.getByLabel('Registered Business name')).toHaveValue('Cape Coast Ventures');
  await page.getByLabel('Registered Business name').fill('');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(fieldError(page, 'registered_name')).toHaveText('Registered Business name is required');
  await expect(fieldError(page, 'company_profile')).toHaveText('Company profile is required');
  await expect(fieldError(page, 'tax_number')).toHaveText('Company Tax ID is required');
  await expect(fieldError(page, 'incorporation_date')).toHaveText('Company Incorporation Date is required');
  await expect(fieldError(page, 'shareholder_passport')).toHaveText('Shareholder passport is required');
  await expect(fieldError(page, 'license')).toHaveCount(0);
  await expect(fieldError(page, 'incorporation_certificate')).toHaveCount(0);
  await snap(page, 'kyb-errors', project);

  await page.getByLabel('Registered Business name').fill('Cape Coast Ventures Limited');
  await page.getByLabel('Company Tax ID').fill('C0012345678');
  await page.getByLabel('Company profile').fill('Import and distribution of solar equipment across Ghana and Togo.');
  const date = page.getByLabel('Company Incorporation Date');
  await date.click();
  await date.fill('2016-03-14');
  await date.press('Enter');
  await expect(date).toHaveValue('2016-03-14');
  await page.getByLabel('Countries of operation').fill('GH, TG');
  await page.getByLabel('Publicly listed').click();
  await fileInput(page, 'shareholder_passport').setInputFiles(png('passport.png'));
  await fileInput(page, 'incorporation_certificate').setInputFiles(pdf('certificate.pdf'));
  await expect(item(page, 'shareholder_passport')).toContainText('passport.png');
  await expect(item(page, 'incorporation_certificate')).toContainText('certificate.pdf');
  await snap(page, 'kyb-filled', project);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('KYB submitted. We will review it and let you know by email.')).toBeVisible();
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByText(PENDING)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set Up' })).toHaveCount(0);
  await snap(page, 'kyb-dashboard-pending', project);

  // The teammate sees the company's verification pending too.
  await teammate.page.reload();
  await expect(teammate.page.locator('.ant-result-title', { hasText: PENDING })).toBeVisible();
  await teammate.context.close();
});

test('a rejected customer sees why, and a fake image is refused on its field', async ({ page }, info) => {
  const project = info.project.name;
  // (logInThroughUi takes one login at a time per account: the demo accounts are shared)
  await signedInAs(page, 'ama@example.com');
  await expect(page.getByText(UNVERIFIED)).toBeVisible();
  await expect(page.getByTestId('banner-rejection')).toContainText(AMA_REASON);
  await snap(page, 'dashboard-rejected', project);

  if (isPhone(page)) await openFromTopBar(page);
  else await page.getByRole('button', { name: 'Set Up' }).click();
  await expect(page.getByText('Your last verification was rejected', { exact: false })).toBeVisible();
  await expect(page.getByTestId('rejection-reason')).toHaveText(AMA_REASON);

  await page.getByLabel('Issued id details').fill('GHA-700000020-1');
  await fileInput(page, 'address_proof').setInputFiles(fakePng);
  await fileInput(page, 'selfie_image').setInputFiles(png('selfie-with-id.png'));
  await page.getByRole('button', { name: 'Submit' }).click();
  // Said once, under the file it is about: no toast repeating it.
  await expect(fieldError(page, 'address_proof')).toHaveText('Upload a JPEG, PNG or PDF file');
  await expect(page.getByText(`${PREFIX}Upload a JPEG, PNG or PDF file`)).toHaveCount(0);
  await expect(fieldError(page, 'selfie_image')).toHaveCount(0);
  await snap(page, 'bad-file', project);

  // Choosing another file clears the server's error; nothing was submitted.
  await fileInput(page, 'address_proof').setInputFiles(pdf('utility-bill-recent.pdf'));
  await expect(fieldError(page, 'address_proof')).toHaveCount(0);
  const state = await page.evaluate(() => JSON.parse(localStorage.getItem('cw.auth')!).user.state);
  expect(state).toBe('Unverified');
});

test('a verified company admin has nothing to submit and no KYC entry', async ({ page }, info) => {
  const project = info.project.name;
  await signedInAs(page, 'kofi@acme.example.com');
  await expect(page.getByText(/Good (morning|afternoon|evening), Kofi/)).toBeVisible();
  await expect(page.getByText('Finish your account setup')).toHaveCount(0);
  expect(await topBarEntries(page)).not.toContain('KYC Verification');
  await page.goto('/portal/kycverifications');
  await expect(page.getByText('Your company account is verified')).toBeVisible();
  await snap(page, 'verified', project);
});
