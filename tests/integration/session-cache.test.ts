import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, sessions, users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { describeOnPostgres } from './support/postgres-only';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';

let a: TestApp;

beforeAll(async () => {
  a = await startTestApp();
});
afterAll(() => a.close());

const profile = (t: TestApp, who: Actor) => t.api('GET', '/individuals/profile', { token: who.token });

/** Asks until the answer has that status, for up to `ms`; answers the time it took. */
async function until(t: TestApp, who: Actor, status: number, ms = 2_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const got = (await profile(t, who)).status;
    if (got === status) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`still ${got} after ${ms} ms, expected ${status}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('sessions answered from memory, on one instance', () => {
  it('refuses at once a session this instance ended, whatever ended it', async () => {
    const ama = await newIndividual(a);
    expect((await profile(a, ama)).status).toBe(200);
    expect((await profile(a, ama)).status).toBe(200); // now from memory
    await a.ctx.db.update(sessions).set({ revokedAt: a.clock.now() }).where(eq(sessions.userId, ama.id));
    expect((await profile(a, ama)).status).toBe(401);
  });

  it('refuses at once the sessions of a user or company changed straight in the database', async () => {
    const ama = await newIndividual(a);
    const kofi = await newCompany(a);
    for (const who of [ama, kofi]) {
      expect((await profile(a, who)).status).toBe(200);
      expect((await profile(a, who)).status).toBe(200);
    }
    await a.ctx.db.update(users).set({ deactivatedAt: a.clock.now() }).where(eq(users.id, ama.id));
    await a.ctx.db.update(companies).set({ deactivatedAt: a.clock.now() }).where(eq(companies.id, kofi.companyId!));
    expect((await profile(a, ama)).status).toBe(401);
    expect((await profile(a, kofi)).status).toBe(401);
  });

  it('sees a new role at once', async () => {
    const staff = await newStaff(a, 'Super-Admin');
    expect((await a.api('GET', '/account/admins', { token: staff.token })).status).toBe(200);
    await a.ctx.db.update(users).set({ role: 'Admin' }).where(eq(users.id, staff.id));
    expect((await a.api('GET', '/account/admins', { token: staff.token })).status).toBe(403);
  });
});

describeOnPostgres('sessions answered from memory, on two instances of one PostgreSQL', () => {
  let b: TestApp;
  beforeAll(async () => {
    b = await startTestApp();
  });
  afterAll(() => b.close());

  it('a logout or a deactivation on one instance ends the session on the other within a second', async () => {
    const ama = await newIndividual(a);
    const efua = await newIndividual(a);
    const staff = await newStaff(a, 'Admin');
    for (const who of [ama, efua]) {
      expect((await profile(b, who)).status).toBe(200);
      expect((await profile(b, who)).status).toBe(200); // now in b's memory
    }
    expect((await a.api('DELETE', '/account/logout', { token: ama.token })).status).toBe(200);
    expect(await until(b, ama, 401)).toBeLessThan(1_000);

    const off = await a.api('DELETE', `/individuals/${efua.id}`, { token: staff.token });
    expect(off.status).toBe(202);
    expect(await until(b, efua, 401)).toBeLessThan(1_000);
  });
});
