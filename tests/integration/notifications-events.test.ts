import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiNotification, NotificationType } from '@shared/contract';
import { users, verifications } from '../../server/db/schema';
import { cardMaintenance } from '../../server/jobs/card-jobs';
import { endCard } from '../../server/modules/cards/end';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff, uniqueEmail } from './support/actors';
import { charge, newCard, relogin, setClock, verifyAccount } from './support/cards';
import { JPEG_1PX, PDF_MINI, PNG_1PX, form } from './support/files';
import { fundWallet } from './support/money';
import {
  APPROVAL_NOTE,
  decide,
  makeMomoAgent,
  startTopup,
  topupRow,
  tronTopupReady,
  walletOf,
  withMomoSettings,
} from './support/wallet';

/**
 * Each event notifies exactly the people it concerns, once. The maintenance job acts on every card
 * of the database and PostgreSQL test files share one: this file lives in 1994, so its cards are
 * the only ones created before the period it charges.
 */
let t: TestApp;
let staff: Actor[];
let individual: Actor;
let company: { admin: Actor; secondAdmin: Actor; user: Actor };
beforeAll(async () => {
  t = await startTestApp();
  setClock(t, '1994-03-10T09:00:00Z');
  staff = [await newStaff(t), await newStaff(t, 'Super-Admin')];
  individual = await newIndividual(t);
  const admin = await newCompany(t);
  company = {
    admin,
    secondAdmin: await newCompanyMember(t, admin, 'admin'),
    user: await newCompanyMember(t, admin, 'user'),
  };
});
afterAll(() => t.close());

const SLOW = 120_000;

async function inbox(a: Actor): Promise<ApiNotification[]> {
  const res = await t.api('GET', '/notifications?per_page=100', { token: a.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const ofType = async (a: Actor, type: NotificationType, match = '') =>
  (await inbox(a)).filter((n) => n.type === type && (n.title + n.body + (n.link ?? '')).includes(match));

/**
 * Everyone this file knows (and a test's own people), by name, with how many notifications of this
 * type (and text) they have.
 */
async function counts(type: NotificationType, match = '', more: Record<string, Actor> = {}) {
  const all: Record<string, Actor> = { individual, ...company, staff0: staff[0]!, staff1: staff[1]!, ...more };
  const out: Record<string, number> = {};
  for (const [name, a] of Object.entries(all)) out[name] = (await ofType(a, type, match)).length;
  return out;
}
const none = { individual: 0, admin: 0, secondAdmin: 0, user: 0, staff0: 0, staff1: 0 };

const multipart = (p: string, token: string, body: FormData) =>
  fetch(`${t.url}/api/v1${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body }).then(
    (r) => r.status,
  );

describe('who hears of what', () => {
  it('a transfer: every user of the receiving company, once, even when the request is retried; not the sender', {
    timeout: SLOW,
  }, async () => {
    await fundWallet(t, walletOf(individual), 10_000);
    // an invited user who never joined hears nothing
    const invited = uniqueEmail('invited');
    expect(
      (
        await t.api('POST', `/company/users/${company.admin.companyId}`, {
          token: company.admin.token,
          body: { first_name: 'Kojo', last_name: 'Owusu', phone_number: '+233245556677', email: invited, role: 'user' },
        })
      ).status,
    ).toBe(201);
    const key = randomUUID();
    const body = { wallet_id: company.admin.companyId, amount: '12.50', reference: 'Invoice 7' };
    const first = await t.api('POST', '/wallet/transfer', { token: individual.token, body, idempotencyKey: key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await t.api('POST', '/wallet/transfer', { token: individual.token, body, idempotencyKey: key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await counts('transfer_received', 'USDT 12.50')).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });
    const [n] = await ofType(company.user, 'transfer_received', 'USDT 12.50');
    expect(n).toMatchObject({ title: 'You received USDT 12.50', link: '/portal/wallet-transfers', read_at: null });
    expect(n!.body).toBe(
      `${individual.session.user.first_name} ${individual.session.user.last_name} sent USDT 12.50 to your master wallet.\nReference: Invoice 7`,
    );
    const [invitedRow] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, invited));
    expect(invitedRow).toBeDefined();

    // Money as both apps write it: currency first, thousands separated.
    await fundWallet(t, walletOf(individual), 200_000);
    const big = { wallet_id: company.admin.companyId, amount: '1250.00' };
    expect((await t.api('POST', '/wallet/transfer', { token: individual.token, body: big })).status).toBe(200);
    const [large] = await ofType(company.user, 'transfer_received', 'USDT 1,250.00');
    expect(large).toMatchObject({ title: 'You received USDT 1,250.00' });
    expect(large!.body).toContain('sent USDT 1,250.00 to your master wallet.');
  });

  it('a top-up: staff hear when it waits for review; the owner hears the decision (denied with the reason), once', {
    timeout: SLOW,
  }, async () => {
    const top = await tronTopupReady(t, company.user, '40.00');
    expect(await counts('topup_review', top.reference)).toEqual({ ...none, staff0: 1, staff1: 1 });
    const [review] = await ofType(staff[0]!, 'topup_review', top.reference);
    expect(review!.link).toContain(`/admin/wallet-loads?company_id=${company.admin.companyId}`);

    const key = randomUUID();
    const ask = () =>
      t.api('POST', '/wallet/approve-topup', {
        token: staff[0]!.token,
        body: { topup_id: top.id, action: 'approve', note: APPROVAL_NOTE },
        idempotencyKey: key,
      });
    expect((await ask()).status).toBe(200);
    expect((await ask()).headers.get('idempotent-replayed')).toBe('true');
    expect(await counts('topup_approved', top.reference)).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });

    const mine = await tronTopupReady(t, individual, '20.00');
    expect((await decide(t, staff[1]!, mine.id, 'deny', 'The hash pays another address')).status).toBe(200);
    expect(await counts('topup_denied', mine.reference)).toEqual({ ...none, individual: 1 });
    const [denied] = await ofType(individual, 'topup_denied', mine.reference);
    expect(denied!.body).toContain('Reason: The hash pays another address');
    expect(denied!.link).toBe('/portal/wallet-loads');
  });

  it('a declined card payment: every user of the company, with the reason and a link to the card', {
    timeout: SLOW,
  }, async () => {
    await verifyAccount(t, company.admin);
    await fundWallet(t, walletOf(company.admin), 20_000);
    const { card } = await newCard(t, company.user, { card_amount: '10.00' });
    const res = await charge(t, staff[0]!, card.id, '75.00', 'Kumasi Electronics');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.approved).toBe(false);
    expect(await counts('card_payment_declined', card.id)).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });
    const [n] = await ofType(company.admin, 'card_payment_declined', card.id);
    expect(n).toMatchObject({ title: 'Card payment of USD 75.00 declined', link: `/portal/prepaid-cards/${card.id}` });
    expect(n!.body).toContain('at Kumasi Electronics');
    expect(n!.body).toContain(`Reason: ${res.body.data.decline_reason}`);
    // an approved payment tells nobody
    expect((await charge(t, staff[0]!, card.id, '1.00')).body.data.approved).toBe(true);
    expect(await counts('card_payment_declined', card.id)).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });
  });

  it('the monthly maintenance fee: once per card and month, however often the job runs', {
    timeout: SLOW,
  }, async () => {
    await verifyAccount(t, individual);
    await fundWallet(t, walletOf(individual), 20_000);
    const { card } = await newCard(t, individual, { card_amount: '30.00' });
    setClock(t, '1994-04-02T01:00:00Z');
    for (const a of [individual, ...Object.values(company), ...staff]) await relogin(t, a);
    await cardMaintenance.run(t.ctx, '1994-04');
    await cardMaintenance.run(t.ctx, '1994-04');
    expect(await counts('maintenance_fee_charged', card.id)).toEqual({ ...none, individual: 1 });
    const [n] = await ofType(individual, 'maintenance_fee_charged', card.id);
    expect(n!.body).toContain('for April 1994');
  });

  it('a card terminated by the platform tells its owner; a card its owner deletes does not', {
    timeout: SLOW,
  }, async () => {
    const { card: ended } = await newCard(t, individual, { type: 'basic', card_amount: '5.00' });
    await endCard(t.ctx, null, ended.id, 'forfeit', 'Terminated: balance under USD 2.00');
    await endCard(t.ctx, null, ended.id, 'forfeit', 'Terminated: balance under USD 2.00').catch(() => undefined);
    const [n] = await ofType(individual, 'card_terminated', ended.nickname);
    expect(n!.body).toContain('Reason: balance under USD 2.00');
    expect(n!.body).toContain('The remaining USD 5.00 was forfeited.');
    expect(await counts('card_terminated', ended.nickname)).toEqual({ ...none, individual: 1 });

    const { card: own } = await newCard(t, individual, { card_amount: '5.00' });
    expect((await t.api('DELETE', `/cards/${own.id}`, { token: individual.token })).status).toBe(202);
    expect(await counts('card_terminated', own.nickname)).toEqual(none);
  });

  it('KYB: staff hear of the submission; only Company-Admins of the decision, with the reason', {
    timeout: SLOW,
  }, async () => {
    const co = await newCompany(t);
    const member = await newCompanyMember(t, co, 'user');
    const fields = {
      registered_name: 'Volta Trading Ltd',
      company_profile: 'Importers',
      tax_number: 'C0012345',
      incorporation_date: '2015-06-30',
      operation_countries: 'GH',
      publicly_listed: 'false',
    };
    const files = {
      shareholder_passport: { data: PNG_1PX, name: 'passport.png' },
      incorporation_certificate: { data: PDF_MINI, name: 'cert.pdf' },
    };
    expect(await multipart(`/company/kyb/${co.companyId}`, co.token, form(fields, files))).toBe(201);
    const [v] = await t.ctx.db
      .select()
      .from(verifications)
      .where(eq(verifications.accountId, co.companyId!))
      .orderBy(desc(verifications.createdAt));
    for (const s of staff) {
      const got = await ofType(s, 'verification_submitted', v!.id);
      expect(got).toHaveLength(1);
      expect(got[0]!.link).toBe(`/admin/verifications-companies/${v!.id}`);
    }
    expect(await ofType(co, 'verification_submitted')).toHaveLength(0);
    const res = await t.api('POST', '/verification/decide', {
      token: staff[0]!.token,
      body: { verification_id: v!.id, decision: 'reject', reason: 'The certificate is unreadable' },
    });
    expect(res.status).toBe(200);
    const told = await ofType(co, 'verification_rejected');
    expect(told).toHaveLength(1);
    expect(told[0]!.body).toContain('Reason: The certificate is unreadable');
    expect(await ofType(member, 'verification_rejected')).toHaveLength(0);
  });

  it('KYC approved: the Individual', { timeout: SLOW }, async () => {
    const a = await newIndividual(t);
    const fields = { id_type: 'passport', issued_id: 'G1234567' };
    const files = {
      address_proof: { data: PDF_MINI, name: 'bill.pdf' },
      selfie_image: { data: JPEG_1PX, name: 'me.jpg' },
    };
    expect(await multipart(`/individuals/kyc/${a.id}`, a.token, form(fields, files))).toBe(201);
    const [v] = await t.ctx.db
      .select()
      .from(verifications)
      .where(and(eq(verifications.accountId, a.id), eq(verifications.state, 'pending')));
    expect(
      (
        await t.api('POST', '/verification/decide', {
          token: staff[1]!.token,
          body: { verification_id: v!.id, decision: 'approve' },
        })
      ).status,
    ).toBe(200);
    const got = await ofType(a, 'verification_approved');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: 'Your KYC verification was approved', link: '/portal/kycverifications' });
  });

  it('KYC: staff hear of the submission, once each; the Individual hears of the rejection, with the reason', {
    timeout: SLOW,
  }, async () => {
    const a = await newIndividual(t);
    const fields = { id_type: 'passport', issued_id: 'G7654321' };
    const files = {
      address_proof: { data: PDF_MINI, name: 'bill.pdf' },
      selfie_image: { data: JPEG_1PX, name: 'me.jpg' },
    };
    expect(await multipart(`/individuals/kyc/${a.id}`, a.token, form(fields, files))).toBe(201);
    const [v] = await t.ctx.db
      .select()
      .from(verifications)
      .where(and(eq(verifications.accountId, a.id), eq(verifications.state, 'pending')));
    expect(await counts('verification_submitted', v!.id, { a })).toEqual({ ...none, a: 0, staff0: 1, staff1: 1 });
    const [submitted] = await ofType(staff[1]!, 'verification_submitted', v!.id);
    expect(submitted!.link).toBe(`/admin/verifications-individuals/${v!.id}`);

    const res = await t.api('POST', '/verification/decide', {
      token: staff[0]!.token,
      body: { verification_id: v!.id, decision: 'reject', reason: 'The selfie does not match the passport' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await counts('verification_rejected', 'KYC', { a })).toEqual({ ...none, a: 1 });
    const [n] = await ofType(a, 'verification_rejected', 'KYC');
    expect(n).toMatchObject({ title: 'Your KYC verification was not approved', link: '/portal/kycverifications' });
    expect(n!.body).toContain('Reason: The selfie does not match the passport');
    expect(await counts('verification_approved', 'KYC', { a })).toEqual({ ...none, a: 0 });
  });

  it('KYB approved: every Company-Admin of the company, once; not its Company-Users, nobody else', {
    timeout: SLOW,
  }, async () => {
    const co = await newCompany(t);
    const coAdmin = await newCompanyMember(t, co, 'admin');
    const coUser = await newCompanyMember(t, co, 'user');
    const fields = {
      registered_name: 'Volta Trading Ltd',
      company_profile: 'Importers',
      tax_number: 'C0054321',
      incorporation_date: '2015-06-30',
      operation_countries: 'GH',
      publicly_listed: 'false',
    };
    const files = {
      shareholder_passport: { data: PNG_1PX, name: 'passport.png' },
      incorporation_certificate: { data: PDF_MINI, name: 'cert.pdf' },
    };
    expect(await multipart(`/company/kyb/${co.companyId}`, co.token, form(fields, files))).toBe(201);
    const [v] = await t.ctx.db
      .select()
      .from(verifications)
      .where(and(eq(verifications.accountId, co.companyId!), eq(verifications.state, 'pending')));
    const res = await t.api('POST', '/verification/decide', {
      token: staff[1]!.token,
      body: { verification_id: v!.id, decision: 'approve' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const others = { co, coAdmin, coUser };
    expect(await counts('verification_approved', 'KYB', others)).toEqual({ ...none, co: 1, coAdmin: 1, coUser: 0 });
    const [n] = await ofType(coAdmin, 'verification_approved', 'KYB');
    expect(n).toMatchObject({ title: 'Your KYB verification was approved', link: '/portal/kycverifications' });
    expect(await counts('verification_rejected', 'KYB', others)).toEqual({ ...none, co: 0, coAdmin: 0, coUser: 0 });
  });

  it('a Momo top-up: staff hear once a momo agent confirmed it (not when the customer says they paid), once each', {
    timeout: SLOW,
  }, async () => {
    await withMomoSettings(async () => {
      const agent = await newIndividual(t);
      await makeMomoAgent(t, agent);
      const top = await startTopup(t, individual, '30.00', 'momo');
      const paid = await t.api('POST', '/wallet/topup-confirm', {
        token: individual.token,
        body: { reference: top.reference, code: top.code },
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      // "Paid" alone cannot be approved yet: nobody is asked to review it.
      expect(await counts('topup_review', top.reference, { agent })).toEqual({ ...none, agent: 0 });
      const row = await topupRow(t, individual, top.reference);
      const res = await t.api('POST', '/wallet/momo-confirm', { token: agent.token, body: { topup_id: row.id } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await counts('topup_review', top.reference, { agent })).toEqual({
        ...none,
        agent: 0,
        staff0: 1,
        staff1: 1,
      });
      const [n] = await ofType(staff[0]!, 'topup_review', top.reference);
      expect(n!.body).toContain('A momo agent confirmed the mobile-money payment');
      expect(n!.link).toContain(`/admin/wallet-loads?individual_id=${individual.id}`);
    });
  });

  it('a company top-up denied: every user of the company, once, with the reason; nobody else', {
    timeout: SLOW,
  }, async () => {
    const top = await tronTopupReady(t, company.secondAdmin, '35.00');
    expect((await decide(t, staff[0]!, top.id, 'deny', 'No payment with this hash reached us')).status).toBe(200);
    expect(await counts('topup_denied', top.reference)).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });
    const [n] = await ofType(company.user, 'topup_denied', top.reference);
    expect(n!.body).toContain('Reason: No payment with this hash reached us');
    expect(await counts('topup_approved', top.reference)).toEqual(none);
  });

  it('a card terminated by staff: its owner (an Individual; every user of a company), once', {
    timeout: SLOW,
  }, async () => {
    await verifyAccount(t, individual);
    await fundWallet(t, walletOf(individual), 5_000);
    await verifyAccount(t, company.admin);
    await fundWallet(t, walletOf(company.admin), 5_000);
    const { card: mine } = await newCard(t, individual, { card_amount: '5.00' });
    const { card: theirs } = await newCard(t, company.user, { card_amount: '5.00' });
    for (const card of [mine, theirs]) {
      const key = randomUUID();
      const del = () => t.api('DELETE', `/cards/${card.id}`, { token: staff[1]!.token, idempotencyKey: key });
      expect((await del()).status).toBe(202);
      expect((await del()).headers.get('idempotent-replayed')).toBe('true');
    }
    // (the notification names the card by its nickname, each unique here)
    expect(await counts('card_terminated', mine.nickname)).toEqual({ ...none, individual: 1 });
    expect(await counts('card_terminated', theirs.nickname)).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });
    const [n] = await ofType(company.admin, 'card_terminated', theirs.nickname);
    expect(n!.body).toContain('Reason: Deleted by staff');
  });

  it('the maintenance fee of a company card: every user of the company, once', { timeout: SLOW }, async () => {
    await verifyAccount(t, company.admin);
    await fundWallet(t, walletOf(company.admin), 5_000);
    const { card } = await newCard(t, company.admin, { card_amount: '20.00' });
    // A month after the one the earlier test charged: only cards made before it are charged.
    setClock(t, '1994-05-02T01:00:00Z');
    for (const a of [individual, ...Object.values(company), ...staff]) await relogin(t, a);
    await cardMaintenance.run(t.ctx, '1994-05');
    await cardMaintenance.run(t.ctx, '1994-05');
    expect(await counts('maintenance_fee_charged', card.id)).toEqual({ ...none, admin: 1, secondAdmin: 1, user: 1 });
    const [n] = await ofType(company.user, 'maintenance_fee_charged', card.id);
    expect(n!.body).toContain('for May 1994');
  });

  it('API credentials generated and revoked: Company-Admins only', { timeout: SLOW }, async () => {
    await verifyAccount(t, company.admin);
    const gen = await t.api('POST', '/third-party/clients', {
      token: company.admin.token,
      body: { name: 'Volta', redirect_uri: null, identifier: company.admin.companyId },
    });
    expect(gen.status, JSON.stringify(gen.body)).toBe(201);
    const clientId = gen.body.data.client_id as string;
    expect(await counts('api_credentials_generated', clientId)).toEqual({ ...none, admin: 1, secondAdmin: 1 });
    expect(
      (await t.api('DELETE', `/third-party/clients/${company.admin.companyId}`, { token: company.secondAdmin.token }))
        .status,
    ).toBe(202);
    expect(await counts('api_credentials_revoked', clientId)).toEqual({ ...none, admin: 1, secondAdmin: 1 });
    const [n] = await ofType(company.admin, 'api_credentials_revoked', clientId);
    expect(n!.body).toContain(company.secondAdmin.email);
  });
});
