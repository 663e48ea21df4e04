import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiAdmin } from '@shared/contract';
import { users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  linkFrom,
  logIn,
  newCompany,
  newIndividual,
  newStaff,
  randomIp,
  uniqueEmail,
} from './support/actors';
import { relogin } from './support/cards';

let t: TestApp;
let superAdmin: Actor;
beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await newStaff(t, 'Super-Admin');
});
afterAll(() => t.close());

const TAKEN = 'The email has already been taken.';
const list = (a: Actor, query = '?per_page=100') => t.api('GET', `/account/admins${query}`, { token: a.token });
const create = (a: Actor, body: Record<string, unknown>) => t.api('POST', '/account/admins', { token: a.token, body });
const update = (a: Actor, id: string, body: Record<string, unknown>) =>
  t.api('PUT', `/account/admins/${id}`, { token: a.token, body });
const remove = (a: Actor, id: string) => t.api('DELETE', `/account/admins/${id}`, { token: a.token });

const newcomer = (extra: Record<string, unknown> = {}) => ({
  first_name: 'Nana',
  last_name: 'Yeboah',
  phone_number: '+233241112233',
  email: uniqueEmail('staff'),
  role: 'admin',
  ...extra,
});

async function rowOf(email: string): Promise<ApiAdmin | undefined> {
  const res = await list(superAdmin);
  expect(res.status).toBe(200);
  return (res.body.data as ApiAdmin[]).find((a) => a.email === email);
}

describe('POST /account/admins', () => {
  it('adds an Invited admin and mails a link that sets the password; then the row is Active and they log in', async () => {
    const body = newcomer();
    const res = await create(superAdmin, body);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      first_name: 'Nana',
      last_name: 'Yeboah',
      email: body.email,
      phone_number: '+233241112233',
      role: 'admin',
      state: 'Invited',
      created_at: expect.any(String),
      two_factor: 'not_set_up',
      last_sign_in_at: null,
      open_sessions: 0,
      deactivated_at: null,
    });
    expect(await rowOf(body.email)).toMatchObject({ id: res.body.data.id, state: 'Invited' });
    // No password yet: a login is refused like any wrong password.
    expect(
      (await t.api('POST', '/account/login', { body: { email: body.email, password: PASSWORD }, ip: randomIp() }))
        .status,
    ).toBe(401);

    const token = new URL(linkFrom(t, body.email, '/onboarding/new-password')).searchParams.get('token');
    const set = await t.api('POST', '/account/reset-password', {
      body: { token, password: PASSWORD, confirm_password: PASSWORD },
    });
    expect(set.status).toBe(200);
    expect(await rowOf(body.email)).toMatchObject({ state: 'Active' });

    const { session } = await logIn(t, body.email, PASSWORD);
    expect(session.user).toMatchObject({ email: body.email, role: 'Admin' });
  });

  it('names every missing or bad field and changes nothing', async () => {
    // Other files add staff to a shared PostgreSQL database meanwhile: count this file's newcomers only.
    const ours = async () =>
      ((await list(superAdmin)).body.data as ApiAdmin[]).filter(
        (a) => a.email.startsWith('staff.') || a.email === 'not-an-email',
      ).length;
    const before = await ours();
    const res = await create(superAdmin, {});
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      first_name: ['Full Name is required'],
      email: ['Email is required'],
      phone_number: ['Phone Number is required'],
      role: [expect.any(String)],
    });
    const bad = await create(superAdmin, newcomer({ email: 'not-an-email', role: 'owner' }));
    expect(bad.status).toBe(422);
    expect(bad.body.error.email).toEqual(['Enter a valid email address']);
    expect(bad.body.error.role).toEqual([expect.any(String)]);
    expect(await ours()).toBe(before);
  });

  it('refuses an email that any live account already uses', async () => {
    const customer = await newIndividual(t);
    const res = await create(superAdmin, newcomer({ email: customer.email }));
    expect(res.status).toBe(422);
    expect(res.body.error.email).toEqual([TAKEN]);
  });
});

describe('who may manage administrators', () => {
  it('is the Super-Admin only: an Admin, a customer and a company get 403, no token 401', async () => {
    const admin = await newStaff(t, 'Admin');
    const customer = await newIndividual(t);
    const company = await newCompany(t);
    for (const who of [admin, customer, company]) {
      expect((await list(who)).status).toBe(403);
      expect((await create(who, newcomer())).status).toBe(403);
      expect(
        (await update(who, superAdmin.id, { first_name: 'X', last_name: 'Y', email: superAdmin.email })).status,
      ).toBe(403);
      expect((await remove(who, admin.id)).status).toBe(403);
    }
    expect((await t.api('GET', '/account/admins')).status).toBe(401);
    expect((await rowOf(admin.email))?.state).toBe('Active');
  });

  it('lists staff only, never customers', async () => {
    const customer = await newIndividual(t);
    const res = await list(superAdmin);
    const emails = (res.body.data as ApiAdmin[]).map((a) => a.email);
    expect(emails).toContain(superAdmin.email);
    expect(emails).not.toContain(customer.email);
    expect(res.body).toMatchObject({ current_page: 1, per_page: 100, total: expect.any(Number) });
  });
});

describe('PUT /account/admins/{id}', () => {
  it('renames, promotes and sets a password; the admin logs in with the new one', async () => {
    const admin = await newStaff(t, 'Admin');
    const res = await update(superAdmin, admin.id, {
      first_name: 'Kojo',
      last_name: 'Mensah',
      email: admin.email,
      role: 'super-admin',
      password: 'An0ther!Passw0rd',
      confirm_password: 'An0ther!Passw0rd',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      first_name: 'Kojo',
      last_name: 'Mensah',
      role: 'super-admin',
      state: 'Active',
    });
    // Other privileges and a new password end the admin's sessions.
    expect((await t.api('GET', '/individuals/profile', { token: admin.token })).status).toBe(401);
    const { session } = await logIn(t, admin.email, 'An0ther!Passw0rd', admin.secret);
    expect(session.user.role).toBe('Super-Admin');
  });

  it('checks the fields: matching passwords, the policy, a free email, a known id', async () => {
    const admin = await newStaff(t, 'Admin');
    const other = await newStaff(t, 'Admin');
    const base = { first_name: 'A', last_name: 'B', email: admin.email };
    const mismatch = await update(superAdmin, admin.id, {
      ...base,
      password: 'An0ther!Passw0rd',
      confirm_password: 'An0ther!Passw0rd9',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.confirm_password).toEqual(['Passwords do not match']);
    const weak = await update(superAdmin, admin.id, { ...base, password: 'short', confirm_password: 'short' });
    expect(weak.status).toBe(422);
    expect(weak.body.error.password).toHaveLength(1);
    const taken = await update(superAdmin, admin.id, { ...base, email: other.email });
    expect(taken.status).toBe(422);
    expect(taken.body.error.email).toEqual([TAKEN]);
    expect((await update(superAdmin, crypto.randomUUID(), base)).status).toBe(404);
    expect((await update(superAdmin, 'not-a-uuid', base)).status).toBe(404);
    const customer = await newIndividual(t);
    expect((await update(superAdmin, customer.id, { ...base, email: customer.email })).status).toBe(404);
    expect(await rowOf(admin.email)).toMatchObject({ first_name: 'Staff', last_name: 'Admin' });
  });

  it('refuses to change one’s own privileges', async () => {
    const me = await newStaff(t, 'Super-Admin');
    const res = await update(me, me.id, { first_name: 'Me', last_name: 'Myself', email: me.email, role: 'admin' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You cannot change your own privileges.');
  });
});

describe('DELETE /account/admins/{id}', () => {
  it('removes the admin from the list and ends their sessions; never one’s own account', async () => {
    const admin = await newStaff(t, 'Admin');
    const res = await remove(superAdmin, admin.id);
    expect(res.status).toBe(202);
    expect(res.body.data).toBe('Admin deleted.');
    expect(await rowOf(admin.email)).toBeUndefined();
    expect((await t.api('GET', '/individuals/profile', { token: admin.token })).status).toBe(401);
    expect((await remove(superAdmin, admin.id)).status).toBe(404);

    const self = await remove(superAdmin, superAdmin.id);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('You cannot delete your own account.');
  });
});

/**
 * "Last" is about every live Super-Admin in the database, so these tests set the others aside
 * (soft-deleted) while they run and put them back afterwards. On PostgreSQL every test file shares
 * the database and setting other files' Super-Admins aside would end their sessions: run on PGlite only.
 */
describe.skipIf(!!inject('postgresUrl'))('the last Super-Admin', () => {
  async function withOnlySuperAdmins(keep: Actor[], fn: () => Promise<void>) {
    const others = await t.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.role, 'Super-Admin'),
          isNull(users.deletedAt),
          notInArray(
            users.id,
            keep.map((k) => k.id),
          ),
        ),
      );
    const ids = others.map((o) => o.id);
    if (ids.length) await t.ctx.db.update(users).set({ deletedAt: t.clock.now() }).where(inArray(users.id, ids));
    try {
      await fn();
    } finally {
      if (ids.length) await t.ctx.db.update(users).set({ deletedAt: null }).where(inArray(users.id, ids));
    }
  }
  const superAdminsListedBy = async (a: Actor) =>
    ((await list(a)).body.data as ApiAdmin[]).filter((x) => x.role === 'super-admin').map((x) => x.email);
  const demote = (by: Actor, who: Actor) =>
    update(by, who.id, { first_name: 'Staff', last_name: 'Super-Admin', email: who.email, role: 'admin' });

  it('cannot be demoted (409), and keeps their role and session', async () => {
    const me = await newStaff(t, 'Super-Admin');
    await withOnlySuperAdmins([me], async () => {
      const res = await demote(me, me);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('The last Super-Admin cannot be demoted.');
      expect(await superAdminsListedBy(me)).toEqual([me.email]);
      // Other changes to the last Super-Admin are allowed.
      const rename = await update(me, me.id, {
        first_name: 'Ama',
        last_name: 'Owusu',
        email: me.email,
        role: 'super-admin',
      });
      expect(rename.status).toBe(200);
      expect(rename.body.data).toMatchObject({ first_name: 'Ama', role: 'super-admin' });
    });
  });

  it('an Admin does not count: after demoting the other Super-Admin, the one left cannot be demoted nor removed', async () => {
    const a = await newStaff(t, 'Super-Admin');
    const b = await newStaff(t, 'Super-Admin');
    await withOnlySuperAdmins([a, b], async () => {
      const first = await demote(a, b);
      expect(first.status).toBe(200);
      expect(first.body.data.role).toBe('admin');
      const res = await demote(a, a);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('The last Super-Admin cannot be demoted.');
      // The one left cannot remove themselves, and the demoted Admin may no longer manage admins.
      const self = await remove(a, a.id);
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('You cannot delete your own account.');
      t.clock.advance(30_000); // a fresh TOTP step: a code is accepted once
      await relogin(t, b);
      expect((await remove(b, a.id)).status).toBe(403);
      expect(await superAdminsListedBy(a)).toEqual([a.email]);
    });
  });

  it('cannot be removed: when the last two Super-Admins remove each other at once, one of them stays', async () => {
    const a = await newStaff(t, 'Super-Admin');
    const b = await newStaff(t, 'Super-Admin');
    await withOnlySuperAdmins([a, b], async () => {
      const [ab, ba] = await Promise.all([remove(a, b.id), remove(b, a.id)]);
      const [won, lost] = ab.status === 202 ? [ab, ba] : [ba, ab];
      const survivor = ab.status === 202 ? a : b;
      expect(won.status).toBe(202);
      // The other request is refused: by the rule (409), or because its caller was already
      // removed and their session ended (401) when it arrived.
      if (lost.status === 409) expect(lost.body.message).toBe('The last Super-Admin cannot be removed.');
      else expect(lost.status).toBe(401);
      expect(await superAdminsListedBy(survivor)).toEqual([survivor.email]);
    });
  });
});
