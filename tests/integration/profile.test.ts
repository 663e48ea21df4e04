import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const profile = (token: string) => t.api('GET', '/individuals/profile', { token });
const putUser = (a: Actor, id: string, body: Record<string, unknown>) =>
  t.api('PUT', `/individuals/${id}`, { token: a.token, body });
const putCompany = (a: Actor, id: string, body: Record<string, unknown>) =>
  t.api('PUT', `/companies/${id}`, { token: a.token, body });

const details = { first_name: 'Ama', last_name: 'Owusu', phone_number: '+233 20 555 0000' };
const companyDetails = {
  company_name: 'Kente Imports',
  company_website: 'https://kente.example.com',
  company_phone: '+233 30 222 3333',
};

describe('GET /individuals/profile', () => {
  it('answers an Individual with their own wallet and no company', async () => {
    const a = await newIndividual(t);
    const res = await profile(a.token);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual({
      id: a.id,
      first_name: 'Abena',
      last_name: 'Asante',
      email: a.email,
      phone_number: '+233241112233',
      role: 'Individual',
      state: 'Unverified',
      entities: [],
      company_id: null,
      wallet_id: a.id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(res.body.data.company).toBeNull();
  });

  it("answers a Company-Admin with the company's wallet and the company", async () => {
    const admin = await newCompany(t);
    const res = await profile(admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      id: admin.id,
      role: 'Company-Admin',
      company_id: admin.companyId,
      wallet_id: admin.companyId,
    });
    expect(res.body.data.company).toMatchObject({
      id: admin.companyId,
      company_name: 'Volta Trading Ltd',
      company_website: 'https://volta.example.com',
      company_phone: '+233302111222',
      state: 'Unverified',
    });
  });

  it.each([
    ['user', 'Company-User'],
    ['admin', 'Company-Admin'],
  ] as const)('answers an invited member (%s) with the company wallet', async (role, apiRole) => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin, role);
    const res = await profile(member.token);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      id: member.id,
      email: member.email,
      role: apiRole,
      company_id: admin.companyId,
      wallet_id: admin.companyId,
    });
    expect(res.body.data.company.id).toBe(admin.companyId);
  });

  it.each(['Admin', 'Super-Admin'] as const)('answers staff (%s) with no wallet and no company', async (role) => {
    const staff = await newStaff(t, role);
    const res = await profile(staff.token);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      id: staff.id,
      role,
      state: 'Verified',
      wallet_id: null,
      company_id: null,
    });
    expect(res.body.data.company).toBeNull();
  });

  it('answers 401 without a session', async () => {
    const res = await t.api('GET', '/individuals/profile');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });
});

describe('PUT /individuals/{id}', () => {
  it('updates the caller’s own names and phone number', async () => {
    const a = await newIndividual(t);
    const res = await putUser(a, a.id, details);
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      id: a.id,
      first_name: 'Ama',
      last_name: 'Owusu',
      phone_number: '+233205550000',
    });
    expect((await profile(a.token)).body.data.user).toMatchObject({
      first_name: 'Ama',
      last_name: 'Owusu',
      phone_number: '+233205550000',
    });
  });

  it('ignores fields it does not own: email, role, company', async () => {
    const a = await newIndividual(t);
    const other = await newCompany(t);
    const res = await putUser(a, a.id, {
      ...details,
      email: 'taken@example.com',
      role: 'Super-Admin',
      company_id: other.companyId,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ email: a.email, role: 'Individual', company_id: null, wallet_id: a.id });
  });

  it("answers 404 for another user's id and changes nothing", async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const res = await putUser(a, b.id, details);
    expect(res.status).toBe(404);
    expect((await profile(b.token)).body.data.user.first_name).toBe('Abena');
  });

  it('answers 404 for an id that is not a UUID and 401 without a session', async () => {
    const a = await newIndividual(t);
    expect((await putUser(a, 'me', details)).status).toBe(404);
    expect((await putUser(a, '12345', details)).status).toBe(404);
    expect((await t.api('PUT', `/individuals/${a.id}`, { body: details })).status).toBe(401);
  });

  it.each([
    ['first_name', { first_name: '' }, 'First Name is required'],
    ['first_name', { first_name: 'x'.repeat(101) }, 'Must be at most 100 characters'],
    ['last_name', { last_name: undefined }, 'Last Name is required'],
    ['phone_number', { phone_number: '' }, 'Phone Number is required'],
    ['phone_number', { phone_number: '12ab' }, 'Valid Phone Number is required'],
  ])('rejects a bad %s with 422 naming the field', async (field, extra, message) => {
    const a = await newIndividual(t);
    const res = await putUser(a, a.id, { ...details, ...extra });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toBe(message);
    expect((await profile(a.token)).body.data.user.first_name).toBe('Abena');
  });
});

describe('PUT /companies/{id}', () => {
  it('lets the Company-Admin update the company, but not its email', async () => {
    const admin = await newCompany(t);
    const before = (await profile(admin.token)).body.data.company;
    const res = await putCompany(admin, admin.companyId!, { ...companyDetails, company_email: 'hijack@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.data.company).toEqual({
      ...before,
      company_name: 'Kente Imports',
      company_website: 'https://kente.example.com',
      company_phone: '+233302223333',
    });
    expect(res.body.data.company.company_email).toBe(before.company_email);
    expect((await profile(admin.token)).body.data.company.company_name).toBe('Kente Imports');
  });

  it('answers 403 to a Company-User of the same company and changes nothing', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin, 'user');
    const res = await putCompany(member, admin.companyId!, companyDetails);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only a company admin can change the company details.');
    expect((await profile(admin.token)).body.data.company.company_name).toBe('Volta Trading Ltd');
  });

  it("answers 404 to another company's admin and an Individual, 403 to staff (a customer's own operation)", async () => {
    const admin = await newCompany(t);
    const outsider = await newCompany(t);
    const individual = await newIndividual(t);
    const staff = await newStaff(t);
    for (const who of [outsider, individual]) {
      expect((await putCompany(who, admin.companyId!, companyDetails)).status).toBe(404);
    }
    expect((await putCompany(staff, admin.companyId!, companyDetails)).status).toBe(403);
    expect((await putCompany(individual, individual.id, companyDetails)).status).toBe(404);
    expect((await profile(admin.token)).body.data.company.company_name).toBe('Volta Trading Ltd');
  });

  it('answers 404 for an id that is not a UUID and 401 without a session', async () => {
    const admin = await newCompany(t);
    expect((await putCompany(admin, 'mine', companyDetails)).status).toBe(404);
    expect((await t.api('PUT', `/companies/${admin.companyId}`, { body: companyDetails })).status).toBe(401);
  });

  it.each([
    ['company_name', { company_name: ' ' }, 'Company Name is required'],
    ['company_website', { company_website: '' }, 'Company Website is required'],
    [
      'company_website',
      { company_website: 'not a site' },
      'Enter a valid website address, such as https://example.com',
    ],
    ['company_phone', { company_phone: undefined }, 'Company Phone Number is required'],
    ['company_phone', { company_phone: '123' }, 'Valid Company Phone Number is required'],
  ])('rejects a bad %s with 422 naming the field', async (field, extra, message) => {
    const admin = await newCompany(t);
    const res = await putCompany(admin, admin.companyId!, { ...companyDetails, ...extra });
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toBe(message);
  });
});
