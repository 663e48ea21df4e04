import { expect, test } from '@playwright/test';
import {
  DEMO_PASSWORD,
  PASSWORD,
  fillPhone,
  isPhone,
  logInThroughUi,
  openDropdown,
  openFromMenu,
  saveRecoveryCodes,
  snap,
  uniqueEmail,
} from './support/flows';
import { waitForLink } from './support/mail';
import { verifiedIndividual } from './support/accounts';
import { freshCode, rememberSecret, wrongCodeFor } from './support/totp';

test('an individual signs up, verifies by mail, sets up 2FA and lands on the portal', async ({ page }, info) => {
  const email = uniqueEmail('ind');
  await page.goto('/onboarding');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Account Type').click();
  await page.getByTitle('Individual').click();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(/\/onboarding\/signup\?product=/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Full Name is required')).toBeVisible();
  await expect(page.getByText('Phone Number is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Full Name').fill('Ab Cd');
  await expect(page.getByText('First Name or Last Name must be at least 3')).toBeVisible();
  await page.getByLabel('Full Name').fill('Akosua Frimpong');
  // Typed as at home, with the trunk 0: kept as +233241234567 (issue 31), read back in the national format.
  await fillPhone(page, 'Phone Number', '0241234567');
  await expect(page.getByText('024 123 4567 (Ghana)')).toBeVisible();
  await expect(
    page.getByText(
      'At least 8 characters with a lowercase letter, an uppercase letter, a digit and a special character.',
    ),
  ).toBeVisible();
  await expect(page.getByText('Minimum 8 characters', { exact: true })).toHaveCount(0);
  await page.getByLabel('Password').fill(PASSWORD);
  await snap(page, 'signup-individual', info.project.name);
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page).toHaveURL(/\/onboarding\/success/);
  await expect(page.getByText('Email Verification', { exact: true })).toBeVisible();
  await expect(page.getByText('Email Verification Sent.')).toBeVisible();

  const link = await waitForLink(email, '/verify-email');
  await page.goto(link);
  await expect(page).toHaveURL(/\/onboarding\/email-verified\?identity=/);
  await expect(page.getByText('Your email has been verified and your Account created successfully')).toBeVisible();
  await snap(page, 'email-verified', info.project.name);
  // The link clicked again (people and mail scanners do): already verified, log in; not "invalid".
  await page.goto(link);
  await expect(page).toHaveURL(/\/onboarding\/email-verified\?identity=.*&already=1/);
  await expect(page.getByRole('heading', { name: 'Your email is already verified' })).toBeVisible();
  await expect(page.getByText(`${email}: this link was used before. Log in to continue.`)).toBeVisible();
  await expect(page.getByText(/invalid or has expired/)).toHaveCount(0);
  await snap(page, 'email-already-verified', info.project.name);
  await page.getByRole('button', { name: 'Log in' }).click();

  await expect(page).toHaveURL(/\/login\?email=/);
  await logInThroughUi(page, email, PASSWORD, { prefilled: true });
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByText(/Good (morning|afternoon|evening), Akosua/)).toBeVisible();
  await expect(page.getByText('Finish your account setup')).toBeVisible();
  await expect(
    page.getByText('Complete KYC form in order to create unlimited cards and access your API setttings'),
  ).toBeVisible();
  await snap(page, 'portal-individual', info.project.name);

  // The profile shows the number kept in E.164 in its national format, with the country.
  const menu = await openDropdown(page, page.getByRole('button', { name: 'Account menu' }));
  await menu.getByRole('menuitem', { name: 'Profile' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByText('024 123 4567 (Ghana)')).toBeVisible();
  await snap(page, 'profile-phone-national', info.project.name);
});

test('a mistyped code while setting up 2FA keeps the same QR and key, and the key scanned first works', async ({
  page,
  request,
}, info) => {
  const { email } = await verifiedIndividual(request, 'Yaa', 'Asantewaa');
  const typeCode = async (digits: string) => {
    await page.locator('.ant-otp input').first().click();
    await page.keyboard.type(digits, { delay: 20 });
    await page.getByRole('button', { name: 'Confirm OTP' }).click();
  };
  const logInWithPassword = async () => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Setup your 2FA')).toBeVisible();
  };
  const qr = page.getByAltText('QR code for your authenticator app');
  const shownKey = async () => (await page.getByTestId('totp-secret').innerText()).trim();

  await page.goto('/login');
  await logInWithPassword();
  const qrSource = await qr.getAttribute('src');
  const secret = await shownKey();
  rememberSecret(email, secret); // scanned into the authenticator

  await typeCode(await wrongCodeFor(secret));
  await expect(page.getByText('The authentication code is incorrect or has already been used.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Setup your 2FA')).toBeVisible();
  expect(await shownKey()).toBe(secret);
  expect(await qr.getAttribute('src')).toBe(qrSource);
  await snap(page, 'login-2fa-setup-wrong-code', info.project.name);

  // Leaving and logging in again shows the very same QR and key, and the scanned entry works.
  await page.getByRole('button', { name: 'Use another account' }).click();
  await logInWithPassword();
  expect(await shownKey()).toBe(secret);
  expect(await qr.getAttribute('src')).toBe(qrSource);
  await typeCode(await freshCode(email));
  await saveRecoveryCodes(page, email);
  await expect(page).toHaveURL(/\/portal$/);
});

test('a company signs up and its admin invites a user who accepts and logs in as Company-User', async ({
  page,
  browser,
}, info) => {
  const email = uniqueEmail('coadmin');
  await page.goto('/onboarding');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Account Type').click();
  await page.getByTitle('Company').click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/onboarding\/company\?product=/);
  await page.getByLabel('Full Name').fill('Yaa Asantewaa');
  // Pasted as written at home, with the trunk 0: the 0 is left out, no digit is lost.
  const companyPhone = page.getByLabel('Company Phone', { exact: true });
  await companyPhone.click();
  await companyPhone.press('End');
  await companyPhone.evaluate((input) => {
    const data = new DataTransfer();
    data.setData('text', '030 212 3456');
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByText('030 212 3456 (Ghana)')).toBeVisible();
  await page.getByLabel('Company Name').fill('Ashanti Gold Traders');
  await page.getByLabel('Company Email').fill(`finance.${email}`);
  await page.getByLabel('Company Website').fill('ashanti-gold.example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await snap(page, 'signup-company', info.project.name);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/onboarding\/success/);
  await expect(page.getByText('Verification mail sent to personal email address')).toBeVisible();

  await page.goto(await waitForLink(email, '/verify-email'));
  await page.getByRole('button', { name: 'Proceed to Dashboard' }).click();
  await logInThroughUi(page, email, PASSWORD, { prefilled: true });
  await expect(page).toHaveURL(/\/portal$/);

  // Users screen: invite a teammate.
  if (!isPhone(page)) await expect(page.getByText('Ashanti Gold Traders')).toBeVisible();
  await openFromMenu(page, 'Users', /\/portal\/users$/);
  await expect(page.getByText('List of all your current users. Update permission or delete user.')).toBeVisible();
  await page.getByRole('button', { name: 'Add New User' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByText('Kindly provide correct email and set permission for the user')).toBeVisible();
  await drawer.getByRole('button', { name: 'Add User' }).click();
  await expect(drawer.getByText('Full Name is required')).toBeVisible();
  await expect(drawer.getByText('Permission is required')).toBeVisible();
  const invitee = uniqueEmail('member');
  await drawer.getByLabel('Full Name').fill('Kojo Antwi');
  await drawer.getByLabel('Email').fill(invitee);
  await fillPhone(page, 'Phone Number', '245550011');
  await drawer.getByLabel('User Privileges').click();
  await snap(page, 'add-user', info.project.name);
  await drawer.getByRole('button', { name: 'Add User' }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByText(invitee)).toBeVisible();
  await snap(page, 'users', info.project.name);

  // The invitee opens the mailed link in their own browser.
  const context = await browser.newContext({
    viewport: page.viewportSize()!,
    isMobile: isPhone(page),
    hasTouch: isPhone(page),
  });
  const other = await context.newPage();
  await other.goto(await waitForLink(invitee, '/onboarding/invited'));
  await expect(other.getByText('You have been invited to join')).toBeVisible();
  await expect(other.getByLabel('Full Name')).toHaveValue('Kojo Antwi');
  await expect(other.getByLabel('Email')).toHaveValue(invitee);
  await other.getByLabel('Password').fill(PASSWORD);
  await snap(other, 'invited', info.project.name);
  await other.getByRole('button', { name: 'Proceed' }).click();
  await expect(other).toHaveURL(/\/login\?product=/);
  await logInThroughUi(other, invitee, PASSWORD, { prefilled: true });
  await expect(other).toHaveURL(/\/portal$/);
  const role = await other.evaluate(() => JSON.parse(localStorage.getItem('cw.auth')!).user.role);
  expect(role).toBe('Company-User');
  if (!isPhone(other)) {
    await expect(other.getByText('Company-User')).toBeVisible();
    await expect(other.getByRole('menuitem', { name: 'Users' })).toHaveCount(0);
  }
  await context.close();

  // Back on the admin's screen the invitee is now Active.
  await page.reload();
  const row = isPhone(page)
    ? page.locator('.ant-list-item', { hasText: invitee })
    : page.locator('tr', { hasText: invitee });
  await expect(row.getByText('Active')).toBeVisible();
});

test('staff land on /admin; a customer who types /admin lands on /login', async ({ page }, info) => {
  const staff = info.project.name === 'desktop' ? 'super@cardwallet.example' : 'admin@cardwallet.example';
  await page.goto('/login');
  await logInThroughUi(page, staff, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(/Welcome, (Sena|Yaw)/)).toBeVisible();
  await snap(page, 'admin-dashboard', info.project.name);

  const customer = info.project.name === 'desktop' ? 'ama@example.com' : 'efua@acme.example.com';
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await logInThroughUi(page, customer, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/portal$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('a wrong password shows the error screen with the server message', async ({ page }, info) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill('ama@example.com');
  await page.getByLabel('Password').fill('Not-the-password-1');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/onboarding\/error/);
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await snap(page, 'login-error', info.project.name);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/login/);
});
