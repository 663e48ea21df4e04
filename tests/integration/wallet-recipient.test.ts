import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { newCompany, newCompanyMember, newIndividual, newStaff, startFreshWindow } from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const lookUp = (token: string | undefined, walletId: string, app = t) =>
  app.api('GET', `/wallet/recipient/${encodeURIComponent(walletId)}`, { token });

describe('GET /wallet/recipient/:walletId', () => {
  it('names a person by first name and last initial, a company by its name, to any customer', async () => {
    const payer = await newIndividual(t);
    const yaw = await newIndividual(t, { first_name: 'Yaw', last_name: 'Tetteh' });
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);

    const person = await lookUp(payer.token, yaw.id);
    expect(person.status).toBe(200);
    expect(person.body).toEqual({ data: { name: 'Yaw T.', type: 'individual' } });
    // the full last name never leaves the server
    expect(JSON.stringify(person.body)).not.toContain('Tetteh');

    const firm = await lookUp(member.token, company.companyId!);
    expect(firm.body).toEqual({ data: { name: 'Volta Trading Ltd', type: 'company' } });
    expect((await lookUp(yaw.token, company.companyId!)).body.data.name).toBe('Volta Trading Ltd');
  });

  it('is 404 in the one error shape for an id that names no wallet, a deactivated one, or a staff member', async () => {
    const payer = await newIndividual(t);
    const gone = await newIndividual(t, { first_name: 'Kwame', last_name: 'Boateng' });
    await t.ctx.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, gone.id));
    const staff = await newStaff(t);
    for (const id of [randomUUID(), gone.id, staff.id]) {
      const res = await lookUp(payer.token, id);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toMatch(/Kwame|Boateng/);
    }
  });

  it('refuses an id that is not a wallet id with a 422 on wallet_id', async () => {
    const payer = await newIndividual(t);
    for (const bad of ['not-a-wallet', '12345', `${randomUUID()}x`, ' ']) {
      const res = await lookUp(payer.token, bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.error).toEqual({ wallet_id: ['Enter a valid wallet id'] });
    }
  });

  it('is 401 without a session and 403 for staff, who have no wallet to pay from', async () => {
    const yaw = await newIndividual(t, { first_name: 'Yaw', last_name: 'Tetteh' });
    const none = await lookUp(undefined, yaw.id);
    expect(none.status).toBe(401);
    expect(none.body.data).toBeUndefined();
    for (const role of ['Admin', 'Super-Admin'] as const) {
      const staff = await newStaff(t, role);
      const res = await lookUp(staff.token, yaw.id);
      expect(res.status, role).toBe(403);
      expect(res.body.data).toBeUndefined();
    }
  });

  it('limits lookups per user across instances of the API (429 with Retry-After), then opens again', async () => {
    // A second instance on the same database: the count is shared, not kept in either process.
    const other = await startTestApp();
    try {
      startFreshWindow(t);
      other.clock.advance(t.clock.now().getTime() - other.clock.now().getTime());
      const max = t.ctx.config.rateLimit.recipientLookups;
      const payer = await newIndividual(t);
      const bystander = await newIndividual(t);
      const yaw = await newIndividual(t, { first_name: 'Yaw', last_name: 'Tetteh' });
      for (let i = 0; i < max; i++) {
        // unknown ids count too: the limit is on guessing
        const id = i % 3 === 0 ? randomUUID() : yaw.id;
        const res = await lookUp(payer.token, id, i % 2 ? other : t);
        expect(res.status, `lookup ${i + 1}`).toBe(id === yaw.id ? 200 : 404);
      }
      for (const app of [t, other]) {
        const limited = await lookUp(payer.token, yaw.id, app);
        expect(limited.status).toBe(429);
        expect(limited.body).toEqual({ message: expect.stringMatching(/^Too many/), error: expect.any(String) });
        const retry = Number(limited.headers.get('retry-after'));
        expect(retry).toBeGreaterThan(0);
        expect(retry).toBeLessThanOrEqual(t.ctx.config.rateLimit.windowSeconds);
      }
      // another user is not held back by this one's lookups
      expect((await lookUp(bystander.token, yaw.id)).status).toBe(200);

      startFreshWindow(t);
      expect((await lookUp(payer.token, yaw.id)).body.data).toEqual({ name: 'Yaw T.', type: 'individual' });
    } finally {
      await other.close();
    }
  });
});
