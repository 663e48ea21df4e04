import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  invitationFor,
  linkFrom,
  logIn,
  mailsTo,
  newCompany,
  newCompanyMember,
  newIndividual,
  newStaff,
  randomIp,
  uniqueEmail,
} from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TAKEN = 'The email has already been taken.';
const base = (companyId: string | null) => `/company/users/${companyId}`;
const list = (a: Actor, companyId = a.companyId, query = '') =>
  t.api('GET', `${base(companyId)}${query}`, { token: a.token });
const invite = (a: Actor, body: Record<string, unknown>, companyId = a.companyId) =>
  t.api('POST', base(companyId), { token: a.token, body });
const setRole = (a: Actor, userId: string, role: unknown, companyId = a.companyId) =>
  t.api('PUT', `${base(companyId)}/${userId}`, { token: a.token, body: { role } });
const remove = (a: Actor, userId: string, companyId = a.companyId) =>
  t.api('DELETE', `${base(companyId)}/${userId}`, { token: a.token });
const profile = (token: string) => t.api('GET', '/individuals/profile', { token });

const newcomer = (extra: Record<string, unknown> = {}) => ({
  first_name: 'Yaw',
  last_name: 'Boateng',
  phone_number: '+233 26 777 8888',
  email: uniqueEmail('invitee'),
  role: 'user',
  ...extra,
});

const accept = (token: string, extra: Record<string, unknown> = {}) =>
  t.api('POST', '/account/accept-invite', {
    ip: randomIp(),
    body: {
      first_name: 'Yaw',
      last_name: 'Boateng',
      password: PASSWORD,
      token,
      phone_number: '+233267778888',
      ...extra,
    },
  });

describe('GET /company/users/{companyId}', () => {
  it('answers the paged envelope, and pages with page and per_page', async () => {
    const admin = await newCompany(t);
    for (let i = 0; i < 2; i++) expect((await invite(admin, newcomer())).status).toBe(201);
    const all = await list(admin);
    expect(all.status).toBe(200);
    const path = `/api/v1/company/users/${admin.companyId}`;
    expect(all.body).toMatchObject({
      links: { first: `${path}?page=1&per_page=25`, last: `${path}?page=1&per_page=25`, prev: null, next: null },
      from: 1,
      to: 3,
      total: 3,
      current_page: 1,
      last_page: 1,
      per_page: 25,
    });
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data.find((r: { id: string }) => r.id === admin.id)).toEqual({
      id: admin.id,
      first_name: 'Kwame',
      last_name: 'Nkrumah',
      email: admin.email,
      phone_number: null,
      role: 'admin',
      state: 'Active',
      created_at: expect.any(String),
    });

    const page2 = await list(admin, admin.companyId, '?per_page=1&page=2');
    expect(page2.status).toBe(200);
    expect(page2.body).toMatchObject({
      links: {
        first: `${path}?per_page=1&page=1`,
        last: `${path}?per_page=1&page=3`,
        prev: `${path}?per_page=1&page=1`,
        next: `${path}?per_page=1&page=3`,
      },
      from: 2,
      to: 2,
      total: 3,
      current_page: 2,
      last_page: 3,
      per_page: 1,
    });
    const ids = new Set<string>();
    for (const page of [1, 2, 3]) {
      const res = await list(admin, admin.companyId, `?per_page=1&page=${page}`);
      expect(res.body.data).toHaveLength(1);
      ids.add(res.body.data[0].id);
    }
    expect(ids.size).toBe(3);

    const beyond = await list(admin, admin.companyId, '?per_page=1&page=9');
    expect(beyond.body).toMatchObject({ data: [], from: null, to: null, total: 3, current_page: 9, last_page: 3 });
    expect(beyond.body.links.next).toBeNull();
    expect(beyond.body.links.prev).toBe(`${path}?per_page=1&page=3`);
  });

  it.each([
    ['per_page', '?per_page=101'],
    ['per_page', '?per_page=0'],
    ['page', '?page=0'],
    ['page', '?page=abc'],
  ])('rejects a bad %s (%s) with 422', async (field, query) => {
    const admin = await newCompany(t);
    const res = await list(admin, admin.companyId, query);
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toEqual(expect.any(String));
  });
});

describe('inviting and accepting', () => {
  it('creates an Invited row and mails a link carrying the identity', async () => {
    const admin = await newCompany(t);
    const body = newcomer();
    const res = await invite(admin, body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      email: body.email,
      first_name: 'Yaw',
      last_name: 'Boateng',
      phone_number: '+233267778888',
      role: 'user',
      state: 'Invited',
    });
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, res.body.data.id));
    expect(row).toMatchObject({
      companyId: admin.companyId,
      role: 'Company-User',
      passwordHash: null,
      invitedBy: admin.id,
    });

    const mails = mailsTo(t, body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Volta Trading Ltd');
    const link = new URL(linkFrom(t, body.email, '/onboarding/invited'));
    expect(link.origin + link.pathname).toBe(`${t.ctx.config.appUrl}/onboarding/invited`);
    const identity = invitationFor(t, body.email);
    expect(identity).toEqual({
      email: body.email,
      phone: '+233267778888',
      fullname: 'Yaw Boateng',
      token: expect.any(String),
    });

    // Not a login until the invitation is accepted.
    expect(
      (await t.api('POST', '/account/login', { body: { email: body.email, password: PASSWORD }, ip: randomIp() }))
        .status,
    ).toBe(401);
  });

  it.each([
    ['user', 'Company-User'],
    ['admin', 'Company-Admin'],
  ] as const)('an invitee with role %s accepts, logs in as %s and shows as Active', async (role, apiRole) => {
    const admin = await newCompany(t);
    const body = newcomer({ role });
    const created = await invite(admin, body);
    expect(created.body.data.role).toBe(role);
    const res = await accept(invitationFor(t, body.email).token);
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(body.email);

    const { session } = await logIn(t, body.email, PASSWORD);
    expect(session.user).toMatchObject({ role: apiRole, company_id: admin.companyId, wallet_id: admin.companyId });
    const row = (await list(admin)).body.data.find((r: { id: string }) => r.id === created.body.data.id);
    expect(row).toMatchObject({ state: 'Active', role });

    const twice = await accept(invitationFor(t, body.email).token, { password: 'An0ther!Passw0rd' });
    expect(twice.status).toBe(422);
    expect(twice.body.error.token[0]).toMatch(/already accepted/);
  });

  it('refuses an invitation after 7 days, and bad input on accept', async () => {
    const admin = await newCompany(t);
    const body = newcomer();
    await invite(admin, body);
    const { token } = invitationFor(t, body.email);
    const weak = await accept(token, { password: 'weakpass' });
    expect(weak.status).toBe(422);
    expect(weak.body.error.password[0]).toMatch(/at least 8 characters/);
    t.clock.advance(7 * 24 * 3600_000 + 60_000);
    expect((await accept(token)).status).toBe(422);
  });

  it('refuses an email that already has an account, whatever its case, with error.email[0]', async () => {
    const admin = await newCompany(t);
    const individual = await newIndividual(t);
    const body = newcomer();
    expect((await invite(admin, body)).status).toBe(201);
    for (const email of [body.email, body.email.toUpperCase(), individual.email, admin.email]) {
      const dup = await invite(admin, newcomer({ email }));
      expect(dup.status).toBe(422);
      expect(dup.body.error.email[0]).toBe(TAKEN);
    }
    expect(mailsTo(t, body.email)).toHaveLength(1);
  });

  it.each([
    ['role', { role: undefined }, 'Permission is required'],
    ['role', { role: 'owner' }, 'Permission is required'],
    ['first_name', { first_name: '' }, 'Full Name is required'],
    ['email', { email: 'nope' }, 'Enter a valid email address'],
    ['phone_number', { phone_number: '12' }, 'Valid Phone Number is required'],
  ])('rejects a bad %s with 422 naming the field', async (field, extra, message) => {
    const admin = await newCompany(t);
    const res = await invite(admin, newcomer(extra));
    expect(res.status).toBe(422);
    expect(res.body.error[field][0]).toBe(message);
    expect((await list(admin)).body.total).toBe(1);
  });
});

describe('changing roles and deleting users', () => {
  it("changes another member's role, which takes effect on their open session", async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin, 'user');
    expect((await list(member)).status).toBe(403);
    const up = await setRole(admin, member.id, 'admin');
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ id: member.id, role: 'admin', state: 'Active' });
    expect((await list(member)).status).toBe(200);
    expect((await profile(member.token)).body.data.user.role).toBe('Company-Admin');
    const down = await setRole(admin, member.id, 'user');
    expect(down.body.data.role).toBe('user');
    expect((await list(member)).status).toBe(403);

    const bad = await setRole(admin, member.id, undefined);
    expect(bad.status).toBe(422);
    expect(bad.body.error.role[0]).toBe('Permission is required');
  });

  it('refuses to change or delete the caller’s own row with 403', async () => {
    const admin = await newCompany(t);
    expect((await setRole(admin, admin.id, 'user')).status).toBe(403);
    expect((await remove(admin, admin.id)).status).toBe(403);
    expect((await profile(admin.token)).body.data.user.role).toBe('Company-Admin');
  });

  it('deletes a member (202): their session ends and they cannot log in', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const res = await remove(admin, member.id);
    expect(res.status).toBe(202);
    expect(res.body.data.message).toBe('User deleted.');
    expect((await profile(member.token)).status).toBe(401);
    const login = await t.api('POST', '/account/login', {
      body: { email: member.email, password: PASSWORD },
      ip: randomIp(),
    });
    expect(login.status).toBe(401);
    expect((await list(admin)).body.data.map((r: { id: string }) => r.id)).not.toContain(member.id);
    expect((await remove(admin, member.id)).status).toBe(404);
    expect((await setRole(admin, member.id, 'admin')).status).toBe(404);
    // The address is free again.
    expect((await invite(admin, newcomer({ email: member.email }))).status).toBe(201);
  });

  it("answers 404 for another company's users, whichever path carries them", async () => {
    const a = await newCompany(t);
    const b = await newCompany(t);
    const bMember = await newCompanyMember(t, b);
    expect((await list(a, b.companyId)).status).toBe(404);
    expect((await invite(a, newcomer(), b.companyId)).status).toBe(404);
    expect((await setRole(a, bMember.id, 'admin', b.companyId)).status).toBe(404);
    expect((await remove(a, bMember.id, b.companyId)).status).toBe(404);
    expect((await setRole(a, bMember.id, 'admin')).status).toBe(404);
    expect((await remove(a, bMember.id)).status).toBe(404);
    expect((await profile(bMember.token)).body.data.user.role).toBe('Company-User');
    expect((await list(b)).body.total).toBe(2);
    expect((await list(a, 'not-a-uuid')).status).toBe(404);
  });

  it('answers 403 to a Company-User, an Individual and staff on all four calls (staff may only list)', async () => {
    const admin = await newCompany(t);
    const target = await newCompanyMember(t, admin);
    const companyUser = await newCompanyMember(t, admin, 'user');
    const individual = await newIndividual(t);
    const staff = await newStaff(t);
    for (const who of [companyUser, individual, staff]) {
      expect((await list(who, admin.companyId)).status).toBe(who === staff ? 200 : 403);
      expect((await invite(who, newcomer(), admin.companyId)).status).toBe(403);
      expect((await setRole(who, target.id, 'admin', admin.companyId)).status).toBe(403);
      expect((await remove(who, target.id, admin.companyId)).status).toBe(403);
    }
    expect((await profile(target.token)).body.data.user.role).toBe('Company-User');
    expect((await list(admin)).body.total).toBe(3);
    const read = await list(staff, admin.companyId);
    expect(read.body.total).toBe(3);
    expect((await list(staff, crypto.randomUUID())).status).toBe(404);
  });

  it('answers 401 without a session', async () => {
    const admin = await newCompany(t);
    expect((await t.api('GET', base(admin.companyId))).status).toBe(401);
    expect((await t.api('POST', base(admin.companyId), { body: newcomer() })).status).toBe(401);
    expect((await t.api('DELETE', `${base(admin.companyId)}/${admin.id}`)).status).toBe(401);
  });
});
