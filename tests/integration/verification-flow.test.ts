import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiAuditEntry } from '@shared/contract';
import { auditLog, momoSettings, uploads, verifications } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  logIn,
  newCompany,
  newCompanyMember,
  newIndividual,
  newStaff,
  randomIp,
  totpCode,
} from './support/actors';
import { newCard } from './support/cards';
import { JPEG_1PX, PDF_MINI, PNG_1PX, form } from './support/files';
import { fundWallet } from './support/money';
import { expectAgreeing } from './support/settled';
import { decide as decideTopup, topupRow, tronTopupReady, walletOf, withMomoSettings } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The limit the product states (5 MB), independent of the server's constant. */
const FIVE_MB = 5 * 1024 * 1024;
const PENDING_MESSAGE = 'Your verification was submitted and is being reviewed.';
const VERIFIED_MESSAGE = 'Your account is already verified.';
const DEACTIVATED_LOGIN = 'This account has been deactivated. Please contact support.';

type Files = Parameters<typeof form>[1];

const multipart = (p: string, token: string, body: FormData) =>
  fetch(`${t.url}/api/v1${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body }).then(
    async (r) => ({
      status: r.status,
      body: await r.json(),
    }),
  );

const KYC_FIELDS = { id_type: 'passport', issued_id: 'G1234567' };
const KYC_FILES: Files = {
  address_proof: { data: PDF_MINI, name: 'bill.pdf' },
  selfie_image: { data: JPEG_1PX, name: 'me.jpg' },
};
const KYB_FIELDS = {
  registered_name: 'Volta Trading Ltd',
  company_profile: 'Importers of solar equipment',
  tax_number: 'C0012345',
  incorporation_date: '2015-06-30',
  operation_countries: 'GH, NG',
  publicly_listed: 'false',
};
const KYB_FILES: Files = {
  shareholder_passport: { data: PNG_1PX, name: 'passport.png' },
  incorporation_certificate: { data: PDF_MINI, name: 'cert.pdf' },
};

const submitKyc = (a: Actor, userId = a.id, files: Files = KYC_FILES, fields: Record<string, string> = KYC_FIELDS) =>
  multipart(`/individuals/kyc/${userId}`, a.token, form(fields, files));
const submitKyb = (
  a: Actor,
  companyId = a.companyId!,
  files: Files = KYB_FILES,
  fields: Record<string, string> = KYB_FIELDS,
) => multipart(`/company/kyb/${companyId}`, a.token, form(fields, files));

const profile = async (a: Actor) => {
  const res = await t.api('GET', '/individuals/profile', { token: a.token });
  expect(res.status).toBe(200);
  return res.body.data;
};

/** An Individual with a name no other test uses, so staff can find them by name. */
const uniqueIndividual = () => newIndividual(t, { last_name: `Asante${randomUUID().slice(0, 8)}` });

/** A company renamed to a name no other test uses, so staff can find it by name. */
async function uniqueCompany(): Promise<Actor & { name: string }> {
  const co = await newCompany(t);
  const name = `Volta ${randomUUID().slice(0, 8)} Ltd`;
  const res = await t.api('PUT', `/companies/${co.companyId}`, {
    token: co.token,
    body: { company_name: name, company_website: 'https://volta.example.com', company_phone: '+233302111222' },
  });
  expect(res.status).toBe(200);
  return { ...co, name };
}

/** The verification rows staff see for a customer (newest first), by the customer's unique name. */
async function reviewRows(
  staff: Actor,
  kind: 'individual' | 'company',
  name: string,
  accountId: string,
  state?: string,
) {
  const path = kind === 'individual' ? '/verification/get-individuals' : '/verification/get-companies';
  const q = new URLSearchParams({ name, per_page: '100', ...(state ? { state } : {}) });
  const res = await t.api('GET', `${path}?${q}`, { token: staff.token });
  expect(res.status).toBe(200);
  return (res.body.data as { id: string; account_id: string; state: string; reason: string | null }[]).filter(
    (r) => r.account_id === accountId,
  );
}

async function pendingVerificationOf(staff: Actor, kind: 'individual' | 'company', name: string, accountId: string) {
  const rows = await reviewRows(staff, kind, name, accountId, 'pending');
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

const decide = (staff: Actor, id: string, decision: 'approve' | 'reject', reason?: string) =>
  t.api('POST', '/verification/decide', {
    token: staff.token,
    body: { verification_id: id, decision, ...(reason === undefined ? {} : { reason }) },
  });

/** The state staff see in the customer lists (Verified, In-review, Unverified, Deactivated). */
async function listedState(staff: Actor, kind: 'individual' | 'company', search: string, id: string) {
  const res = await t.api(
    'GET',
    `/${kind === 'individual' ? 'individuals' : 'companies'}?name=${encodeURIComponent(search)}&per_page=100`,
    { token: staff.token },
  );
  expect(res.status).toBe(200);
  const row = (res.body.data as { id: string; state: string }[]).find((r) => r.id === id);
  expect(row, `${kind} ${id} in the staff list`).toBeDefined();
  return row!.state;
}

const storedFor = async (accountId: string) => {
  const [v] = await t.ctx.db.select({ n: count() }).from(verifications).where(eq(verifications.accountId, accountId));
  const [u] = await t.ctx.db.select({ n: count() }).from(uploads).where(eq(uploads.accountId, accountId));
  return { verifications: v!.n, uploads: u!.n };
};

const filesOnDisk = () => {
  const dir = path.join(t.ctx.config.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

/** Logs the actor in again on a fresh TOTP step (a code is accepted once). */
async function relogin(a: Actor) {
  t.clock.advance(30_000);
  const s = await logIn(t, a.email, PASSWORD, a.secret);
  a.token = s.token;
  a.session = s.session;
}

describe('KYC for an Individual', () => {
  it('goes pending on submission, refuses a second one while pending, and approval makes the account Verified for customer and staff', async () => {
    const staff = await newStaff(t, 'Admin');
    const a = await uniqueIndividual();
    const name = `${a.session.user.first_name} ${a.session.user.last_name}`;
    expect((await profile(a)).user.state).toBe('Unverified');
    expect(await listedState(staff, 'individual', a.email, a.id)).toBe('Unverified');

    const res = await submitKyc(a);
    expect(res.status).toBe(201);
    expect(res.body.data).toBe('KYC submitted. We will review it and let you know by email.');
    const p = await profile(a);
    expect(p.user.state).toBe('pending');
    expect(p.verification).toMatchObject({ state: 'pending', reason: null, decided_at: null });
    expect(await listedState(staff, 'individual', a.email, a.id)).toBe('In-review');

    // A second submission while the first is under review is refused and stores nothing.
    const before = await storedFor(a.id);
    const again = await submitKyc(a);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(PENDING_MESSAGE);
    expect(await storedFor(a.id)).toEqual(before);

    const id = await pendingVerificationOf(staff, 'individual', name, a.id);
    const approved = await decide(staff, id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body.data).toEqual({ message: 'Verification approved.', state: 'approved' });

    const after = await profile(a);
    expect(after.user.state).toBe('Verified');
    expect(after.verification).toMatchObject({ state: 'approved', reason: null, decided_at: expect.any(String) });
    expect(await listedState(staff, 'individual', a.email, a.id)).toBe('Verified');
    const detail = await t.api('GET', `/verification/details/${id}`, { token: staff.token });
    expect(detail.body.data).toMatchObject({
      state: 'approved',
      verification_state: 'Verified',
      decided_by: 'Staff Admin',
    });
    expect((await reviewRows(staff, 'individual', name, a.id, 'approved')).map((r) => r.id)).toEqual([id]);

    // Verified: nothing more to submit, and the decision cannot be taken again.
    const verified = await submitKyc(a);
    expect(verified.status).toBe(409);
    expect(verified.body.message).toBe(VERIFIED_MESSAGE);
    expect(await storedFor(a.id)).toEqual(before);
    const twice = await decide(staff, id, 'reject', 'Changed my mind');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This verification was already approved.');
    expect((await profile(a)).user.state).toBe('Verified');
  });

  it('rejection with a reason leaves the account Unverified with the reason shown; a resubmission is accepted and pending again', async () => {
    const staff = await newStaff(t, 'Admin');
    const a = await uniqueIndividual();
    const name = `${a.session.user.first_name} ${a.session.user.last_name}`;
    expect((await submitKyc(a)).status).toBe(201);
    const first = await pendingVerificationOf(staff, 'individual', name, a.id);

    // A rejection needs a reason; without one nothing changes.
    const noReason = await decide(staff, first, 'reject');
    expect(noReason.status).toBe(422);
    expect(noReason.body.error.reason).toEqual(['A reason is required to reject a verification']);
    expect((await profile(a)).user.state).toBe('pending');

    const rej = await decide(staff, first, 'reject', 'The selfie is blurred');
    expect(rej.status).toBe(200);
    expect(rej.body.data).toEqual({ message: 'Verification rejected.', state: 'rejected' });
    const p = await profile(a);
    expect(p.user.state).toBe('Unverified');
    expect(p.verification).toMatchObject({
      state: 'rejected',
      reason: 'The selfie is blurred',
      decided_at: expect.any(String),
    });
    expect(await listedState(staff, 'individual', a.email, a.id)).toBe('Unverified');
    expect(await reviewRows(staff, 'individual', name, a.id, 'rejected')).toEqual([
      expect.objectContaining({ id: first, reason: 'The selfie is blurred' }),
    ]);
    await t.ctx.background.settled(); // the mail leaves after the commit, from the notification outbox
    expect(t.mails.some((m) => m.to === a.email && m.text.includes('The selfie is blurred'))).toBe(true);

    const again = await submitKyc(a, a.id, {
      address_proof: { data: PDF_MINI, name: 'bill2.pdf' },
      selfie_image: { data: PNG_1PX, name: 'sharp.png' },
    });
    expect(again.status).toBe(201);
    const p2 = await profile(a);
    expect(p2.user.state).toBe('pending');
    expect(p2.verification).toMatchObject({ state: 'pending', reason: null });
    expect(await listedState(staff, 'individual', a.email, a.id)).toBe('In-review');
    const second = await pendingVerificationOf(staff, 'individual', name, a.id);
    expect(second).not.toBe(first);
    const detail = (await t.api('GET', `/verification/details/${second}`, { token: staff.token })).body.data;
    expect(detail.history.map((h: { id: string; state: string }) => [h.id, h.state])).toEqual([
      [second, 'pending'],
      [first, 'rejected'],
    ]);
    expect(detail.documents.map((d: { name: string }) => d.name).sort()).toEqual(['bill2.pdf', 'sharp.png']);

    expect((await decide(staff, second, 'approve')).status).toBe(200);
    expect((await profile(a)).user.state).toBe('Verified');
  });
});

describe('KYB for a company', () => {
  it('the Company-Admin submits, every member sees pending; approval makes the company Verified for its users and for staff', async () => {
    const staff = await newStaff(t, 'Admin');
    const co = await uniqueCompany();
    const member = await newCompanyMember(t, co, 'user');
    const companyEmail = co.session.company!.company_email;

    // Only the company's admin may submit the KYB.
    const byMember = await submitKyb(member);
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe('Only a company admin can submit the KYB.');
    expect(await storedFor(co.companyId!)).toEqual({ verifications: 0, uploads: 0 });

    const res = await submitKyb(co);
    expect(res.status).toBe(201);
    expect(res.body.data).toBe('KYB submitted. We will review it and let you know by email.');
    for (const who of [co, member]) {
      const p = await profile(who);
      expect(p.user.state).toBe('pending');
      expect(p.company.state).toBe('pending');
      expect(p.verification).toMatchObject({ state: 'pending' });
    }
    expect(await listedState(staff, 'company', companyEmail, co.companyId!)).toBe('In-review');

    const again = await submitKyb(co);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(PENDING_MESSAGE);

    const id = await pendingVerificationOf(staff, 'company', co.name, co.companyId!);
    const detail = (await t.api('GET', `/verification/details/${id}`, { token: staff.token })).body.data;
    expect(detail).toMatchObject({ account_type: 'company', company_name: co.name, verification_state: 'pending' });
    expect(detail.verifications).toMatchObject({
      registered_name: 'Volta Trading Ltd',
      tax_number: 'C0012345',
      operation_countries: 'GH, NG',
      publicly_listed: 0,
    });
    expect(detail.documents.map((d: { field: string }) => d.field).sort()).toEqual([
      'incorporation_certificate',
      'shareholder_passport',
    ]);

    expect((await decide(staff, id, 'approve')).status).toBe(200);
    for (const who of [co, member]) {
      const p = await profile(who);
      expect(p.user.state).toBe('Verified');
      expect(p.company.state).toBe('Verified');
    }
    expect(await listedState(staff, 'company', companyEmail, co.companyId!)).toBe('Verified');
    const verified = await submitKyb(co);
    expect(verified.status).toBe(409);
    expect(verified.body.message).toBe(VERIFIED_MESSAGE);
  });

  it('rejection shows the reason to the company’s users; a new KYB is accepted and pending again', async () => {
    const staff = await newStaff(t, 'Super-Admin');
    const co = await uniqueCompany();
    const member = await newCompanyMember(t, co, 'user');
    expect((await submitKyb(co)).status).toBe(201);
    const first = await pendingVerificationOf(staff, 'company', co.name, co.companyId!);
    expect((await decide(staff, first, 'reject', 'The tax number does not match the certificate')).status).toBe(200);
    for (const who of [co, member]) {
      const p = await profile(who);
      expect(p.user.state).toBe('Unverified');
      expect(p.verification).toMatchObject({
        state: 'rejected',
        reason: 'The tax number does not match the certificate',
      });
    }
    expect(await listedState(staff, 'company', co.session.company!.company_email, co.companyId!)).toBe('Unverified');

    const again = await submitKyb(co, co.companyId!, KYB_FILES, { ...KYB_FIELDS, tax_number: 'C0054321' });
    expect(again.status).toBe(201);
    expect((await profile(member)).user.state).toBe('pending');
    const second = await pendingVerificationOf(staff, 'company', co.name, co.companyId!);
    expect(second).not.toBe(first);
    expect(
      (await t.api('GET', `/verification/details/${second}`, { token: staff.token })).body.data.verifications
        .tax_number,
    ).toBe('C0054321');
    await expectKeptTotals(staff);
  });
});

/** Each list's total by state alone (or none), from the kept count (migration 0054), equals a count of the rows. */
async function expectKeptTotals(staff: Actor) {
  for (const kind of ['individual', 'company'] as const)
    for (const state of [undefined, 'pending', 'approved', 'rejected']) {
      const path = kind === 'individual' ? '/verification/get-individuals' : '/verification/get-companies';
      const res = await t.api('GET', `${path}${state ? `?state=${state}` : ''}`, { token: staff.token });
      const [row] = await t.ctx.db
        .select({ n: count() })
        .from(verifications)
        .where(and(eq(verifications.accountType, kind), state ? eq(verifications.state, state) : undefined));
      expect([kind, state, res.body.total]).toEqual([kind, state, row!.n]);
    }
}

describe('an upload over the size limit', () => {
  const tooBig = () => Buffer.concat([PNG_1PX, Buffer.alloc(FIVE_MB + 1 - PNG_1PX.length)]);

  it('is refused on its field and stores nothing (KYC)', async () => {
    const a = await uniqueIndividual();
    const files = filesOnDisk();
    const res = await submitKyc(a, a.id, {
      address_proof: { data: tooBig(), name: 'huge.png' },
      selfie_image: { data: JPEG_1PX, name: 'me.jpg' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ address_proof: ['The file is larger than 5 MB'] });
    expect(res.body.message).toBe('The file is larger than 5 MB');
    expect(await storedFor(a.id)).toEqual({ verifications: 0, uploads: 0 });
    expect(filesOnDisk()).toBe(files);
    const p = await profile(a);
    expect(p.user.state).toBe('Unverified');
    expect(p.verification).toBeNull();

    // The account may still submit, and a file of exactly 5 MB is within the limit.
    const atLimit = Buffer.concat([PNG_1PX, Buffer.alloc(FIVE_MB - PNG_1PX.length)]);
    const ok = await submitKyc(a, a.id, {
      address_proof: { data: atLimit, name: 'big.png' },
      selfie_image: { data: JPEG_1PX, name: 'me.jpg' },
    });
    expect(ok.status).toBe(201);
    expect(await storedFor(a.id)).toEqual({ verifications: 1, uploads: 2 });
  });

  it('is refused on its field and stores nothing (KYB)', async () => {
    const co = await uniqueCompany();
    const res = await submitKyb(co, co.companyId!, {
      shareholder_passport: { data: PNG_1PX, name: 'p.png' },
      license: { data: tooBig(), name: 'license.png' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ license: ['The file is larger than 5 MB'] });
    expect(await storedFor(co.companyId!)).toEqual({ verifications: 0, uploads: 0 });
    expect((await profile(co)).company.state).toBe('Unverified');
  });
});

describe('submitting for another account', () => {
  it('is 404 for another Individual’s id or another company’s id, and changes nothing for either', async () => {
    const a = await uniqueIndividual();
    const b = await uniqueIndividual();
    const co = await uniqueCompany();
    const other = await uniqueCompany();
    const staff = await newStaff(t, 'Admin');

    const kyc = await submitKyc(a, b.id);
    expect(kyc.status).toBe(404);
    expect(kyc.body.message).toBe('The account was not found.');
    const kyb = await submitKyb(co, other.companyId!);
    expect(kyb.status).toBe(404);
    expect(kyb.body.message).toBe('The company was not found.');
    // Nor across kinds: an Individual's id is no company, a company admin is no Individual.
    expect((await submitKyb(a, co.companyId!)).status).toBe(404);
    expect((await submitKyc(co, co.id)).status).toBe(404);
    expect((await submitKyc(co, a.id)).status).toBe(404);
    // Staff do not submit on a customer's behalf either: a customer's own operation (issue 33's table).
    expect((await submitKyc(staff, a.id)).status).toBe(403);
    expect((await submitKyb(staff, co.companyId!)).status).toBe(403);
    expect((await submitKyc(a, randomUUID())).status).toBe(404);

    for (const who of [a, b, co, other]) {
      expect(await storedFor(who.companyId ?? who.id)).toEqual({ verifications: 0, uploads: 0 });
      expect(await storedFor(who.id)).toEqual({ verifications: 0, uploads: 0 });
      const p = await profile(who);
      expect(p.user.state).toBe('Unverified');
      expect(p.verification).toBeNull();
    }
  });
});

describe('deactivating and reactivating a company', () => {
  it('ends its users’ sessions and refuses their logins; reactivation lets them in and keeps the verification state', async () => {
    const staff = await newStaff(t, 'Admin');
    const co = await uniqueCompany();
    const member = await newCompanyMember(t, co, 'user');
    const companyEmail = co.session.company!.company_email;
    expect((await submitKyb(co)).status).toBe(201);
    expect(
      (await decide(staff, await pendingVerificationOf(staff, 'company', co.name, co.companyId!), 'approve')).status,
    ).toBe(200);
    expect((await profile(co)).company.state).toBe('Verified');

    // A customer cannot deactivate a company, not even their own.
    expect((await t.api('DELETE', `/companies/${co.companyId}`, { token: co.token })).status).toBe(403);
    expect(
      (await t.api('POST', '/company/status', { token: co.token, body: { account: co.companyId, status: 'activate' } }))
        .status,
    ).toBe(403);
    expect((await t.api('DELETE', `/companies/${randomUUID()}`, { token: staff.token })).status).toBe(404);

    // A login that passed the password step before the deactivation cannot finish after it.
    t.clock.advance(30_000);
    const midLogin = await t.api('POST', '/account/login', {
      body: { email: member.email, password: PASSWORD },
      ip: randomIp(),
    });
    expect(midLogin.status).toBe(200);

    const off = await t.api('DELETE', `/companies/${co.companyId}`, { token: staff.token });
    expect(off.status).toBe(202);
    expect(off.body.data).toBe('Company Account deactivated.');
    for (const who of [co, member])
      expect((await t.api('GET', '/individuals/profile', { token: who.token })).status).toBe(401);
    for (const who of [co, member]) {
      const login = await t.api('POST', '/account/login', {
        body: { email: who.email, password: PASSWORD },
        ip: randomIp(),
      });
      expect(login.status).toBe(403);
      expect(login.body.message).toBe(DEACTIVATED_LOGIN);
    }
    const confirm = await t.api('POST', '/account/login-confirm', {
      body: { token: midLogin.body.data.token, code: await totpCode(t, member.secret) },
      ip: randomIp(),
    });
    expect(confirm.status).toBe(403);
    expect(confirm.body.message).toBe(DEACTIVATED_LOGIN);
    expect(await listedState(staff, 'company', companyEmail, co.companyId!)).toBe('Deactivated');
    const listed = await t.api('GET', `/companies?state=Deactivated&name=${encodeURIComponent(companyEmail)}`, {
      token: staff.token,
    });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([co.companyId]);
    const twice = await t.api('DELETE', `/companies/${co.companyId}`, { token: staff.token });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This company is already deactivated.');

    const on = await t.api('POST', '/company/status', {
      token: staff.token,
      body: { account: co.companyId, status: 'activate' },
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toBe('Company Account reactivated.');
    const onAgain = await t.api('POST', '/company/status', {
      token: staff.token,
      body: { account: co.companyId, status: 'activate' },
    });
    expect(onAgain.status).toBe(409);
    expect(onAgain.body.message).toBe('This company is already active.');

    // The old sessions stay ended; a new login works and the company is still Verified.
    expect((await t.api('GET', '/individuals/profile', { token: co.token })).status).toBe(401);
    await relogin(co);
    await relogin(member);
    for (const who of [co, member]) {
      const p = await profile(who);
      expect(p.user.state).toBe('Verified');
      expect(p.company.state).toBe('Verified');
      expect(p.verification).toMatchObject({ state: 'approved' });
    }
    expect(await listedState(staff, 'company', companyEmail, co.companyId!)).toBe('Verified');
    const kyb = await submitKyb(co);
    expect(kyb.status).toBe(409);
    expect(kyb.body.message).toBe(VERIFIED_MESSAGE);
  });

  it('keeps a pending KYB pending across deactivation and reactivation', async () => {
    const staff = await newStaff(t, 'Admin');
    const co = await uniqueCompany();
    expect((await submitKyb(co)).status).toBe(201);
    expect((await t.api('DELETE', `/companies/${co.companyId}`, { token: staff.token })).status).toBe(202);
    expect(
      (
        await t.api('POST', '/company/status', {
          token: staff.token,
          body: { account: co.companyId, status: 'activate' },
        })
      ).status,
    ).toBe(200);
    await relogin(co);
    expect((await profile(co)).company.state).toBe('pending');
    expect(await listedState(staff, 'company', co.session.company!.company_email, co.companyId!)).toBe('In-review');
    expect(await pendingVerificationOf(staff, 'company', co.name, co.companyId!)).toEqual(expect.any(String));
  });
});

describe('the audit trail of staff actions', () => {
  const trail = async (sa: Actor, query = '') => {
    const res = await t.api('GET', `/audit-logs?actor=${encodeURIComponent(sa.email)}&per_page=100${query}`, {
      token: sa.token,
    });
    expect(res.status).toBe(200);
    return res.body.data as ApiAuditEntry[];
  };

  it('totals the whole trail from its kept count, as counting it would, however many rows a statement adds', async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const counted = async () => (await t.ctx.db.select({ n: count() }).from(auditLog))[0]!.n;
    const listed = async (query = '') => {
      const res = await t.api('GET', `/audit-logs?per_page=1${query}`, { token: sa.token });
      expect(res.status).toBe(200);
      return res.body.total as number;
    };
    await expectAgreeing(listed, counted);
    const row = (n: number, action = 'test.kept_count', objectType = 'test') => ({
      id: randomUUID(),
      actorId: sa.id,
      actorEmail: sa.email,
      actorRole: 'Super-Admin',
      action,
      objectType,
      objectId: String(n),
      status: 200,
    });
    await t.ctx.db.insert(auditLog).values([row(1), row(2), row(3, 'Test.Other'), row(5, 'test.kept_count', 'Test')]);
    await t.ctx.db.insert(auditLog).values(row(4));
    await expectAgreeing(listed, counted);
    // by action prefix, case-insensitive, with LIKE's wildcards taken as they are typed
    expect(await listed('&action=test.')).toBe(5);
    expect(await listed('&action=TEST.kept')).toBe(4);
    expect(await listed('&action=test.other')).toBe(1);
    expect(await listed('&action=test_')).toBe(0);
    expect(await listed('&action=%25kept')).toBe(0);
    // by object type, exactly as typed, alone or with the action's prefix
    expect(await listed('&object_type=test')).toBe(4);
    expect(await listed('&object_type=Test')).toBe(1);
    expect(await listed('&object_type=tes')).toBe(0);
    expect(await listed('&object_type=test&action=test.k')).toBe(3);
    expect(await listed('&object_type=Test&action=test.other')).toBe(0);
    // with any other filter the rows are counted
    expect(await listed('&object_type=test&object_id=2')).toBe(1);
    expect(await listed(`&object_type=test&actor=${encodeURIComponent(sa.email)}`)).toBe(4);
    // every object type's total, as the trail holds it now, whoever wrote it
    const types = await t.ctx.db.selectDistinct({ type: auditLog.objectType }).from(auditLog);
    for (const { type } of types)
      await expectAgreeing(
        () => listed(`&object_type=${encodeURIComponent(type)}`),
        async () => (await t.ctx.db.select({ n: count() }).from(auditLog).where(eq(auditLog.objectType, type)))[0]!.n,
        type,
      );
  });

  it('records top-up decisions, card flags, verification, fee and momo edits, company status and admin changes, with their objects', {
    timeout: 180_000,
  }, async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const ind = await uniqueIndividual();
    const name = `${ind.session.user.first_name} ${ind.session.user.last_name}`;

    // Top-ups: one approved, one denied.
    const up1 = await tronTopupReady(t, ind, '20.00');
    const up2 = await tronTopupReady(t, ind, '30.00');
    expect((await decideTopup(t, sa, up1.id, 'approve')).status).toBe(200);
    expect((await decideTopup(t, sa, up2.id, 'deny', 'No such transfer on chain')).status).toBe(200);
    expect((await topupRow(t, ind, up2.reference)).state).toBe('Denied');

    // A card flagged, then unflagged.
    await fundWallet(t, walletOf(ind), 10_000);
    const card = (await newCard(t, ind)).card;
    expect(
      (await t.api('POST', `/cards/flag/${card.id}`, { token: sa.token, body: { reason: 'Unusual spending' } })).status,
    ).toBe(200);
    expect(
      (
        await t.api('POST', `/cards/unflag/${card.id}`, {
          token: sa.token,
          body: { reason: 'Checked with the customer' },
        })
      ).status,
    ).toBe(200);

    // A KYC approved.
    expect((await submitKyc(ind)).status).toBe(201);
    const vid = await pendingVerificationOf(sa, 'individual', name, ind.id);
    expect((await decide(sa, vid, 'approve')).status).toBe(200);

    // A fee overridden for one company.
    const co = await uniqueCompany();
    const fees = await t.api('GET', '/fees?for=default&per_page=100', { token: sa.token });
    const maintenance = (fees.body.data as { id: string; name: string }[]).find((f) => f.name === 'card-maintenance')!;
    expect(
      (
        await t.api('PUT', `/fees/${maintenance.id}`, {
          token: sa.token,
          body: { value: '1.50', for: 'company', for_id: co.companyId },
        })
      ).status,
    ).toBe(200);

    // The momo settings saved (and put back as they were).
    await withMomoSettings(async () => {
      const [saved] = await t.ctx.db.select().from(momoSettings).where(eq(momoSettings.id, 1));
      try {
        const res = await t.api('PUT', '/param/momo-sync', {
          token: sa.token,
          body: {
            momo_name: 'Cardwallet Payments',
            momo_number: '+233240001111',
            network: 'MTN',
            rate: '15.50',
            flat_fee: '5.00',
            momo_alert_emails: ['ops@example.com'],
            entity_users: [],
          },
        });
        expect(res.status).toBe(200);
      } finally {
        await t.ctx.db.update(momoSettings).set(saved!).where(eq(momoSettings.id, 1));
      }
    });

    // A company deactivated and reactivated.
    expect((await t.api('DELETE', `/companies/${co.companyId}`, { token: sa.token })).status).toBe(202);
    expect(
      (await t.api('POST', '/company/status', { token: sa.token, body: { account: co.companyId, status: 'activate' } }))
        .status,
    ).toBe(200);

    // An admin updated (with a new password) and deleted.
    const admin = await newStaff(t, 'Admin');
    const upd = await t.api('PUT', `/account/admins/${admin.id}`, {
      token: sa.token,
      body: {
        first_name: 'Kojo',
        last_name: 'Mensah',
        email: admin.email,
        password: 'An0ther!Passw0rd',
        confirm_password: 'An0ther!Passw0rd',
      },
    });
    expect(upd.status).toBe(200);
    expect((await t.api('DELETE', `/account/admins/${admin.id}`, { token: sa.token })).status).toBe(202);

    // Refused actions are not audited.
    expect((await decide(sa, vid, 'approve')).status).toBe(409);
    expect((await t.api('DELETE', `/account/admins/${admin.id}`, { token: sa.token })).status).toBe(404);
    expect((await decideTopup(t, sa, up1.id, 'approve')).status).toBe(409);

    const rows = await trail(sa);
    const seen = rows.map((r) => [r.action, r.object_type, r.object_id, r.status]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['topup.approve', 'topup', up1.id, 200],
        ['topup.deny', 'topup', up2.id, 200],
        ['card.flag', 'card', card.id, 200],
        ['card.unflag', 'card', card.id, 200],
        ['verification.approve', 'verification', vid, 200],
        ['fee.override', 'fee', `${maintenance.id}@${co.companyId}`, 200],
        ['momo.update', 'momo-settings', '1', 200],
        ['company.deactivate', 'company', co.companyId, 202],
        ['company.reactivate', 'company', co.companyId, 200],
        ['admin.update', 'admin', admin.id, 200],
        ['admin.delete', 'admin', admin.id, 202],
      ]),
    );
    // Exactly one row each: the refused repeats above left none.
    expect(rows.filter((r) => r.action === 'verification.approve')).toHaveLength(1);
    expect(rows.filter((r) => r.action === 'admin.delete')).toHaveLength(1);
    expect(rows.filter((r) => r.action === 'topup.approve')).toHaveLength(1);
    expect(
      rows.every((r) => r.actor_id === sa.id && r.actor_email === sa.email && r.actor_role === 'Super-Admin'),
    ).toBe(true);

    // Details keep what was asked, never a password.
    const deny = rows.find((r) => r.action === 'topup.deny')!;
    expect(deny.details).toMatchObject({ reason: 'No such transfer on chain', route: 'POST /wallet/approve-topup' });
    const adminUpdate = rows.find((r) => r.action === 'admin.update')!;
    expect(adminUpdate.details).toMatchObject({ first_name: 'Kojo', last_name: 'Mensah' });
    expect(Object.keys(adminUpdate.details).filter((k) => /pass/i.test(k))).toEqual([]);
    expect(JSON.stringify(adminUpdate.details)).not.toContain('An0ther!Passw0rd');

    // Filters: by action prefix and by object.
    expect((await trail(sa, '&action=card.')).map((r) => r.action).sort()).toEqual(['card.flag', 'card.unflag']);
    expect((await trail(sa, `&object_type=company&object_id=${co.companyId}`)).map((r) => r.action)).toEqual([
      'company.reactivate',
      'company.deactivate',
    ]);
  });
});

describe('who may review verifications and read the audit trail', () => {
  it('customers get 403 on the staff verification endpoints; an Admin may review', async () => {
    const a = await uniqueIndividual();
    const co = await uniqueCompany();
    const member = await newCompanyMember(t, co, 'user');
    const admin = await newStaff(t, 'Admin');
    const name = `${a.session.user.first_name} ${a.session.user.last_name}`;
    expect((await submitKyc(a)).status).toBe(201);
    const id = await pendingVerificationOf(admin, 'individual', name, a.id);

    for (const who of [a, co, member]) {
      expect((await t.api('GET', '/verification/get-individuals', { token: who.token })).status).toBe(403);
      expect((await t.api('GET', '/verification/get-companies', { token: who.token })).status).toBe(403);
      expect((await t.api('GET', `/verification/details/${id}`, { token: who.token })).status).toBe(403);
      expect((await decide(who, id, 'approve')).status).toBe(403);
      expect((await t.api('DELETE', `/individuals/${a.id}`, { token: who.token })).status).toBe(403);
    }
    expect((await t.api('GET', '/verification/get-individuals')).status).toBe(401);
    expect(
      (await t.api('POST', '/verification/decide', { body: { verification_id: id, decision: 'approve' } })).status,
    ).toBe(401);
    // None of that decided anything.
    expect((await profile(a)).user.state).toBe('pending');

    const ok = await decide(admin, id, 'reject', 'The address proof is older than three months');
    expect(ok.status).toBe(200);
    expect((await profile(a)).verification).toMatchObject({
      state: 'rejected',
      reason: 'The address proof is older than three months',
    });
  });

  it('the audit trail is for the Super-Admin only: an Admin and customers get 403, no token 401', async () => {
    const admin = await newStaff(t, 'Admin');
    const a = await newIndividual(t);
    const co = await newCompany(t);
    for (const who of [admin, a, co]) {
      const res = await t.api('GET', '/audit-logs', { token: who.token });
      expect(res.status).toBe(403);
      expect((await t.api('GET', '/audit-logs?format=csv', { token: who.token })).status).toBe(403);
    }
    expect((await t.api('GET', '/audit-logs')).status).toBe(401);
    const sa = await newStaff(t, 'Super-Admin');
    expect((await t.api('GET', '/audit-logs', { token: sa.token })).status).toBe(200);
  });
});
