import { type Locator, type Page, expect as baseExpect, test } from '@playwright/test';
import { verifiedCompany } from './support/accounts';
import { FIELD_ERROR, logInThroughUi, openFromMenu, PASSWORD, snap as snapNow, visit } from './support/flows';
import { signedInAs } from './support/session';
import { approveKyb, deliveriesFixture, freezeACard, otherBrowser, sessionOf } from './support/integrations';

/**
 * API Settings (customer-portal §2–§4) and the back-office List of Third Parties (§2.6).
 *
 * Desktop runs as the demo's Company-Admin of verified Acme (kofi). Phone must not share Acme's
 * credentials with desktop (the two projects run at once), so it makes its own company: registered
 * and mail-verified through the API, KYB sent through the API, approved by staff through the API
 * (the back-office verification screens are another engineer's), then the same journey in the UI.
 */
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 420_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

const snap = (page: Page, name: string, project: string) => snapNow(page, `api-${name}`, project);
const COPY_ONCE = 'You can copy your API keys just once. Copy and keep it in a safe place for your future reference.';

// The newest: the same message from a save a moment before can still be showing (a message stays 3 s).
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message').getByText(text).last();
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
/** A button by its text; an icon in it may put its own name first ("key Generate Credentials"). */
const button = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${name}$`) });
const confirmDialog = (page: Page) => page.locator('.ant-modal-confirm');
const callbackCard = (page: Page) =>
  page.locator('.ant-card', { has: page.getByText('Callback url for card transaction webhooks') });

/** The side menu on desktop; the account menu on phones (no side panel there). */
async function openApiSettings(page: Page) {
  await openFromMenu(page, 'API Settings', /\/portal\/apisettings$/);
}

/** Which of the four callback buttons show (§4). */
async function expectCallbackButtons(page: Page, shown: Array<'Save' | 'Revoke' | 'Activate' | 'Deactivate'>) {
  const card = callbackCard(page);
  for (const name of ['Save', 'Revoke', 'Activate', 'Deactivate'] as const) {
    await expect(button(card, name)).toHaveCount(shown.includes(name) ? 1 : 0);
  }
}

test('only the admin of a verified company gets API Settings; others are told what is needed', async ({
  page,
  browser,
}, info) => {
  const project = info.project.name;
  // A Company-User of verified Acme: no menu entry, and the screen says the admin does it.
  await signedInAs(page, 'efua@acme.example.com');
  await expect(page.getByRole('menuitem', { name: 'API Settings' })).toHaveCount(0);
  await visit(page, '/portal/apisettings');
  await expect(page.getByRole('heading', { name: 'API Settings' })).toBeVisible();
  await expect(page.getByText('Only your company admin can manage API access')).toBeVisible();
  await expect(page.getByText('Generate API credentials for integration')).toBeVisible();
  await expect(button(page, 'Generate Credentials')).toHaveCount(0);
  await expect(button(page, 'Complete KYB verification')).toHaveCount(0);
  await snap(page, 'company-user', project);

  // The admin of Sunrise Agro (KYB waiting for review): told to wait for the review.
  const other = await otherBrowser(browser, page);
  await signedInAs(other.page, 'abena@sunrise-agro.example.com');
  await openApiSettings(other.page);
  await expect(other.page.getByText('Your KYB verification is being reviewed')).toBeVisible();
  await expect(other.page.getByRole('list', { name: 'What API access needs' })).toContainText(
    'KYB verification (under review)',
  );
  await expect(button(other.page, 'Generate Credentials')).toHaveCount(0);
  await snap(other.page, 'kyb-pending', project);
  await other.context.close();
});

test('API Settings: generate, copy, revoke, generate again, callback save/deactivate/activate/revoke; staff see the client', async ({
  page,
  context,
  browser,
  request,
}, info) => {
  const project = info.project.name;
  const desktop = project === 'desktop';
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const staff = await otherBrowser(browser, page);
  const staffLogin = signedInAs(staff.page, desktop ? 'super@cardwallet.example' : 'admin@cardwallet.example');
  staffLogin.catch(() => undefined); // awaited below; failing there, not as an unhandled rejection
  const staffToken = async () => {
    await staffLogin;
    return (await sessionOf(staff.page)).token;
  };

  if (desktop) {
    await signedInAs(page, 'kofi@acme.example.com');
  } else {
    const { email } = await verifiedCompany(request);
    await logInThroughUi(page, email, PASSWORD);
    // Not verified yet: the screen says what is missing and leads to the KYB form.
    await openApiSettings(page);
    await expect(page.getByText('Complete KYB verification first')).toBeVisible();
    await snap(page, 'kyb-needed', project);
    await button(page, 'Complete KYB verification').click();
    await expect(page).toHaveURL(/\/portal\/kycverifications$/);
    await approveKyb(request, page, await staffToken());
  }
  const companyName = (await page.evaluate(
    () => JSON.parse(localStorage.getItem('cw.auth')!).company.company_name,
  )) as string;

  // Loading: skeletons in place of the two fields.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const clientsCall = (u: URL) => u.pathname === '/api/v1/third-party/clients';
  await page.route(clientsCall, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/portal');
  await openApiSettings(page);
  await expect(page.getByRole('heading', { name: 'API Settings' })).toBeVisible();
  await expect(page.locator('.ant-skeleton-input')).toHaveCount(2);
  await snap(page, 'loading', project);
  release();
  await page.unrouteAll({ behavior: 'wait' });

  // Absent: empty fields, the notice, Generate Credentials, no callback section.
  await expect(page.getByText('Generate API credentials for integration')).toBeVisible();
  await expect(page.getByText(COPY_ONCE)).toBeVisible();
  await expect(field(page, 'Client Id')).toHaveValue('');
  await expect(field(page, 'Client Secret')).toHaveValue('');
  await expect(button(page, 'Revoke Credentials')).toHaveCount(0);
  await expect(page.getByText('Callback url for card transaction webhooks')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Integration guide' })).toHaveAttribute(
    'href',
    '/portal/apisettings/guide',
  );
  await expect(page.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api/docs');
  await snap(page, 'absent', project);

  // Generate: id and secret shown this once; the secret copies.
  await button(page, 'Generate Credentials').click();
  await expect(toast(page, 'Credentials generated. Copy the Client Secret now.')).toBeVisible();
  await expect(field(page, 'Client Id')).toHaveValue(/^cw_/);
  await expect(field(page, 'Client Secret')).toHaveValue(/^cws_.{40,}/);
  const firstId = await field(page, 'Client Id').inputValue();
  const secret = await field(page, 'Client Secret').inputValue();
  await button(page, 'Copy Client Secret').click();
  await expect(toast(page, 'Client Secret copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await button(page, 'Copy Client Id').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstId);
  await snap(page, 'generated', project);

  // Revoke (confirmed): fields cleared, Generate offered again, no callback section.
  await button(page, 'Revoke Credentials').click();
  await expect(confirmDialog(page)).toContainText('Revoke Credentials');
  await snap(page, 'revoke-confirm', project);
  await button(confirmDialog(page), 'Revoke').click();
  await expect(toast(page, 'Credentials revoked')).toBeVisible();
  await expect(field(page, 'Client Id')).toHaveValue('');
  await expect(field(page, 'Client Secret')).toHaveValue('');
  await expect(button(page, 'Generate Credentials')).toBeVisible();
  await expect(page.getByText('Callback url for card transaction webhooks')).toHaveCount(0);

  // Generate again: new credentials; after a reload the secret is hidden for good.
  await button(page, 'Generate Credentials').click();
  await expect(field(page, 'Client Secret')).toHaveValue(/^cws_/);
  const clientId = await field(page, 'Client Id').inputValue();
  expect(clientId).not.toBe(firstId);
  await page.reload();
  await expect(field(page, 'Client Id')).toHaveValue(clientId);
  await expect(field(page, 'Client Secret')).toHaveValue('');
  await expect(field(page, 'Client Secret')).toHaveAttribute('placeholder', 'Hidden for good: shown only once');
  await expect(button(page, 'Copy Client Secret')).toBeDisabled();
  await expect(button(page, 'Revoke Credentials')).toBeVisible();

  // Callback: nothing saved yet, so only Save; the server's refusal is shown once, under the field.
  const url = field(page, 'Callback url for card transaction webhooks');
  await expect(url).toHaveValue('');
  await expectCallbackButtons(page, ['Save']);
  await snap(page, 'active-no-callback', project);
  await url.fill('not a url');
  await button(callbackCard(page), 'Save').click();
  await expect(callbackCard(page).getByText('Enter a full URL such as https://example.com/webhooks')).toBeVisible();
  await url.fill('https://user:pw@hooks.example.com/cardwallet');
  await button(callbackCard(page), 'Save').click();
  await expect(callbackCard(page).locator(FIELD_ERROR)).toHaveText('The callback URL must not contain credentials');
  // Said once (issue 13): under the field, and nowhere else on the page — no toast.
  await expect(page.getByText('The callback URL must not contain credentials')).toHaveCount(1);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  const hook = `https://hooks.example.com/cardwallet/${project}`;
  await url.fill(hook);
  await button(callbackCard(page), 'Save').click();
  await expect(toast(page, 'Callback Url set successfully')).toBeVisible();
  await expectCallbackButtons(page, ['Save', 'Deactivate']);
  await expect(callbackCard(page).getByText('Active', { exact: true })).toBeVisible();

  // The signing secret: masked, revealed, copied.
  const signing = field(page, 'Signing Secret');
  await expect(signing).toHaveValue(/^whsec_•+$/);
  await snap(page, 'callback-active', project);
  await button(page, 'Reveal Signing Secret').click();
  await expect(signing).toHaveValue(/^whsec_[A-Za-z0-9+/=]{20,}$/);
  const whsec = await signing.inputValue();
  await button(page, 'Copy Signing Secret').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(whsec);

  // Deactivate → Revoke and Activate; Activate → Deactivate and Save again.
  await button(callbackCard(page), 'Deactivate').click();
  await expect(toast(page, 'Callback Url deactivated successfully')).toBeVisible();
  await expectCallbackButtons(page, ['Revoke', 'Activate']);
  await expect(url).toHaveValue(hook);
  await snap(page, 'callback-inactive', project);
  await button(callbackCard(page), 'Activate').click();
  await expect(toast(page, 'Callback Url activated successfully')).toBeVisible();
  await expectCallbackButtons(page, ['Save', 'Deactivate']);

  let cardId: string | undefined;
  if (!desktop) {
    // A real card event, queued for the active callback (e2e runs without the dispatcher: it stays pending).
    cardId = await freezeACard(request, page, await staffToken());
    await page.reload();
    const row = page.locator('.ant-list-item', { hasText: 'card.frozen' });
    await expect(row).toContainText('Pending');
    await row.click();
    const drawer = page.locator('.ant-drawer-open .ant-drawer-content');
    await expect(drawer.getByText('Not sent yet: the first attempt is queued.')).toBeVisible();
    await expect(drawer.getByLabel('Payload', { exact: true })).toContainText(cardId);
    await snap(page, 'event-pending', project);
    await drawer.getByRole('button', { name: 'Close' }).click();
  }

  // Deactivate, then Revoke (confirmed): the URL is gone, only Save remains.
  await button(callbackCard(page), 'Deactivate').click();
  await expectCallbackButtons(page, ['Revoke', 'Activate']);
  await button(callbackCard(page), 'Revoke').click();
  await button(confirmDialog(page), 'Revoke').click();
  await expect(toast(page, 'Callback Url revoked successfully')).toBeVisible();
  await expectCallbackButtons(page, ['Save']);
  await expect(url).toHaveValue('');
  await expect(signing).toHaveCount(0);

  // Saved once more, so staff see a live webhook.
  await url.fill(hook);
  await button(callbackCard(page), 'Save').click();
  await expect(toast(page, 'Callback Url set successfully')).toBeVisible();
  await snap(page, 'final', project);

  // The delivery log with attempts (states only a running dispatcher reaches), for the eye.
  await page.route(
    (u) => u.pathname === '/api/v1/third-party/webhook-deliveries',
    (route) => route.fulfill({ json: deliveriesFixture() }),
  );
  await page.reload();
  const declined = desktop
    ? page.locator('tbody tr', { hasText: 'card.authorization.declined' })
    : page.locator('.ant-list-item', { hasText: 'card.authorization.declined' });
  await expect(declined).toContainText('No answer');
  await snap(page, 'deliveries', project);
  await declined.click();
  await expect(page.getByTestId('webhook-attempt')).toHaveCount(2);
  await expect(page.locator('.ant-drawer-open')).toContainText('Timed out after 10 s');
  await snap(page, 'event-attempts', project);
  await page.unrouteAll({ behavior: 'wait' });

  // The integration guide, inside the portal.
  await page.goto('/portal/apisettings/guide#7-receive-webhooks');
  await expect(page.getByRole('heading', { name: 'Cardwallet API for integrators' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '7. Receive webhooks' })).toBeInViewport();
  await snap(page, 'guide', project);

  // Staff: List of Third Parties has this client, Active, with a healthy webhook; the drawer has its log.
  await staffLogin;
  await visit(staff.page, '/admin/third-parties');
  await expect(staff.page.getByRole('heading', { name: 'List of Third Parties' })).toBeVisible();
  const item = desktop
    ? staff.page.locator('tbody tr', { hasText: clientId })
    : staff.page.locator('.ant-list-item', { hasText: clientId });
  await expect(item).toContainText('Active');
  await expect(item).toContainText('Healthy');
  if (desktop) await expect(item).toContainText(hook);
  const revoked = desktop
    ? staff.page.locator('tbody tr', { hasText: firstId })
    : staff.page.locator('.ant-list-item', { hasText: firstId });
  await expect(revoked).toContainText('Revoked');
  await snap(staff.page, 'admin-third-parties', project);
  await item.click();
  const panel = staff.page.locator('.ant-drawer-open .ant-drawer-content').first();
  await expect(panel.getByText('Third-Party Client')).toBeVisible();
  await expect(panel).toContainText(companyName);
  await expect(panel).toContainText(hook);
  await expect(panel.getByText('Webhook delivery log')).toBeVisible();
  if (cardId) await expect(panel.locator('.ant-list-item', { hasText: 'card.frozen' })).toContainText('Pending');
  await snap(staff.page, 'admin-third-party-drawer', project);
  await staff.context.close();
});
