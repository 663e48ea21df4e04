import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { PASSWORD, linkFrom, logIn, mailsTo, randomIp, uniqueEmail } from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const individual = (email: string, extra: Record<string, unknown> = {}) => ({
  first_name: 'Abena',
  last_name: 'Asante',
  email,
  password: PASSWORD,
  confirm_password: PASSWORD,
  phone_number: '+233 24 111 2233',
  ...extra,
});

const company = (email: string, extra: Record<string, unknown> = {}) => ({
  first_name: 'Kwame',
  last_name: 'Mensah',
  email,
  password: PASSWORD,
  confirm_password: PASSWORD,
  company_name: 'Volta Trading Ltd',
  company_website: 'volta.example.com',
  company_email: 'finance@volta.example.com',
  company_phone: '+233302111222',
  ...extra,
});

describe('individual registration', () => {
  it('creates the account (201), mails a verification link and refuses login until it is opened', async () => {
    const email = uniqueEmail();
    const res = await t.api('POST', '/account/individuals/register', { body: individual(email) });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email, message: 'Email Verification Sent.' });
    expect(mailsTo(t, email)).toHaveLength(1);
    expect(mailsTo(t, email)[0]!.subject).toBe('Verify your email address');

    const denied = await t.api('POST', '/account/login', { body: { email, password: PASSWORD }, ip: randomIp() });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toMatch(/verify your email/i);

    const link = linkFrom(t, email, '/verify-email');
    const verified = await fetch(link.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
    expect(verified.status).toBe(302);
    const location = new URL(verified.headers.get('location')!, 'http://x');
    expect(location.pathname).toBe('/onboarding/email-verified');
    expect(Buffer.from(location.searchParams.get('identity')!, 'base64').toString()).toBe(email);

    // A second click (a mail scanner may have made the first) lands on the same screen, told it was done before.
    const again = await fetch(link.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
    expect(again.status).toBe(302);
    const second = new URL(again.headers.get('location')!, 'http://x');
    expect(second.pathname).toBe('/onboarding/email-verified');
    expect(second.searchParams.get('already')).toBe('1');
    expect(Buffer.from(second.searchParams.get('identity')!, 'base64').toString()).toBe(email);

    const { session } = await logIn(t, email, PASSWORD);
    expect(session.user).toMatchObject({ email, role: 'Individual', state: 'Unverified', first_name: 'Abena' });
    expect(session.user.wallet_id).toBe(session.user.id);
    expect(session.company).toBeNull();
  });

  it('stores the email in lower case and the phone number normalised', async () => {
    const email = uniqueEmail().toUpperCase();
    const res = await t.api('POST', '/account/individuals/register', { body: individual(email) });
    expect(res.status).toBe(201);
    expect(res.body.data.email).toBe(email.toLowerCase());
    await fetch(linkFrom(t, email.toLowerCase(), '/verify-email').replace(/^https?:\/\/[^/]+/, t.url));
    const { session } = await logIn(t, email.toLowerCase(), PASSWORD);
    expect(session.user.phone_number).toBe('+233241112233');
  });

  it('stores a number typed with its trunk 0 after the country code in E.164, without the 0', async () => {
    const email = uniqueEmail();
    const res = await t.api('POST', '/account/individuals/register', {
      body: individual(email, { phone_number: '+2330241234567' }),
    });
    expect(res.status).toBe(201);
    await fetch(linkFrom(t, email, '/verify-email').replace(/^https?:\/\/[^/]+/, t.url));
    const { session } = await logIn(t, email, PASSWORD);
    expect(session.user.phone_number).toBe('+233241234567');
  });

  it('refuses a taken email with error.email[0], whatever its case', async () => {
    const email = uniqueEmail();
    expect((await t.api('POST', '/account/individuals/register', { body: individual(email) })).status).toBe(201);
    const dup = await t.api('POST', '/account/individuals/register', { body: individual(email.toUpperCase()) });
    expect(dup.status).toBe(422);
    expect(dup.body.error.email[0]).toBe('The email has already been taken.');
    const dupCompany = await t.api('POST', '/account/companies/register', { body: company(email) });
    expect(dupCompany.status).toBe(422);
    expect(dupCompany.body.error.email[0]).toBe('The email has already been taken.');
  });

  it.each([
    ['first_name', { first_name: '' }, 'First Name is required'],
    ['last_name', { last_name: undefined }, 'Last Name is required'],
    ['email', { email: 'not-an-email' }, 'Enter a valid email address'],
    ['email', { email: '' }, 'Email is required'],
    ['password', { password: 'short', confirm_password: 'short' }, /at least 8 characters/],
    ['password', { password: 'alllowercase1!', confirm_password: 'alllowercase1!' }, /uppercase/],
    ['confirm_password', { confirm_password: 'Different!Pass1' }, 'Passwords do not match'],
    ['phone_number', { phone_number: '' }, 'Phone Number is required'],
    ['phone_number', { phone_number: '12ab' }, 'Valid Phone Number is required'],
    ['phone_number', { phone_number: '+233024123456' }, 'Valid Phone Number is required'],
    ['phone_number', { phone_number: '0241234567' }, 'Valid Phone Number is required'],
    ['phone_number', { phone_number: 233241234567 }, 'Phone Number is required'],
    ['first_name', { first_name: 42 }, 'First Name is required'],
  ])('rejects a bad %s with a 422 naming the field', async (field, extra, message) => {
    const email = uniqueEmail();
    const res = await t.api('POST', '/account/individuals/register', { body: individual(email, extra) });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect(mailsTo(t, email)).toHaveLength(0);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const res = await t.api('POST', '/account/individuals/register', { body: '{"email":' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is not valid JSON.');
  });
});

describe('company registration', () => {
  it('creates the company and its Company-Admin (201) who logs in after verifying', async () => {
    const email = uniqueEmail('co');
    const res = await t.api('POST', '/account/companies/register', { body: company(email) });
    expect(res.status).toBe(201);
    expect(res.body.data.message).toBe('Verification mail sent to personal email address');
    const link = linkFrom(t, email, '/verify-email');
    await fetch(link.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
    const { session } = await logIn(t, email, PASSWORD);
    expect(session.user.role).toBe('Company-Admin');
    expect(session.company).toMatchObject({
      company_name: 'Volta Trading Ltd',
      company_website: 'volta.example.com',
      company_email: 'finance@volta.example.com',
      company_phone: '+233302111222',
      state: 'Unverified',
    });
    expect(session.user.wallet_id).toBe(session.company!.id);
  });

  it('stores the company phone typed with its trunk 0 in E.164, without the 0', async () => {
    const email = uniqueEmail('co');
    const body = company(email, { company_phone: '+233 030 211 1222' });
    expect((await t.api('POST', '/account/companies/register', { body })).status).toBe(201);
    await fetch(linkFrom(t, email, '/verify-email').replace(/^https?:\/\/[^/]+/, t.url));
    const { session } = await logIn(t, email, PASSWORD);
    expect(session.company!.company_phone).toBe('+233302111222');
  });

  it.each([
    ['company_name', { company_name: ' ' }, 'Company Name is required'],
    ['company_website', { company_website: '' }, 'Company Website is required'],
    ['company_website', { company_website: 'not a site' }, /valid website/],
    ['company_email', { company_email: '' }, 'Company Email is required'],
    ['company_email', { company_email: 'nope' }, 'Enter a valid email address'],
    ['company_phone', { company_phone: '' }, 'Company Phone Number is required'],
    ['company_phone', { company_phone: '123' }, 'Valid Company Phone Number is required'],
    ['company_phone', { company_phone: '+23302111222' }, 'Valid Company Phone Number is required'],
  ])('rejects a bad %s', async (field, extra, message) => {
    const res = await t.api('POST', '/account/companies/register', { body: company(uniqueEmail(), extra) });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });
});

describe('verification link', () => {
  it('sends a bad or missing token to the error screen', async () => {
    for (const q of ['?token=nonsense', '']) {
      const res = await t.api('GET', `/account/verify-email${q}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toContain('/onboarding/error?message=');
    }
  });

  it('expires after 48 hours', async () => {
    const email = uniqueEmail();
    await t.api('POST', '/account/individuals/register', { body: individual(email) });
    const link = linkFrom(t, email, '/verify-email');
    t.clock.advance(49 * 3600_000);
    const res = await fetch(link.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
    expect(res.headers.get('location')).toContain('/onboarding/error');
  });

  it('opened again once expired, says invalid or expired, not verified', async () => {
    const email = uniqueEmail();
    await t.api('POST', '/account/individuals/register', { body: individual(email) });
    const link = linkFrom(t, email, '/verify-email').replace(/^https?:\/\/[^/]+/, t.url);
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.headers.get('location')).toMatch(/^\/onboarding\/email-verified\?identity=[^&]+$/);
    t.clock.advance(49 * 3600_000);
    const late = await fetch(link, { redirect: 'manual' });
    expect(late.headers.get('location')).toContain('/onboarding/error?message=');
  });

  it('knows only its own tokens: another token beside a used one is still invalid', async () => {
    const email = uniqueEmail();
    await t.api('POST', '/account/individuals/register', { body: individual(email) });
    const link = linkFrom(t, email, '/verify-email').replace(/^https?:\/\/[^/]+/, t.url);
    const forged = link.replace(/token=[^&]+/, `token=${'x'.repeat(43)}`);
    await fetch(link, { redirect: 'manual' });
    expect((await fetch(forged, { redirect: 'manual' })).headers.get('location')).toContain('/onboarding/error');
  });
});
