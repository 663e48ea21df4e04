import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { newCompany, newCompanyMember, newStaff } from './support/actors';
import { newCard } from './support/cards';
import { fundWallet } from './support/money';

/** What the back-office card list needs beyond the filters (cards-staff.test.ts): the 'Created By' choices. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /cards: created_by_id for the Created By filter', () => {
  it('names who created each card on the staff list only, and filters by it', async () => {
    const staff = await newStaff(t);
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    await fundWallet(t, company.companyId!, 50_000);
    const byAdmin = (await newCard(t, company, { purpose: 'general', card_amount: '10.00' })).card;
    const byMember = (await newCard(t, member, { purpose: 'general', card_amount: '10.00' })).card;

    const staffList = await t.api('GET', `/cards?company_id=${company.companyId}`, { token: staff.token });
    expect(staffList.status).toBe(200);
    const rows = staffList.body.data as Array<{ id: string; created_by_id?: string; created_by?: string }>;
    expect(rows.find((r) => r.id === byAdmin.id)).toMatchObject({
      created_by_id: company.id,
      created_by: expect.any(String),
    });
    expect(rows.find((r) => r.id === byMember.id)).toMatchObject({ created_by_id: member.id });

    const mine = await t.api('GET', `/cards?company_id=${company.companyId}&created_by=${member.id}`, {
      token: staff.token,
    });
    expect(mine.body.data.map((r: { id: string }) => r.id)).toEqual([byMember.id]);

    // customers' own lists do not carry it
    const own = await t.api('GET', `/cards/company/${company.companyId}`, { token: company.token });
    expect(own.status).toBe(200);
    for (const r of own.body.data) expect(r).not.toHaveProperty('created_by_id');
    // and the staff list stays staff-only
    expect((await t.api('GET', `/cards?company_id=${company.companyId}`, { token: member.token })).status).toBe(403);
  });
});
