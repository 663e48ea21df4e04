import { generate } from 'otplib';
import type { SessionPayload, StaffRole } from '@shared/contract';
import { createStaff } from '../../../server/seed/admin';
import type { TestApp } from './app';
import type { SentMail } from './http';

export const PASSWORD = 'Str0ng!Passw0rd';
let seq = 0;

export const uniqueEmail = (tag = 'user') =>
  `${tag}.${Date.now().toString(36)}.${(seq++).toString(36)}.${Math.random().toString(36).slice(2, 7)}@example.com`;

export const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

export function mailsTo(t: TestApp, email: string): SentMail[] {
  return t.mails.filter((m) => m.to === email);
}

/** The first URL in the newest mail to this address whose text contains `contains`. */
export function linkFrom(t: TestApp, email: string, contains: string): string {
  const mail = mailsTo(t, email)
    .reverse()
    .find((m) => m.text.includes(contains));
  if (!mail) throw new Error(`no mail to ${email} containing ${contains}`);
  const url = mail.text.split(/\s+/).find((w) => w.startsWith('http') && w.includes(contains));
  if (!url) throw new Error(`no link containing ${contains}`);
  return url;
}

export async function totpCode(t: TestApp, secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
}

export interface Actor {
  id: string;
  email: string;
  password: string;
  token: string;
  secret: string;
  ip: string;
  session: SessionPayload;
  companyId: string | null;
}

/** Password, then TOTP: sets 2FA up on the first login, uses a fresh time step later. */
export async function logIn(t: TestApp, email: string, password: string, secret?: string, ip = randomIp()) {
  const login = await t.api('POST', '/account/login', { body: { email, password }, ip });
  if (login.status !== 200) throw new Error(`login failed ${login.status} ${JSON.stringify(login.body)}`);
  const s: string = login.body.data.secret ?? secret;
  if (!s) throw new Error('no TOTP secret known');
  if (!login.body.data.secret) t.clock.advance(30_000);
  const path = login.body.data.qrcode ? '/account/auth-confirm' : '/account/login-confirm';
  const res = await t.api('POST', path, { body: { token: login.body.data.token, code: await totpCode(t, s) }, ip });
  if (res.status !== 200) throw new Error(`confirm failed ${res.status} ${JSON.stringify(res.body)}`);
  return { session: res.body.data as SessionPayload, secret: s, token: res.body.data.access_token as string };
}

export async function verifyByMail(t: TestApp, email: string) {
  const link = linkFrom(t, email, '/verify-email');
  const res = await fetch(link.replace(/^https?:\/\/[^/]+/, t.url), { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`verify failed ${res.status}`);
}

/** A six-digit code that is valid in none of the steps the server accepts right now. */
export async function wrongCode(t: TestApp, secret: string): Promise<string> {
  const epoch = Math.floor(t.clock.now().getTime() / 1000);
  const valid = new Set(await Promise.all([-30, 0, 30].map((d) => generate({ secret, epoch: epoch + d }))));
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/**
 * Rate limits count in fixed windows; move the clock to just after the start of the next one
 * so a test's failures cannot straddle a window boundary.
 */
export function startFreshWindow(t: TestApp, seconds = t.ctx.config.rateLimit.windowSeconds) {
  const w = seconds * 1000;
  const now = t.clock.now().getTime();
  t.clock.advance(w - (now % w) + 1000);
}

/** The decoded identity of the newest invitation mailed to this address. */
export function invitationFor(
  t: TestApp,
  email: string,
): { email: string; phone: string; fullname: string; token: string } {
  const link = linkFrom(t, email, '/onboarding/invited');
  return JSON.parse(Buffer.from(new URL(link).searchParams.get('identity')!, 'base64').toString());
}

/** Registers an Individual and opens the verification link, without logging in. */
export async function registerIndividual(
  t: TestApp,
  opts: { verify?: boolean; fields?: Record<string, unknown> } = {},
): Promise<{ email: string; ip: string }> {
  const email = uniqueEmail('ind');
  const ip = randomIp();
  const reg = await t.api('POST', '/account/individuals/register', {
    ip,
    body: {
      first_name: 'Abena',
      last_name: 'Asante',
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      phone_number: '+233241112233',
      ...opts.fields,
    },
  });
  if (reg.status !== 201) throw new Error(`register failed ${reg.status} ${JSON.stringify(reg.body)}`);
  if (opts.verify ?? true) await verifyByMail(t, email);
  return { email, ip };
}

export async function newIndividual(t: TestApp, fields: Record<string, unknown> = {}): Promise<Actor> {
  const email = uniqueEmail('ind');
  const ip = randomIp();
  const reg = await t.api('POST', '/account/individuals/register', {
    ip,
    body: {
      first_name: 'Abena',
      last_name: 'Asante',
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      phone_number: '+233241112233',
      ...fields,
    },
  });
  if (reg.status !== 201) throw new Error(`register failed ${reg.status} ${JSON.stringify(reg.body)}`);
  await verifyByMail(t, email);
  const { session, secret, token } = await logIn(t, email, PASSWORD, undefined, ip);
  return { id: session.user.id, email, password: PASSWORD, token, secret, ip, session, companyId: null };
}

export async function newCompany(t: TestApp): Promise<Actor> {
  const email = uniqueEmail('co');
  const ip = randomIp();
  const reg = await t.api('POST', '/account/companies/register', {
    ip,
    body: {
      first_name: 'Kwame',
      last_name: 'Nkrumah',
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      company_name: 'Volta Trading Ltd',
      company_website: 'https://volta.example.com',
      company_email: uniqueEmail('finance'),
      company_phone: '+233302111222',
    },
  });
  if (reg.status !== 201) throw new Error(`register failed ${reg.status} ${JSON.stringify(reg.body)}`);
  await verifyByMail(t, email);
  const { session, secret, token } = await logIn(t, email, PASSWORD, undefined, ip);
  return { id: session.user.id, email, password: PASSWORD, token, secret, ip, session, companyId: session.company!.id };
}

/** A company user invited by `admin` who accepted and logged in. */
export async function newCompanyMember(t: TestApp, admin: Actor, role: 'admin' | 'user' = 'user'): Promise<Actor> {
  const email = uniqueEmail('member');
  const res = await t.api('POST', `/company/users/${admin.companyId}`, {
    token: admin.token,
    body: { first_name: 'Esi', last_name: 'Badu', phone_number: '+233245556677', email, role },
  });
  if (res.status !== 201) throw new Error(`invite failed ${res.status} ${JSON.stringify(res.body)}`);
  const link = linkFrom(t, email, '/onboarding/invited');
  const identity = JSON.parse(Buffer.from(new URL(link).searchParams.get('identity')!, 'base64').toString());
  const ip = randomIp();
  const acc = await t.api('POST', '/account/accept-invite', {
    ip,
    body: {
      first_name: 'Esi',
      last_name: 'Badu',
      password: PASSWORD,
      token: identity.token,
      phone_number: '+233245556677',
    },
  });
  if (acc.status !== 200) throw new Error(`accept failed ${acc.status} ${JSON.stringify(acc.body)}`);
  const { session, secret, token } = await logIn(t, email, PASSWORD, undefined, ip);
  return { id: session.user.id, email, password: PASSWORD, token, secret, ip, session, companyId: admin.companyId };
}

export async function newStaff(t: TestApp, role: StaffRole = 'Admin'): Promise<Actor> {
  const email = uniqueEmail(role === 'Admin' ? 'admin' : role === 'Super-Admin' ? 'super' : role.toLowerCase());
  await createStaff(t.ctx.db, { email, password: PASSWORD, role, firstName: 'Staff', lastName: role });
  const { session, secret, token } = await logIn(t, email, PASSWORD);
  return { id: session.user.id, email, password: PASSWORD, token, secret, ip: randomIp(), session, companyId: null };
}
