import { expect, test } from '@playwright/test';
import { verifiedIndividual } from './support/accounts';
import { logInThroughUi, snap } from './support/flows';

test('the address npm start prints is the login screen: log in from /, reload a screen, and a stale asset is a 404', async ({
  page,
  request,
}, info) => {
  const { email, password } = await verifiedIndividual(request, 'Esi', 'Mensah');
  const front = await page.goto('/');
  expect(front?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await snap(page, 'front-door', info.project.name);

  await logInThroughUi(page, email, password);
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByText(/Good (morning|afternoon|evening), Esi/)).toBeVisible();

  // A reload of a screen is served the app, and the session carries on.
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  await expect(page.getByText(/Good (morning|afternoon|evening), Esi/)).toBeVisible();

  // An old tab after a deploy asks for assets that are gone: a clear 404, not the app as a script.
  const stale = await request.get('/assets/index-0ldH4sh.js');
  expect(stale.status()).toBe(404);
  expect(stale.headers()['content-type']).not.toMatch(/html/);
});
