import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { momoSettings } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  invitationFor,
  newCompany,
  newCompanyMember,
  newIndividual,
  newStaff,
  randomIp,
  uniqueEmail,
} from './support/actors';
import { withMomoSettings } from './support/wallet';

/**
 * Every call that takes a phone number applies the contract's one rule: a number valid for its country, kept in
 * E.164, a trunk 0 after the country code dropped ("+233 024…" is "+23324…"), and anything else a 422 on the
 * field that changes nothing. Sign-up is in registration.test.ts.
 */
let t: TestApp;
let superAdmin: Actor;
beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await newStaff(t, 'Super-Admin');
});
afterAll(() => t.close());

const TRUNK_ZERO = '+233 024 123 4567';
const E164 = '+233241234567';
/** "+233 024 123 456": the widget kept the 0 and cut a digit; no number of Ghana. */
const LOST_DIGIT = '+233024123456';

const profile = async (a: Actor) => (await t.api('GET', '/individuals/profile', { token: a.token })).body.data;

describe('PUT /individuals/{id}', () => {
  const put = (a: Actor, id: string, phone_number: unknown) =>
    t.api('PUT', `/individuals/${id}`, {
      token: a.token,
      body: { first_name: 'Ama', last_name: 'Owusu', phone_number },
    });

  it('keeps the number in E.164 without the trunk 0, and refuses one its country does not have', async () => {
    const a = await newIndividual(t);
    const ok = await put(a, a.id, TRUNK_ZERO);
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.phone_number).toBe(E164);
    for (const bad of [LOST_DIGIT, '0241234567', '+1 555', 'phone']) {
      const res = await put(a, a.id, bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.error.phone_number[0]).toBe('Valid Phone Number is required');
    }
    expect((await profile(a)).user.phone_number).toBe(E164);
  });

  it("does not change another customer's number", async () => {
    const [a, b] = [await newIndividual(t), await newIndividual(t)];
    expect((await put(a, b.id, TRUNK_ZERO)).status).toBe(404);
    expect((await profile(b)).user.phone_number).toBe('+233241112233');
  });
});

describe('PUT /companies/{id}', () => {
  const put = (a: Actor, id: string | null, company_phone: unknown) =>
    t.api('PUT', `/companies/${id}`, {
      token: a.token,
      body: { company_name: 'Kente Imports', company_website: 'kente.example.com', company_phone },
    });

  it('keeps the company phone in E.164 without the trunk 0, refuses an invalid one, and only for its admin', async () => {
    const admin = await newCompany(t);
    const ok = await put(admin, admin.companyId, '+233 030 222 3333');
    expect(ok.status).toBe(200);
    expect(ok.body.data.company.company_phone).toBe('+233302223333');
    const bad = await put(admin, admin.companyId, '+23303022233');
    expect(bad.status).toBe(422);
    expect(bad.body.error.company_phone[0]).toBe('Valid Company Phone Number is required');
    const member = await newCompanyMember(t, admin);
    expect((await put(member, admin.companyId, TRUNK_ZERO)).status).toBe(403);
    expect((await profile(admin)).company.company_phone).toBe('+233302223333');
  });
});

describe('POST /company/users/{companyId} and POST /account/accept-invite', () => {
  const invite = (a: Actor, companyId: string | null, phone_number: unknown, email = uniqueEmail('invitee')) =>
    t.api('POST', `/company/users/${companyId}`, {
      token: a.token,
      body: { first_name: 'Yaw', last_name: 'Boateng', phone_number, email, role: 'user' },
    });
  const accept = (token: string, phone_number: unknown) =>
    t.api('POST', '/account/accept-invite', {
      ip: randomIp(),
      body: { first_name: 'Yaw', last_name: 'Boateng', password: PASSWORD, token, phone_number },
    });

  it('invites with the number in E.164, and the invitee accepts with a number typed with its trunk 0', async () => {
    const admin = await newCompany(t);
    const email = uniqueEmail('invitee');
    const res = await invite(admin, admin.companyId, TRUNK_ZERO, email);
    expect(res.status).toBe(201);
    const identity = invitationFor(t, email);
    expect(identity.phone).toBe(E164);

    const refused = await accept(identity.token, LOST_DIGIT);
    expect(refused.status).toBe(422);
    expect(refused.body.error.phone_number[0]).toBe('Valid Phone Number is required');
    expect((await accept(identity.token, '+233 020 555 0000')).status).toBe(200);
    const rows = await t.api('GET', `/company/users/${admin.companyId}?per_page=100`, { token: admin.token });
    expect(rows.body.data.find((u: { email: string }) => u.email === email).phone_number).toBe('+233205550000');
  });

  it('refuses an invalid number on the field, inviting no one, and another company cannot invite', async () => {
    const admin = await newCompany(t);
    const email = uniqueEmail('invitee');
    const res = await invite(admin, admin.companyId, LOST_DIGIT, email);
    expect(res.status).toBe(422);
    expect(res.body.error.phone_number[0]).toBe('Valid Phone Number is required');
    const other = await newCompany(t);
    expect([403, 404]).toContain((await invite(other, admin.companyId, TRUNK_ZERO)).status);
    const rows = await t.api('GET', `/company/users/${admin.companyId}?per_page=100`, { token: admin.token });
    expect(rows.body.data.map((u: { email: string }) => u.email)).not.toContain(email);
  });
});

describe('POST /account/admins and PUT /account/admins/{id}', () => {
  const create = (a: Actor, phone_number: unknown, email = uniqueEmail('staff')) =>
    t.api('POST', '/account/admins', {
      token: a.token,
      body: { first_name: 'Nana', last_name: 'Yeboah', phone_number, email, role: 'admin' },
    });
  const rowOf = async (email: string) =>
    (await t.api('GET', '/account/admins?per_page=100', { token: superAdmin.token })).body.data.find(
      (a: { email: string }) => a.email === email,
    );

  it('creates and edits staff with numbers in E.164, refusing invalid ones on the field', async () => {
    const email = uniqueEmail('staff');
    expect((await create(superAdmin, TRUNK_ZERO, email)).status).toBe(201);
    const row = await rowOf(email);
    expect(row.phone_number).toBe(E164);

    const bad = await create(superAdmin, LOST_DIGIT);
    expect(bad.status).toBe(422);
    expect(bad.body.error.phone_number[0]).toBe('Valid Phone Number is required');

    const edit = (a: Actor, phone_number: unknown) =>
      t.api('PUT', `/account/admins/${row.id}`, {
        token: a.token,
        body: { first_name: 'Nana', last_name: 'Yeboah', email, phone_number },
      });
    const refused = await edit(superAdmin, LOST_DIGIT);
    expect(refused.status).toBe(422);
    expect(refused.body.error.phone_number[0]).toBe('Valid Phone Number is required');
    expect((await edit(await newStaff(t, 'Admin'), '+233 020 555 0000')).status).toBe(403);
    expect((await rowOf(email)).phone_number).toBe(E164);
    expect((await edit(superAdmin, '+233 020 555 0000')).status).toBe(200);
    expect((await rowOf(email)).phone_number).toBe('+233205550000');
  });
});

describe('PUT /param/momo-sync', () => {
  const body = (momo_number: unknown) => ({
    momo_name: 'Cardwallet Payments',
    momo_number,
    network: 'MTN Mobile Money',
    rate: '15.50',
    flat_fee: '5.00',
    momo_alert_emails: ['ops@example.com'],
    entity_users: [],
  });

  it('keeps the momo number in E.164 without the trunk 0 and refuses an invalid one; Super-Admin only', () =>
    withMomoSettings(async () => {
      const [saved] = await t.ctx.db.select().from(momoSettings).where(eq(momoSettings.id, 1));
      try {
        const sync = (a: Actor, n: unknown) => t.api('PUT', '/param/momo-sync', { token: a.token, body: body(n) });
        expect((await sync(superAdmin, '+233 024 000 1111')).status).toBe(200);
        const number = async () =>
          (await t.api('GET', '/param/momo-details', { token: superAdmin.token })).body.data.momo_number;
        expect(await number()).toBe('+233240001111');
        const bad = await sync(superAdmin, '+23302400011');
        expect(bad.status).toBe(422);
        expect(bad.body.error.momo_number[0]).toBe('Valid Momo Number is required');
        expect((await sync(await newStaff(t, 'Admin'), '+233 020 555 0000')).status).toBe(403);
        expect(await number()).toBe('+233240001111');
      } finally {
        await t.ctx.db.update(momoSettings).set(saved!).where(eq(momoSettings.id, 1));
      }
    }));
});
