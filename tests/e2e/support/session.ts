import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './env';
import { DEMO_PASSWORD } from './flows';
import { withAccountLock } from './locks';
import { freshCode, rememberRecoveryCodes, rememberSecret } from './totp';
import { isStaff } from '@shared/contract';

/**
 * Signed-in sessions of the run, one per account and project, reused by journeys whose subject is
 * not the login itself (the login screens have journeys of their own). A login needs a 2FA code
 * of a time step the account has not used, so the demo staff accounts, signed in by dozens of
 * journeys, would otherwise wait up to 30 s for the next step at almost every login.
 */
interface Payload {
  access_token: string;
  expires_at: string;
  user: { role: string } & Record<string, unknown>;
  company: unknown;
}

const fileOf = (email: string) => {
  const dir = path.join(dataDir(), 'sessions');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${email.toLowerCase()}.json`);
};

async function stillValid(request: APIRequestContext, p: Payload) {
  if (new Date(p.expires_at).getTime() < Date.now() + 5 * 60_000) return false;
  const r = await request.get('/api/v1/account/two-factor', { headers: { authorization: `Bearer ${p.access_token}` } });
  return r.status() === 200;
}

/** A new session through the API's login (2FA set up from the answered key the first time). */
async function apiLogin(request: APIRequestContext, email: string, password: string): Promise<Payload> {
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
  const data = (await confirm.json()).data as Payload & { recovery_codes?: string[] };
  if (data.recovery_codes) rememberRecoveryCodes(email, data.recovery_codes);
  return data;
}

/** The run's session of this account: the one already made if the server still honours it, else a new one. */
export async function sessionFor(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  return withAccountLock(email, async () => {
    const file = fileOf(email);
    if (existsSync(file)) {
      const cached = JSON.parse(readFileSync(file, 'utf8')) as Payload;
      if (await stillValid(request, cached)) return cached;
    }
    const fresh = await apiLogin(request, email, password);
    writeFileSync(file, JSON.stringify(fresh));
    return fresh;
  });
}

/**
 * The page signed in as this account, on its home screen, as the app would be after a login: the
 * session stored where the app keeps it. For journeys that never sign out (signing out ends the
 * session every other journey of the run shares).
 */
export async function signedInAs(page: Page, email: string, password = DEMO_PASSWORD) {
  const p = await sessionFor(page.request, email, password);
  // Any document of the app's origin holds its storage: the health check's answer costs no app load.
  if (!page.url().startsWith('http')) await page.goto('/api/v1/health');
  await page.evaluate((s) => {
    localStorage.setItem(
      'cw.auth',
      JSON.stringify({ token: btoa(s.access_token), expiresAt: s.expires_at, user: s.user, company: s.company }),
    );
  }, p);
  const home = isStaff(p.user.role) ? '/admin' : '/portal';
  await page.goto(home);
  await page.waitForURL(new RegExp(`${home}(/|$)`));
  return p;
}
