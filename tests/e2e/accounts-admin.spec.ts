import {
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
  expect as baseExpect,
  test,
} from '@playwright/test';
import dayjs from 'dayjs';
import { verifiedIndividual } from './support/accounts';
import {
  chooseOption,
  FIELD_ERROR,
  fillPhone,
  isPhone,
  logInThroughUi,
  openDropdown,
  PASSWORD,
  snap as snapNow,
  uniqueEmail,
} from './support/flows';
import { signedInAs } from './support/session';
import { samplePdf, samplePng } from '../../server/seed/documents';
import { waitForLink } from './support/mail';
import { freshCode, rememberSecret } from './support/totp';

/**
 * Back-office verification, customer and administrator journeys. Desktop runs as the Super-Admin
 * and approves Kojo's seeded KYC; phone runs as the Admin on a KYC it submits itself, so the two
 * projects never decide the same submission. Each project rejects, then approves, the KYB of a
 * company it registers; deactivates and reactivates its own customers; and (as the Super-Admin)
 * adds an admin who sets a password from the mail and logs in; the audit trail shows it all.
 */

// Generous waits: the journeys are long and the machine is shared.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'serial', timeout: 900_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const SUPER = 'super@cardwallet.example';
const ADMIN = 'admin@cardwallet.example';
// Small real documents, drawn as the demo's are.
const PNG = samplePng([180, 83, 9]);
const PDF = samplePdf('Ghana Commercial Bank - Statement', [
  'Account holder: Esi Quaye',
  'Address: 4 Ring Road East, Accra',
  'Period: last three months',
]);
const letters = (n: number) =>
  Array.from({ length: n }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const snap = (page: Page, name: string, project: string) => snapNow(page, `acct-${name}`, project);
const rows = (page: Page) =>
  isPhone(page) ? page.locator('.ant-list-item') : page.locator('.ant-table-tbody tr.ant-table-row');
const drawer = (page: Page) => page.locator('.ant-drawer-open .ant-drawer-content');
const dialog = (page: Page) => page.locator('.ant-modal-wrap:not([style*="display: none"]) .ant-modal-content');
/** The title of the open confirmation (antd also keeps a hidden dialog title). */
const confirmTitle = (page: Page) => dialog(page).locator('.ant-modal-confirm-title');
const openRow = (row: Locator) => row.click({ position: { x: 24, y: 16 } });
/** A Descriptions row's value by its label. */
const field = (scope: Locator | Page, label: string) =>
  scope.locator('tr', { has: scope.locator('th', { hasText: new RegExp(`^${label}$`) }) }).locator('td');

async function openMenu(page: Page, entry: string, group?: string) {
  if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  const scope = group ? nav.locator('li.ant-menu-submenu', { hasText: group }) : nav;
  await scope.getByRole('link', { name: entry, exact: true }).click();
}

async function filter(
  page: Page,
  values: {
    State?: string;
    Name?: string;
    'Start Date'?: string;
    'End Date'?: string;
    Actor?: string;
    Action?: string;
  },
) {
  const form = page.getByRole('form', { name: 'Filters' });
  if (isPhone(page)) {
    // The phone folds the filters; the screen may still be replacing the previous one.
    await expect(async () => {
      if (!(await form.isVisible())) await page.getByRole('button', { name: 'Filters' }).click({ timeout: 2_000 });
      await expect(form.getByRole('button', { name: 'Reset' })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }
  await form.getByRole('button', { name: 'Reset' }).click();
  // The Action field suggests as one types: filled last, so its suggestions cover nothing still to fill.
  const entries = Object.entries(values).sort(([a], [b]) => Number(a === 'Action') - Number(b === 'Action'));
  for (const [label, value] of entries) {
    const input = form.getByLabel(label, { exact: true });
    if (label === 'State') {
      await chooseOption(page, input, value!);
    } else if (label.endsWith('Date')) {
      await input.click();
      await input.fill(value!);
      await input.press('Enter');
    } else {
      await input.fill(value!);
      if (label === 'Action') {
        const suggestions = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
        // Away from the field, late suggestions cannot open again.
        await input.blur();
        await expect(async () => {
          await page.keyboard.press('Escape');
          await expect(suggestions).toHaveCount(0, { timeout: 1_000 });
        }).toPass({ timeout: 10_000 });
      }
    }
  }
  await form.getByRole('button', { name: 'Search' }).click();
}

/** A customer's API session (2FA set up from the answered key). */
async function apiSession(request: APIRequestContext, email: string, password = PASSWORD) {
  const login = await request.post('/api/v1/account/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const challenge = (await login.json()).data as { token: string; qrcode?: string; secret?: string };
  if (challenge.secret) rememberSecret(email, challenge.secret);
  const code = await freshCode(email);
  const confirm = await request.post(
    challenge.qrcode ? '/api/v1/account/auth-confirm' : '/api/v1/account/login-confirm',
    { data: { token: challenge.token, code } },
  );
  expect(confirm.status(), await confirm.text()).toBe(200);
  const d = (await confirm.json()).data as {
    access_token: string;
    user: { id: string };
    company: { id: string } | null;
  };
  return {
    token: d.access_token,
    userId: d.user.id,
    companyId: d.company?.id ?? '',
    auth: { authorization: `Bearer ${d.access_token}` },
  };
}

async function registerCompany(request: APIRequestContext, companyName: string) {
  const email = uniqueEmail('kyb');
  const res = await request.post('/api/v1/account/companies/register', {
    data: {
      first_name: 'Akua',
      last_name: 'Donkor',
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      company_name: companyName,
      company_website: 'volta.example.com',
      company_email: `accounts.${email}`,
      company_phone: '+233302555444',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await request.get(await waitForLink(email, '/verify-email'), { maxRedirects: 0 });
  return email;
}

async function submitKyb(
  request: APIRequestContext,
  s: { companyId: string; auth: Record<string, string> },
  companyName: string,
) {
  const res = await request.post(`/api/v1/company/kyb/${s.companyId}`, {
    headers: s.auth,
    multipart: {
      registered_name: companyName,
      company_profile: 'Cold storage and distribution of fresh produce.',
      tax_number: 'C0098765432',
      incorporation_date: '2018-03-14',
      operation_countries: 'GH, TG',
      publicly_listed: 'false',
      shareholder_passport: { name: 'shareholder-passport.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function submitKyc(request: APIRequestContext, s: { userId: string; auth: Record<string, string> }) {
  const res = await request.post(`/api/v1/individuals/kyc/${s.userId}`, {
    headers: s.auth,
    multipart: {
      id_type: 'passport',
      issued_id: 'G2345678',
      address_proof: { name: 'bank-statement.pdf', mimeType: 'application/pdf', buffer: PDF },
      selfie_image: { name: 'selfie.png', mimeType: 'image/png', buffer: PNG },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** The documents of the open submission: images inline and PDFs in the page, from blob URLs. */
async function expectDocuments(page: Page, images: string[], pdfs: string[]) {
  for (const f of images) {
    const img = page.getByTestId(`document-${f}`).locator('img');
    await expect(img).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  }
  for (const f of pdfs)
    await expect(page.getByTestId(`document-${f}`).locator('iframe')).toHaveAttribute('src', /^blob:/);
}

/** The page's Approve / Disapprove (their names start with the icon's). */
const decisionButton = (page: Page, action: 'Approve' | 'Disapprove') =>
  page.getByRole('button', { name: new RegExp(`(^|\\s)${action}$`) });

async function decide(page: Page, action: 'Approve' | 'Disapprove', prompt: string, reason?: string) {
  await decisionButton(page, action).click();
  const d = dialog(page);
  await expect(d.getByText(prompt, { exact: true })).toBeVisible();
  if (reason !== undefined) {
    await d.getByRole('button', { name: 'Disapprove' }).click();
    await expect(d.getByText('A reason is required to reject a verification')).toBeVisible();
    await d.getByLabel('Reason').fill(reason);
  }
  return d;
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

async function rowActions(page: Page, name: string, action: string) {
  const menu = await openDropdown(page, page.getByRole('button', { name: `Actions for ${name}` }));
  await menu.getByRole('menuitem', { name: action }).click();
}

test('staff review KYC and KYB submissions and deactivate and reactivate customers', async ({
  page,
  request,
}, info) => {
  const project = info.project.name;
  const desktop = project === 'desktop';
  const tag = cap(letters(6));
  const companyName = `Volta Foods ${tag}`;

  // The customers of this run, made through the API.
  const person = await verifiedIndividual(request, 'Esi', `Quaye${tag.toLowerCase()}`);
  const personName = `Esi Quaye${tag.toLowerCase()}`;
  const personSession = await apiSession(request, person.email);
  if (!desktop) await submitKyc(request, personSession);
  const companyAdmin = await registerCompany(request, companyName);
  const companySession = await apiSession(request, companyAdmin);
  await submitKyb(request, companySession, companyName);
  const kycName = desktop ? 'Kojo Antwi' : personName;

  await signedInAs(page, desktop ? SUPER : ADMIN);
  await expect(page).toHaveURL(/\/admin$/);

  await test.step('the menu: Verifications first after Dashboard, then the Customer Database', async () => {
    if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('link', { name: 'Individuals List' })).toBeVisible();
    const groups = await nav.locator(':scope > ul > li').allInnerTexts();
    expect(groups[0]).toContain('Dashboard');
    expect(groups[1]).toMatch(/^Verifications\s+Individuals List\s+Companies List$/);
    const customers = nav.locator('li.ant-menu-submenu', { hasText: 'Customer Database' });
    await expect(customers.getByRole('link', { name: 'Customers List' })).toBeVisible();
    await expect(customers.getByRole('link', { name: 'Companies List' })).toBeVisible();
    // Admins see neither Admin Management nor the Audit Trail.
    await expect(nav.getByRole('link', { name: 'Admin Management' })).toHaveCount(desktop ? 1 : 0);
    await expect(nav.getByRole('link', { name: 'Audit Trail' })).toHaveCount(desktop ? 1 : 0);
    await snap(page, 'menu', project);
    if (isPhone(page)) await page.keyboard.press('Escape');
  });

  await test.step('Individuals List: filters by state, name and date; the pending KYC with its documents', async () => {
    await openMenu(page, 'Individuals List', 'Verifications');
    await expect(page).toHaveURL(/\/admin\/verifications-individuals/);
    await expect(page.getByRole('heading', { name: 'Individual Verifications' })).toBeVisible();
    if (desktop) {
      for (const c of ['Name', 'Account Type', 'State', 'Submitted', 'Last Modified', 'Id', 'Account Id']) {
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      }
    }
    await filter(page, { State: 'In-review', Name: kycName });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first().getByText('In-review')).toBeVisible();
    await snap(page, 'kyc-list', project);
    // Kojo submitted two days ago, this run's customer today.
    const yesterday = dayjs().subtract(1, 'day').format('YYYY-MM-DD');
    await filter(page, { Name: kycName, ...(desktop ? { 'Start Date': yesterday } : { 'End Date': yesterday }) });
    await expect(page.getByText('No verifications match these filters')).toBeVisible();
    await filter(page, {
      Name: kycName,
      'Start Date': dayjs().subtract(3, 'day').format('YYYY-MM-DD'),
      'End Date': dayjs().format('YYYY-MM-DD'),
    });
    await expect(rows(page)).toHaveCount(1);
    await filter(page, { State: 'Approved', Name: kycName });
    await expect(page.getByText('No verifications match these filters')).toBeVisible();

    await filter(page, { State: 'In-review', Name: kycName });
    await openRow(rows(page).first());
    await expect(page).toHaveURL(/\/admin\/verifications-individuals\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: `${kycName} - KYC Verification` })).toBeVisible();
    await expect(field(page, 'Submission State')).toHaveText('In-review');
    await expect(field(page, 'Account State')).toHaveText('In-review');
    await expect(field(page, 'Identification')).toContainText(desktop ? 'National ID' : 'Passport');
    await expect(field(page, 'Address proof')).toContainText(desktop ? 'utility-bill.pdf' : 'bank-statement.pdf');
    await expectDocuments(page, ['selfie_image'], ['address_proof']);
    await expect(page.getByRole('link', { name: 'Download Selfie with Id' })).toHaveAttribute('href', /^blob:/);
    await snap(page, 'kyc-detail', project);
  });

  await test.step('approve the KYC after the confirmation; the buttons go', async () => {
    const d = await decide(page, 'Approve', `Do you want to approve this KYC Verification for ${kycName}?`);
    await snap(page, 'kyc-approve-confirm', project);
    await d.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('.ant-message').getByText('Verification approved.').last()).toBeVisible();
    await expect(field(page, 'Submission State')).toHaveText('Approved');
    await expect(field(page, 'Account State')).toHaveText('Verified');
    await expect(decisionButton(page, 'Approve')).toHaveCount(0);
    await expect(decisionButton(page, 'Disapprove')).toHaveCount(0);
    await snap(page, 'kyc-approved', project);
  });

  await test.step('a KYB is disapproved with a reason, resubmitted and approved', async () => {
    await openMenu(page, 'Companies List', 'Verifications');
    await expect(page.getByRole('heading', { name: 'Company Verifications' })).toBeVisible();
    await filter(page, { Name: companyName });
    await expect(rows(page)).toHaveCount(1);
    await openRow(rows(page).first());
    await expect(page.getByRole('heading', { name: `${companyName} - KYB Verification` })).toBeVisible();
    await expect(field(page, 'Registered Business name')).toHaveText(companyName);
    await expect(field(page, 'Countries of operation')).toHaveText('GH, TG');
    await expect(field(page, 'Publicly listed')).toHaveText('No');
    await expect(field(page, 'Incorporation certificate')).toHaveText('Not provided');
    await expectDocuments(page, ['shareholder_passport'], []);
    const reason = 'The shareholder passport photo is unreadable. Please upload a clearer scan.';
    const d = await decide(
      page,
      'Disapprove',
      `Do you want to disapprove this KYB Verification for ${companyName}?`,
      reason,
    );
    await snap(page, 'kyb-disapprove', project);
    await d.getByRole('button', { name: 'Disapprove' }).click();
    await expect(page.getByText('Verification rejected.')).toBeVisible();
    await expect(field(page, 'Submission State')).toHaveText('Rejected');
    await expect(field(page, 'Account State')).toHaveText('Unverified');
    await expect(field(page, 'Reason')).toHaveText(reason);
    await expect(decisionButton(page, 'Approve')).toHaveCount(0);
    await snap(page, 'kyb-rejected', project);

    await submitKyb(request, companySession, companyName);
    await openMenu(page, 'Companies List', 'Verifications');
    await expect(page.getByRole('heading', { name: 'Company Verifications' })).toBeVisible();
    await filter(page, { Name: companyName });
    await expect(rows(page)).toHaveCount(2);
    await openRow(rows(page).filter({ hasText: 'In-review' }));
    const history = page
      .locator('.ant-card', { has: page.getByText('Submission History', { exact: true }) })
      .locator('.ant-list-item');
    await expect(history).toHaveCount(2);
    await expect(history.filter({ hasText: 'Rejected' })).toContainText(reason);
    await expect(history.filter({ hasText: 'In-review' })).toContainText('This submission');
    const a = await decide(page, 'Approve', `Do you want to approve this KYB Verification for ${companyName}?`);
    await a.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('.ant-message').getByText('Verification approved.').last()).toBeVisible();
    await expect(field(page, 'Account State')).toHaveText('Verified');
    await snap(page, 'kyb-approved', project);
  });

  await test.step('List of Individuals: filters, links, deactivate (the session ends) and reactivate', async () => {
    await openMenu(page, 'Customers List', 'Customer Database');
    await expect(page).toHaveURL(/\/admin\/customers-individuals/);
    await expect(page.getByRole('heading', { name: 'List of Individuals' })).toBeVisible();
    if (desktop) {
      for (const c of ['Name', 'Email', 'Phone Number', 'State', 'Master Wallet', 'Cards', 'Active Cards', 'Created']) {
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      }
    }
    await filter(page, { Name: personName, State: desktop ? 'Unverified' : 'Verified' });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(person.email);
    await expect(rows(page).first()).toContainText('USDT 0.00');
    // Kept as +233241230000, shown in the national format with the country (issue 31).
    await expect(rows(page).first()).toContainText('024 123 0000 (Ghana)');
    await filter(page, { Name: personName, 'End Date': dayjs().subtract(1, 'day').format('YYYY-MM-DD') });
    await expect(page.getByText('No customers match these filters')).toBeVisible();
    await filter(page, { Name: personName, 'Start Date': dayjs().format('YYYY-MM-DD') });
    await expect(rows(page)).toHaveCount(1);
    await snap(page, 'individuals', project);

    await rowActions(page, personName, 'Wallet Loads');
    await expect(page).toHaveURL(/\/admin\/wallet-loads\?individual_id=[0-9a-f-]{36}&acc_name=/);
    await expect(page.getByRole('heading', { name: `${personName} - Wallet Top-Ups / Loads` })).toBeVisible();
    await page.goBack();
    await expect(rows(page)).toHaveCount(1);

    await rowActions(page, personName, 'Deactivate');
    await expect(confirmTitle(page)).toHaveText('Deactivate Account');
    await snap(page, 'deactivate-confirm', project);
    await dialog(page).getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('User Account deactivated.')).toBeVisible();
    await expect(rows(page).first().getByText('Deactivated', { exact: true })).toBeVisible();
    // Their session ended at once, and they cannot log in.
    expect((await request.get('/api/v1/individuals/profile', { headers: personSession.auth })).status()).toBe(401);
    const refused = await request.post('/api/v1/account/login', { data: { email: person.email, password: PASSWORD } });
    expect(refused.status()).toBe(403);
    await filter(page, { State: 'Deactivated', Name: personName });
    await expect(rows(page)).toHaveCount(1);
    await snap(page, 'individual-deactivated', project);

    await rowActions(page, personName, 'Reactivate');
    await expect(confirmTitle(page)).toHaveText('Reactivate Account');
    await dialog(page).getByRole('button', { name: 'Reactivate' }).click();
    await expect(page.getByText('User Account reactivated.')).toBeVisible();
    await expect(page.getByText('No customers match these filters')).toBeVisible();
    expect(
      (await request.post('/api/v1/account/login', { data: { email: person.email, password: PASSWORD } })).status(),
    ).toBe(200);
  });

  await test.step('List of Companies: users count, links and company deactivation', async () => {
    await openMenu(page, 'Companies List', 'Customer Database');
    await expect(page).toHaveURL(/\/admin\/customers-companies/);
    await expect(page.getByRole('heading', { name: 'List of Companies' })).toBeVisible();
    if (desktop) {
      for (const c of [
        'Company Name',
        'Email',
        'Phone Number',
        'State',
        'Master Wallet',
        'Cards',
        'Active Cards',
        'Users',
        'Created',
      ]) {
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      }
    }
    await filter(page, { Name: companyName, State: 'Verified' });
    await expect(rows(page)).toHaveCount(1);
    await snap(page, 'companies', project);
    const menu = await openDropdown(page, page.getByRole('button', { name: `Actions for ${companyName}` }));
    for (const item of ['View Cards', 'Card Transactions', 'Wallet Loads'])
      await expect(menu.getByRole('menuitem', { name: item })).toBeVisible();
    // Fees Management is the Super-Admin's.
    await expect(menu.getByRole('menuitem', { name: 'Fees' })).toHaveCount(desktop ? 1 : 0);
    await snap(page, 'company-actions', project);
    await menu.getByRole('menuitem', { name: 'View Cards' }).click();
    await expect(page).toHaveURL(
      new RegExp(
        `/admin/cards\\?company_id=${companySession.companyId}&acc_name=${encodeURIComponent(companyName).replace(/%20/g, '(%20|\\+)')}`,
      ),
    );
    await page.goBack();
    await expect(rows(page)).toHaveCount(1);

    await rowActions(page, companyName, 'Deactivate');
    await dialog(page).getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('Company Account deactivated.')).toBeVisible();
    await expect(page.getByText('No customers match these filters')).toBeVisible();
    expect((await request.get('/api/v1/individuals/profile', { headers: companySession.auth })).status()).toBe(401);
    await filter(page, { Name: companyName });
    await rowActions(page, companyName, 'Reactivate');
    await dialog(page).getByRole('button', { name: 'Reactivate' }).click();
    await expect(page.getByText('Company Account reactivated.')).toBeVisible();
    await expect(rows(page).first().getByText('Verified', { exact: true })).toBeVisible();
  });
});

test('a Super-Admin adds an admin who sets a password and logs in; the audit trail lists the actions', async ({
  page,
  browser,
}, info) => {
  const project = info.project.name;
  const desktop = project === 'desktop';
  const tag = cap(letters(5));
  const email = uniqueEmail('staff');
  const fullName = `Nana Yeboah${tag}`;

  await signedInAs(page, SUPER);
  await expect(page).toHaveURL(/\/admin$/);

  await test.step('Administration: Fees, Admin Management, Approval Policies, Momo, Audit Trail', async () => {
    if (isPhone(page)) await page.getByRole('button', { name: 'Open menu' }).click();
    const group = page
      .getByRole('navigation', { name: 'Main menu' })
      .locator('li.ant-menu-submenu', { hasText: 'Administration' });
    await expect(group.getByRole('link')).toHaveText([
      'Fees Management',
      'Admin Management',
      'Approval Policies',
      'Momo Management',
      'Audit Trail',
    ]);
    await group.getByRole('link', { name: 'Admin Management' }).click();
    await expect(page).toHaveURL(/\/admin\/administration-admins/);
    await expect(page.getByRole('heading', { name: 'List of Administrators' })).toBeVisible();
    if (desktop) {
      for (const c of ['Admin Id', 'First Name', 'Last Name', 'Email Address', 'Phone Number', 'State']) {
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
      }
    }
    // No delete on one's own row.
    await expect(page.getByRole('button', { name: 'Edit Sena Agbeko' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete Sena Agbeko' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete Yaw Darko' })).toBeVisible();
    await snap(page, 'admins', project);
  });

  await test.step('Add Admin: the required fields, the exclusive toggles, then the invitation', async () => {
    await page.getByRole('button', { name: 'Add Admin' }).click();
    const d = drawer(page);
    await d.getByRole('button', { name: 'Add Admin' }).click();
    for (const m of [
      'Full Name is required',
      'Email is required',
      'Phone Number is required',
      'Permission is required',
    ])
      await expect(d.getByText(m)).toBeVisible();
    await snap(page, 'add-admin-errors', project);
    await d.getByLabel('Full Name').fill(fullName);
    await fillPhone(page, 'Phone Number', '241112233');
    const adminToggle = d.getByRole('switch', { name: 'Admin Privileges', exact: true });
    const superToggle = d.getByRole('switch', { name: 'Super Admin Privileges' });
    await superToggle.click();
    await expect(superToggle).toBeChecked();
    await adminToggle.click();
    await expect(adminToggle).toBeChecked();
    await expect(superToggle).not.toBeChecked();

    // A taken email: the server's refusal said once, under Email (no alert, no toast); the next try is a new intent.
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/account/admins'))
        keys.push(r.headers()['idempotency-key'] ?? '');
    });
    await d.getByLabel('Email').fill(ADMIN);
    await d.getByRole('button', { name: 'Add Admin' }).click();
    const emailItem = d.locator('.ant-form-item').filter({ has: page.getByLabel('Email', { exact: true }) });
    await expect(emailItem.locator(FIELD_ERROR)).toHaveText('The email has already been taken.');
    await expect(d.locator('.ant-alert')).toHaveCount(0);
    await expect(page.locator('.ant-message-error')).toHaveCount(0);
    await d.getByLabel('Email').fill(email);
    await expect(emailItem.locator(FIELD_ERROR)).toHaveCount(0);

    await snap(page, 'add-admin', project);
    await d.getByRole('button', { name: 'Add Admin' }).click();
    await expect(page.getByText('Admin added. Nana was sent an email to set a password.')).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe('');
    expect(keys[1]).not.toBe(keys[0]);
    const row = rows(page).filter({ hasText: email });
    await expect(row.getByText('Invited')).toBeVisible();
    await expect(row).toContainText(`Yeboah${tag}`);
  });

  await test.step('edit: passwords must match; the last Super-Admin rule comes from the server', async () => {
    await page.getByRole('button', { name: `Edit ${fullName}` }).click();
    const d = drawer(page);
    await expect(d.getByLabel('First Name')).toHaveValue('Nana');
    await d.getByLabel('Last Name').fill(`Yeboah-Mensah${tag}`);
    await d.getByLabel('New Password').fill('Another!Pass9');
    await d.getByLabel('Confirm Password').fill('Another!Pass8');
    await d.getByRole('button', { name: 'Save' }).click();
    await expect(d.getByText('Passwords do not match')).toBeVisible();
    await d.getByLabel('New Password').fill('');
    await d.getByLabel('Confirm Password').fill('');
    await snap(page, 'edit-admin', project);
    await d.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Admin Nana Yeboah-Mensah${tag} updated.`)).toBeVisible();
    await expect(rows(page).filter({ hasText: email })).toContainText(`Yeboah-Mensah${tag}`);

    await page.getByRole('button', { name: 'Edit Sena Agbeko' }).click();
    await drawer(page).getByRole('switch', { name: 'Admin Privileges', exact: true }).click();
    await drawer(page).getByRole('button', { name: 'Save' }).click();
    await expect(drawer(page).getByRole('alert')).toHaveText(
      /The last Super-Admin cannot be demoted\.|You cannot change your own privileges\./,
    );
    await snap(page, 'edit-self-refused', project);
    await drawer(page).getByRole('button', { name: 'Close' }).click();
  });

  await test.step('the new admin opens the mailed link, sets a password, sets up 2FA and lands on /admin', async () => {
    const link = await waitForLink(email, '/onboarding/new-password?token=');
    const other = await otherBrowser(browser, page);
    await other.page.goto(link);
    await other.page.getByLabel('New Password').fill(PASSWORD);
    await other.page.getByLabel('Confirm Password').fill(PASSWORD);
    await other.page.getByRole('button', { name: 'Set Password' }).click();
    await expect(other.page).toHaveURL(/\/login\?product=/);
    await logInThroughUi(other.page, email, PASSWORD, { prefilled: true });
    await expect(other.page).toHaveURL(/\/admin$/);
    if (isPhone(other.page)) await other.page.getByRole('button', { name: 'Open menu' }).click();
    const nav = other.page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav.getByRole('link', { name: 'Individuals List' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Admin Management' })).toHaveCount(0);
    await snap(other.page, 'new-admin-home', project);
    await other.context.close();

    // Leaving the list (the dashboard shows) and coming back reads it again.
    await openMenu(page, 'Dashboard');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await openMenu(page, 'Admin Management');
    await expect(page).toHaveURL(/\/admin\/administration-admins/);
    await expect(rows(page).filter({ hasText: email }).getByText('Active')).toBeVisible();
  });

  await test.step('Delete Admin', async () => {
    const name = `Nana Yeboah-Mensah${tag}`;
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await expect(confirmTitle(page)).toHaveText('Delete Admin');
    await expect(dialog(page).getByText(`You are about to delete this user, ${name}.`)).toBeVisible();
    await snap(page, 'delete-admin', project);
    await dialog(page).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Admin deleted.')).toBeVisible();
    await expect(rows(page).filter({ hasText: email })).toHaveCount(0);
  });

  await test.step('Audit Trail: the admin changes, decisions and deactivations, filtered', async () => {
    await openMenu(page, 'Audit Trail');
    await expect(page).toHaveURL(/\/admin\/audit-logs/);
    await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();
    if (desktop) {
      for (const c of ['When', 'Who', 'Action', 'Object', 'Details'])
        await expect(page.getByRole('columnheader', { name: c, exact: true })).toBeVisible();
    }
    await filter(page, { Actor: SUPER, Action: 'admin.' });
    for (const a of ['Admin added', 'Admin updated', 'Admin deleted'])
      await expect(rows(page).filter({ hasText: a }).first()).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Admin added' }).filter({ hasText: email })).toHaveCount(1);
    await snap(page, 'audit-admins', project);
    await openRow(rows(page).filter({ hasText: 'Admin added' }).filter({ hasText: email }));
    const d = drawer(page);
    await expect(d.getByText('Audit Entry')).toBeVisible();
    await expect(d.getByLabel('Details as JSON')).toContainText(`"email": "${email}"`);
    await snap(page, 'audit-entry', project);
    await d.getByRole('button', { name: 'Close' }).click();

    // The first journey's actions, by whoever ran it on this project.
    const actor = desktop ? SUPER : ADMIN;
    await filter(page, { Actor: actor, Action: 'verification.' });
    await expect(rows(page).filter({ hasText: 'Verification approved' }).first()).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Verification rejected' }).first()).toContainText(
      'The shareholder passport photo is unreadable',
    );
    await filter(page, { Actor: actor, Action: 'individual.' });
    await expect(rows(page).filter({ hasText: 'Individual deactivated' }).first()).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Individual reactivated' }).first()).toBeVisible();
    await filter(page, { Actor: actor, Action: 'company.', 'Start Date': dayjs().format('YYYY-MM-DD') });
    await expect(rows(page).filter({ hasText: 'Company deactivated' }).first()).toBeVisible();
    await snap(page, 'audit-customers', project);
  });

  await test.step("customer lists: each account's master wallet, cards and users", async () => {
    // Ama has a funded wallet and cards; Acme has two users (Kofi and Efua) and cards.
    await openMenu(page, 'Customers List', 'Customer Database');
    // The filters of the screen being left may still show: wait for this one.
    await expect(page.getByRole('heading', { name: 'List of Individuals' })).toBeVisible();
    await filter(page, { Name: 'Ama Mensah' });
    await expect(rows(page)).toHaveCount(1);
    const ama = rows(page).first();
    await expect(ama).toContainText('ama@example.com');
    if (isPhone(page)) await expect(ama.getByText('USDT 0.00', { exact: true })).toHaveCount(0);
    else {
      await expect(ama.locator('td').nth(4)).not.toHaveText('USDT 0.00');
      await expect(ama.locator('td').nth(5)).not.toHaveText('0');
    }
    await snap(page, 'individual-ama', project);
    await openMenu(page, 'Companies List', 'Customer Database');
    await expect(page.getByRole('heading', { name: 'List of Companies' })).toBeVisible();
    await filter(page, { Name: 'Acme Logistics Ltd' });
    await expect(rows(page)).toHaveCount(1);
    const acme = rows(page).first();
    if (isPhone(page)) await expect(acme).toContainText('· 2 users');
    else await expect(acme.locator('td').nth(7)).toHaveText('2');
    await snap(page, 'company-acme', project);
  });
});
