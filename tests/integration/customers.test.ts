import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { newCard, verifyAccount } from './support/cards';
import { fundWallet } from './support/money';

/** The customer database (back-office §2.5): each account's master wallet, cards and users, for staff only. */

let t: TestApp;
let staff: Actor;
beforeAll(async () => {
  t = await startTestApp();
  staff = await newStaff(t);
});
afterAll(() => t.close());

const list = (path: '/individuals' | '/companies', query: string, who = staff) =>
  t.api('GET', `${path}?${query}`, { token: who.token });

describe('GET /individuals', () => {
  it("shows each individual's own master wallet balance and card counts", async () => {
    const rich = await newIndividual(t);
    const poor = await newIndividual(t);
    await fundWallet(t, rich.id, 50_000);
    await newCard(t, rich, { card_amount: '40.00' });
    const frozen = await newCard(t, rich, { card_amount: '10.00' });
    expect(
      (
        await t.api('POST', `/cards/change-status/${frozen.card.id}`, {
          token: rich.token,
          body: { status: 'deactivate' },
        })
      ).status,
    ).toBe(202);

    const richRow = (await list('/individuals', `name=${encodeURIComponent(rich.email)}`)).body.data;
    expect(richRow).toHaveLength(1);
    // 500.00 less the two cards' loads and their fees
    expect(Number(richRow[0].master_wallet)).toBeLessThan(450);
    expect(Number(richRow[0].master_wallet)).toBeGreaterThan(0);
    const balance = await t.api('GET', `/wallet/account-balance/${rich.session.user.wallet_id}`, { token: rich.token });
    expect(richRow[0].master_wallet).toBe(balance.body.data);
    expect(richRow[0]).toMatchObject({ email: rich.email, cards_count: 2, active_cards_count: 1 });

    const poorRow = (await list('/individuals', `name=${encodeURIComponent(poor.email)}`)).body.data[0];
    expect(poorRow).toMatchObject({ email: poor.email, master_wallet: '0.00', cards_count: 0, active_cards_count: 0 });
  });

  it('narrows by state', async () => {
    const a = await newIndividual(t);
    await verifyAccount(t, a);
    const verified = await list('/individuals', `state=Verified&name=${encodeURIComponent(a.email)}`);
    expect(verified.body.data.map((r: { email: string }) => r.email)).toEqual([a.email]);
    expect((await list('/individuals', `state=Unverified&name=${encodeURIComponent(a.email)}`)).body.data).toEqual([]);
    const bad = await list('/individuals', 'state=Sleeping');
    expect(bad.status).toBe(422);
    expect(bad.body.error.state).toEqual(['Unknown state']);
  });

  it('totals each state as a count of the rows would, through verification, deactivation, deletion and role changes', async () => {
    const [a, b, c] = [await newIndividual(t), await newIndividual(t), await newIndividual(t)];
    await newCompany(t);
    await verifyAccount(t, a);
    await t.ctx.db.execute(sql`update users set deactivated_at = now() where id = ${b.id}`);
    await t.ctx.db.execute(sql`update users set deleted_at = now() where id = ${c.id}`);
    await t.ctx.db.execute(sql`update companies set state = 'pending' where id in (select id from companies limit 1)`);
    await t.ctx.db.execute(
      sql`update users set role = 'Admin' where id = (select id from users where role = 'Individual' and id <> ${a.id} limit 1)`,
    );
    const states = ['', 'state=Verified', 'state=In-review', 'state=Unverified', 'state=Deactivated'];
    for (const [path, table, where] of [
      ['/individuals', 'users', "role = 'Individual' and deleted_at is null"],
      ['/companies', 'companies', 'true'],
    ] as const)
      for (const q of states) {
        const state = q.split('=')[1];
        const filter = !state
          ? 'true'
          : state === 'Deactivated'
            ? 'deactivated_at is not null'
            : `deactivated_at is null and state = '${state === 'In-review' ? 'pending' : state}'`;
        const counted = await t.ctx.db.execute(
          sql.raw(`select count(*)::int as n from ${table} where ${where} and ${filter}`),
        );
        const n = (counted as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
        expect([path, q, (await list(path, q)).body.total]).toEqual([path, q, n]);
      }
  });
});

describe('GET /companies', () => {
  it("counts each company's live users and shows its own wallet and cards", async () => {
    const admin = await newCompany(t);
    await newCompanyMember(t, admin);
    await newCompanyMember(t, admin, 'admin');
    const other = await newCompany(t);
    await fundWallet(t, admin.companyId!, 30_000);
    await newCard(t, admin, { card_amount: '25.00' });

    const rows = (await list('/companies', 'per_page=100')).body.data as Array<{
      id: string;
      users_count: number;
      cards_count: number;
      master_wallet: string;
    }>;
    const mine = rows.find((r) => r.id === admin.companyId)!;
    const theirs = rows.find((r) => r.id === other.companyId)!;
    expect(mine).toMatchObject({ users_count: 3, cards_count: 1 });
    const balance = await t.api('GET', `/wallet/account-balance/${admin.companyId}`, { token: admin.token });
    expect(mine.master_wallet).toBe(balance.body.data);
    expect(theirs).toMatchObject({ users_count: 1, cards_count: 0, master_wallet: '0.00' });
  });
});

describe('who may read the customer database', () => {
  it('is staff only', async () => {
    const customer = await newIndividual(t);
    const company = await newCompany(t);
    for (const who of [customer, company]) {
      expect((await list('/individuals', '', who)).status).toBe(403);
      expect((await list('/companies', '', who)).status).toBe(403);
    }
    expect((await t.api('GET', '/individuals')).status).toBe(401);
  });
});
