import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ApiAdmin } from '@shared/contract';
import { auditLog, users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  logIn,
  newCompany,
  newIndividual,
  newStaff,
  randomIp,
  totpCode,
  uniqueEmail,
} from './support/actors';
import { describeOnPostgres } from './support/postgres-only';

/** The access review (issue 33, part 3): what the Admins list tells of each staff member, ending their sessions, deactivating them. */

let t: TestApp;
let superAdmin: Actor;
beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await newStaff(t, 'Super-Admin');
});
afterAll(() => t.close());

const list = (a: Actor) => t.api('GET', '/account/admins?per_page=100', { token: a.token });
const endSessions = (a: Actor, id: string, app = t) =>
  app.api('DELETE', `/account/admins/${id}/sessions`, { token: a.token });
const deactivate = (a: Actor, id: string, app = t) =>
  app.api('POST', `/account/admins/${id}/deactivate`, { token: a.token });
const reactivate = (a: Actor, id: string) => t.api('POST', `/account/admins/${id}/reactivate`, { token: a.token });
const profile = (who: Actor, app = t) => app.api('GET', '/individuals/profile', { token: who.token });

async function rowOf(email: string): Promise<ApiAdmin | undefined> {
  const res = await list(superAdmin);
  expect(res.status).toBe(200);
  return (res.body.data as ApiAdmin[]).find((a) => a.email === email);
}

/** Another session of the same person (a second device). */
async function secondSession(a: Actor): Promise<string> {
  t.clock.advance(30_000); // a fresh TOTP step: a code is accepted once
  return (await logIn(t, a.email, a.password, a.secret)).token;
}

/** A staff member in a role the test helpers do not make directly. */
async function staffAs(role: 'Auditor' | 'Compliance' | 'Finance' | 'Support'): Promise<Actor> {
  const a = await newStaff(t, 'Admin');
  await t.ctx.db.update(users).set({ role }).where(eq(users.id, a.id));
  return a;
}

const auditRows = (actor: Actor, action: string, objectId: string) =>
  t.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, actor.id), eq(auditLog.action, action), eq(auditLog.objectId, objectId)));

describe('GET /account/admins: the access review columns', () => {
  it('tells each staff member’s second factor, last sign-in, open sessions and whether they are active', async () => {
    const before = t.clock.now().getTime();
    const admin = await newStaff(t, 'Admin');
    const first = await rowOf(admin.email);
    expect(first).toMatchObject({
      state: 'Active',
      role: 'admin',
      two_factor: 'on',
      last_sign_in_at: expect.any(String),
      open_sessions: 1,
      deactivated_at: null,
    });
    const firstAt = Date.parse(first!.last_sign_in_at!);
    expect(firstAt).toBeGreaterThanOrEqual(before);
    expect(firstAt).toBeLessThanOrEqual(t.clock.now().getTime());
    await secondSession(admin);
    const row = await rowOf(admin.email);
    expect(row?.open_sessions).toBe(2);
    // The second sign-in, 30 s of clock later.
    expect(Date.parse(row!.last_sign_in_at!)).toBeGreaterThanOrEqual(firstAt + 30_000);
    // A logout ends one of them.
    expect((await t.api('DELETE', '/account/logout', { token: admin.token })).status).toBe(200);
    expect((await rowOf(admin.email))?.open_sessions).toBe(1);
  });

  it('an invited admin: no second factor yet, never signed in, no sessions', async () => {
    const email = uniqueEmail('staff');
    const res = await t.api('POST', '/account/admins', {
      token: superAdmin.token,
      body: { first_name: 'Abena', last_name: 'Ofori', phone_number: '+233241112233', email, role: 'admin' },
    });
    expect(res.status).toBe(201);
    const expected = {
      state: 'Invited',
      two_factor: 'not_set_up',
      last_sign_in_at: null,
      open_sessions: 0,
      deactivated_at: null,
    };
    expect(res.body.data).toMatchObject(expected);
    expect(await rowOf(email)).toMatchObject(expected);
  });

  it('the CSV export carries them too', async () => {
    const admin = await newStaff(t, 'Admin');
    const res = await fetch(`${t.url}/api/v1/account/admins?format=csv`, {
      headers: { authorization: `Bearer ${superAdmin.token}` },
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split(/\r?\n/);
    expect(lines[0]).toContain('Second Factor,Last Sign-in,Open Sessions,Deactivated');
    const line = lines.find((l) => l.includes(admin.email))!;
    expect(line).toMatch(/,on,\d{4}-\d\d-\d\dT[^,]+,1,$/);
  });

  it('a session idle past the limit is not counted as open', async () => {
    const admin = await newStaff(t, 'Admin');
    expect((await rowOf(admin.email))?.open_sessions).toBe(1);
    t.clock.advance((t.ctx.config.sessions.idleMinutes + 1) * 60_000);
    await relogin(superAdmin);
    expect((await rowOf(admin.email))?.open_sessions).toBe(0);
    expect((await profile(admin)).status).toBe(401);
  });
});

/** The Super-Admin's own session after the clock moved on. */
async function relogin(a: Actor) {
  t.clock.advance(30_000);
  a.token = (await logIn(t, a.email, a.password, a.secret)).token;
}

describe('DELETE /account/admins/{id}/sessions', () => {
  it('ends every session of the staff member, answers how many, and is audited', async () => {
    const admin = await newStaff(t, 'Admin');
    const other = await secondSession(admin);
    const res = await endSessions(superAdmin, admin.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ended: 2, message: '2 sessions ended.' });
    expect((await profile(admin)).status).toBe(401);
    expect((await t.api('GET', '/individuals/profile', { token: other })).status).toBe(401);
    expect((await rowOf(admin.email))?.open_sessions).toBe(0);
    // Nothing left to end; the account itself is untouched and they sign in again.
    const again = await endSessions(superAdmin, admin.id);
    expect(again.body.data).toEqual({ ended: 0, message: 'There were no open sessions to end.' });
    expect(await auditRows(superAdmin, 'admin.sessions_end', admin.id)).toHaveLength(2);
    t.clock.advance(30_000);
    await logIn(t, admin.email, PASSWORD, admin.secret);
    expect((await rowOf(admin.email))?.open_sessions).toBe(1);
  });

  it('ends a sign-in under way: a password given before, a code after, is refused', async () => {
    const admin = await newStaff(t, 'Admin');
    t.clock.advance(30_000);
    const ip = randomIp();
    const step1 = await t.api('POST', '/account/login', { body: { email: admin.email, password: PASSWORD }, ip });
    expect(step1.status).toBe(200);
    expect((await endSessions(superAdmin, admin.id)).status).toBe(200);
    const step2 = await t.api('POST', '/account/login-confirm', {
      body: { token: step1.body.data.token, code: await totpCode(t, admin.secret) },
      ip,
    });
    expect(step2.status).toBe(401);
  });

  it('on one’s own id, ends the other sessions and keeps the one asking', async () => {
    const me = await newStaff(t, 'Super-Admin');
    const phone = await secondSession(me);
    const laptop = me.token;
    me.token = await secondSession(me);
    const res = await endSessions(me, me.id);
    expect(res.status).toBe(200);
    expect(res.body.data.ended).toBe(2);
    expect((await profile(me)).status).toBe(200);
    for (const token of [phone, laptop])
      expect((await t.api('GET', '/individuals/profile', { token })).status).toBe(401);
  });

  it('404 for an unknown, malformed, customer’s or deleted id', async () => {
    const customer = await newIndividual(t);
    const gone = await newStaff(t, 'Admin');
    expect((await t.api('DELETE', `/account/admins/${gone.id}`, { token: superAdmin.token })).status).toBe(202);
    for (const id of [crypto.randomUUID(), 'not-a-uuid', customer.id, gone.id])
      expect((await endSessions(superAdmin, id)).status).toBe(404);
    // The customer's session is untouched.
    expect((await profile(customer)).status).toBe(200);
  });
});

describe('POST /account/admins/{id}/deactivate and /reactivate', () => {
  it('deactivation ends their sessions at once and refuses their sign-in; reactivation lets them in again', async () => {
    const admin = await newStaff(t, 'Admin');
    const res = await deactivate(superAdmin, admin.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toBe('Admin deactivated.');
    expect((await profile(admin)).status).toBe(401);
    const row = await rowOf(admin.email);
    expect(row).toMatchObject({ state: 'Deactivated', open_sessions: 0, deactivated_at: expect.any(String) });

    const refused = await t.api('POST', '/account/login', {
      body: { email: admin.email, password: PASSWORD },
      ip: randomIp(),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This account has been deactivated. Please contact support.');

    const twice = await deactivate(superAdmin, admin.id);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This administrator is already deactivated.');

    const back = await reactivate(superAdmin, admin.id);
    expect(back.status).toBe(200);
    expect(back.body.data).toBe('Admin reactivated.');
    expect(await rowOf(admin.email)).toMatchObject({ state: 'Active', deactivated_at: null, role: 'admin' });
    t.clock.advance(30_000);
    await logIn(t, admin.email, PASSWORD, admin.secret);
    const again = await reactivate(superAdmin, admin.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This administrator is already active.');

    expect(await auditRows(superAdmin, 'admin.deactivate', admin.id)).toHaveLength(1);
    expect(await auditRows(superAdmin, 'admin.reactivate', admin.id)).toHaveLength(1);
  });

  it('a sign-in under way when they were deactivated is refused with the same message', async () => {
    const admin = await newStaff(t, 'Admin');
    t.clock.advance(30_000);
    const ip = randomIp();
    const step1 = await t.api('POST', '/account/login', { body: { email: admin.email, password: PASSWORD }, ip });
    expect((await deactivate(superAdmin, admin.id)).status).toBe(200);
    const step2 = await t.api('POST', '/account/login-confirm', {
      body: { token: step1.body.data.token, code: await totpCode(t, admin.secret) },
      ip,
    });
    expect(step2.status).toBe(403);
    expect(step2.body.message).toBe('This account has been deactivated. Please contact support.');
  });

  it('never oneself (403), and 404 for an unknown, malformed or customer’s id', async () => {
    for (const call of [deactivate, reactivate]) {
      const self = await call(superAdmin, superAdmin.id);
      expect(self.status).toBe(403);
      expect(self.body.message).toMatch(/^You cannot (de|re)activate your own account\.$/);
    }
    const customer = await newIndividual(t);
    for (const id of [crypto.randomUUID(), 'not-a-uuid', customer.id]) {
      expect((await deactivate(superAdmin, id)).status).toBe(404);
      expect((await reactivate(superAdmin, id)).status).toBe(404);
    }
    expect((await profile(superAdmin)).status).toBe(200);
    expect((await profile(customer)).status).toBe(200);
  });
});

describe('who may end sessions and deactivate', () => {
  it('staff.manage only: an Admin, an Auditor, other staff roles, a customer and a company get 403 and nothing changes', async () => {
    const target = await newStaff(t, 'Admin');
    const callers = [
      await newStaff(t, 'Admin'),
      await staffAs('Auditor'),
      await staffAs('Compliance'),
      await staffAs('Finance'),
      await staffAs('Support'),
      await newIndividual(t),
      await newCompany(t),
    ];
    for (const who of callers) {
      expect((await endSessions(who, target.id)).status).toBe(403);
      expect((await deactivate(who, target.id)).status).toBe(403);
      expect((await reactivate(who, target.id)).status).toBe(403);
      // Not even on their own id.
      expect((await endSessions(who, who.id)).status).toBe(403);
    }
    for (const url of [`/account/admins/${target.id}/deactivate`, `/account/admins/${target.id}/reactivate`])
      expect((await t.api('POST', url)).status).toBe(401);
    expect((await t.api('DELETE', `/account/admins/${target.id}/sessions`)).status).toBe(401);
    expect((await profile(target)).status).toBe(200);
    expect(await rowOf(target.email)).toMatchObject({ state: 'Active', open_sessions: 1 });
  });
});

/**
 * "Last" is about every active Super-Admin in the database, so these tests set the others aside
 * (soft-deleted) while they run, as admins.test.ts does: PGlite only.
 */
describe.skipIf(!!inject('postgresUrl'))('the last active Super-Admin', () => {
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

  it('when the last two deactivate each other at once, one of them stays active', async () => {
    const a = await newStaff(t, 'Super-Admin');
    const b = await newStaff(t, 'Super-Admin');
    await withOnlySuperAdmins([a, b], async () => {
      const [ab, ba] = await Promise.all([deactivate(a, b.id), deactivate(b, a.id)]);
      const [won, lost] = ab.status === 200 ? [ab, ba] : [ba, ab];
      expect(won.status).toBe(200);
      // The other is refused by the rule (409), or because its caller's session already ended (401).
      if (lost.status === 409) expect(lost.body.message).toBe('The last active Super-Admin cannot be deactivated.');
      else expect(lost.status).toBe(401);
      const survivor = ab.status === 200 ? a : b;
      const rows = ((await list(survivor)).body.data as ApiAdmin[]).filter(
        (x) => x.role === 'super-admin' && x.state === 'Active',
      );
      expect(rows.map((r) => r.email)).toEqual([survivor.email]);
      await reactivate(survivor, survivor === a ? b.id : a.id);
    });
  });

  it('a deactivated Super-Admin does not count: the one left active cannot be demoted', async () => {
    const a = await newStaff(t, 'Super-Admin');
    const b = await newStaff(t, 'Super-Admin');
    await withOnlySuperAdmins([a, b], async () => {
      expect((await deactivate(a, b.id)).status).toBe(200);
      const res = await t.api('PUT', `/account/admins/${a.id}`, {
        token: a.token,
        body: { first_name: 'Staff', last_name: 'Super-Admin', email: a.email, role: 'admin' },
      });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('The last Super-Admin cannot be demoted.');
      expect((await reactivate(a, b.id)).status).toBe(200);
    });
  });
});

/**
 * Two app instances on one PostgreSQL database, each with its own memory of sessions: what one
 * instance ends is refused by the other on the very next call, with no wait.
 */
describeOnPostgres('ending and deactivating staff, seen by a second instance at once', () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await startTestApp();
  });
  afterAll(() => b.close());

  it('a staff token used on B, deactivated through A, is 401 on B at the very next call', async () => {
    const admin = await newStaff(t, 'Admin');
    for (let i = 0; i < 3; i++) expect((await profile(admin, b)).status).toBe(200);
    expect((await deactivate(superAdmin, admin.id)).status).toBe(200);
    expect((await profile(admin, b)).status).toBe(401);
    expect((await b.api('GET', '/account/admins', { token: admin.token })).status).toBe(401);
  });

  it('a staff token used on B, its sessions ended through A, is 401 on B at the very next call', async () => {
    const admin = await newStaff(t, 'Admin');
    const other = await secondSession(admin);
    for (const token of [admin.token, other])
      for (let i = 0; i < 3; i++) expect((await b.api('GET', '/individuals/profile', { token })).status).toBe(200);
    const res = await endSessions(superAdmin, admin.id);
    expect(res.body.data.ended).toBe(2);
    for (const token of [admin.token, other])
      expect((await b.api('GET', '/individuals/profile', { token })).status).toBe(401);
  });

  it('repeatedly: never one stale answer on B', async () => {
    for (let round = 0; round < 10; round++) {
      const admin = await newStaff(t, 'Admin');
      expect((await profile(admin, b)).status).toBe(200);
      expect((await profile(admin, b)).status).toBe(200);
      expect((await (round % 2 ? endSessions : deactivate)(superAdmin, admin.id)).status).toBe(200);
      expect((await profile(admin, b)).status).toBe(401);
    }
  });
});
