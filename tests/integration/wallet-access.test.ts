import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPUP_STATES } from '@shared/contract';
import { topupTotals } from '../../server/modules/wallet/queries';
import { rows } from './support/cards';
import { expectAgreeing } from './support/settled';
import { type TestApp, startTestApp } from './support/app';
import { fundWallet } from './support/money';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { decide, startTopup, tronTopupReady, walletOf } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (a: Actor | null, path: string) => t.api('GET', path, { token: a?.token });
const REPORTS = ['/reports/view-wallet-transactions', '/reports/view-wallet-transfers', '/reports/view-wallet-topups'];
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('customers reach only their own wallet', () => {
  it('answers 404 for another account’s wallet, whatever the id', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const company = await newCompany(t);
    await fundWallet(t, b.id, 1000);
    await fundWallet(t, company.companyId!, 1000);
    for (const id of [b.id, company.companyId!, company.id, randomUUID()]) {
      const res = await get(a, `/wallet/account-balance/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'The wallet was not found.', error: 'The wallet was not found.' });
    }
    expect((await get(a, '/wallet/account-balance/not-a-uuid')).status).toBe(404);
    for (const path of REPORTS) {
      for (const other of [b.id, company.companyId!])
        expect((await get(a, `${path}?wallet=${other}`)).status, path).toBe(404);
    }
    for (const path of ['/reports/view-wallet-transactions', '/reports/view-wallet-topups']) {
      expect((await get(a, `${path}?company_id=${company.companyId}`)).status).toBe(404);
      expect((await get(a, `${path}?individual_id=${b.id}`)).status).toBe(404);
      expect((await get(company, `${path}?individual_id=${a.id}`)).status).toBe(404);
    }
    // other top-ups by reference
    const top = await startTopup(t, b, '10.00');
    expect((await get(a, `/wallet/topup/${top.reference}`)).status).toBe(404);
  });

  it('gives a Company-User the company wallet and its reports, and nothing else', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const a = await newIndividual(t);
    await fundWallet(t, admin.companyId!, 4_200);
    await t.api('POST', '/wallet/transfer', { token: admin.token, body: { wallet_id: a.id, amount: '2.00' } });
    expect((await get(member, `/wallet/account-balance/${admin.companyId}`)).body.data).toBe('40.00');
    const txs = await get(member, `/reports/view-wallet-transactions?wallet=${admin.companyId}`);
    expect(txs.status).toBe(200);
    expect(txs.body.data.map((x: { type: string }) => x.type)).toEqual(['transfer', 'deposit']);
    expect((await get(member, `/reports/view-wallet-transfers?wallet=${admin.companyId}`)).body.data[0]).toMatchObject({
      type: 'Debit',
      amount: '2.00',
    });
    // without a filter a report is about the caller's own wallet
    expect((await get(member, '/reports/view-wallet-transfers')).body.total).toBe(1);
    // a company user has no wallet of their own
    expect((await get(member, `/wallet/account-balance/${member.id}`)).status).toBe(404);
    expect((await get(member, `/wallet/account-balance/${a.id}`)).status).toBe(404);
    expect((await get(member, `/reports/view-wallet-topups?wallet=${a.id}`)).status).toBe(404);
  });

  it('lets staff read any wallet, and 404 only when there is none', async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 1_050);
    expect((await get(staff, `/wallet/account-balance/${a.id}`)).body.data).toBe('10.50');
    expect((await get(staff, `/reports/view-wallet-transactions?wallet=${a.id}`)).body.total).toBe(1);
    for (const id of [randomUUID(), staff.id]) {
      expect((await get(staff, `/wallet/account-balance/${id}`)).status).toBe(404);
      expect((await get(staff, `/reports/view-wallet-topups?wallet=${id}`)).status).toBe(404);
    }
  });
});

describe('roles', () => {
  const fee = randomUUID();
  const staffCalls: [string, string, unknown?][] = [
    ['GET', '/wallet/list-topups'],
    ['POST', '/wallet/approve-topup', { topup_id: randomUUID(), action: 'approve' }],
    ['PUT', `/fees/${fee}`, { value: '1.00' }],
    ['GET', `/company/fees/${randomUUID()}`],
    [
      'PUT',
      '/param/momo-sync',
      { momo_name: 'X', momo_number: '1', network: 'N', rate: '1', flat_fee: '1', momo_alert_emails: 'a@example.com' },
    ],
  ];

  it('refuses customers on every staff endpoint (403) and anyone without a token (401)', async () => {
    const admin = await newCompany(t);
    const customers = [await newIndividual(t), admin, await newCompanyMember(t, admin)];
    for (const [method, path, body] of staffCalls) {
      for (const c of customers)
        expect((await t.api(method, path, { token: c.token, body })).status, `${method} ${path}`).toBe(403);
      expect((await t.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
      expect((await t.api(method, path, { body, token: 'not-a-session' })).status).toBe(401);
    }
  });

  it('keeps fees and momo settings for the Super-Admin: an Admin gets 403', async () => {
    const admin = await newStaff(t, 'Admin');
    const fees = await get(admin, '/fees?for=default');
    expect(fees.status).toBe(200);
    const id = fees.body.data[0].id;
    const edit = await t.api('PUT', `/fees/${id}`, { token: admin.token, body: { value: '9.99' } });
    expect(edit.status).toBe(403);
    expect((await get(admin, `/fees?for=default`)).body.data[0].value).toBe(fees.body.data[0].value);
    expect((await t.api('PUT', '/param/momo-sync', { token: admin.token, body: staffCalls[4]![2] })).status).toBe(403);
  });

  it('refuses staff on the customer wallet endpoints (403) and anonymous callers (401)', async () => {
    const staff = await newStaff(t, 'Super-Admin');
    const calls: [string, string, unknown?][] = [
      ['POST', '/wallet/topup-balance', { wallet_id: randomUUID(), amount: '5.00' }],
      ['POST', '/wallet/topup-confirm', { reference: 'TOP-0000000000', transaction_hash: 'a'.repeat(64) }],
      ['POST', '/wallet/transfer', { wallet_id: randomUUID(), amount: '5.00' }],
      ['POST', '/wallet/momo-confirm', { topup_id: randomUUID() }],
      ['GET', '/wallet/topup/TOP-0000000000'],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.api(method, path, { token: staff.token, body })).status, path).toBe(403);
      expect((await t.api(method, path, { body })).status, path).toBe(401);
    }
    for (const path of [...REPORTS, `/wallet/account-balance/${randomUUID()}`, '/wallet/list-momo-topups'])
      expect((await get(null, path)).status).toBe(401);
  });
});

describe('GET /wallet/list-topups', () => {
  it('pages with the list envelope and keeps the filters in its links', async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    for (const amount of ['1.00', '2.00', '3.00']) await startTopup(t, a, amount);
    const first = await get(staff, `/wallet/list-topups?wallet=${a.id}&per_page=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      total: 3,
      current_page: 1,
      last_page: 2,
      per_page: 2,
      from: 1,
      to: 2,
      totals: { amount: '6.00', pending: '6.00' },
    });
    expect(first.body.data.map((r: { amount: string }) => r.amount)).toEqual(['3.00', '2.00']);
    const next = new URL(first.body.links.next, t.url);
    expect(Object.fromEntries(next.searchParams)).toEqual({ wallet: a.id, per_page: '2', page: '2' });
    expect(first.body.links.prev).toBeNull();
    const second = await t.api('GET', next.pathname.replace(/^\/api\/v1/, '') + next.search, { token: staff.token });
    expect(second.body).toMatchObject({ total: 3, current_page: 2, from: 3, to: 3, links: { next: null } });
    expect(second.body.data.map((r: { amount: string }) => r.amount)).toEqual(['1.00']);
    const beyond = await get(staff, `/wallet/list-topups?wallet=${a.id}&per_page=2&page=5`);
    expect(beyond.body).toMatchObject({ data: [], from: null, to: null, total: 3 });
    for (const q of ['per_page=101', 'per_page=0', 'page=0', 'page=x'])
      expect((await get(staff, `/wallet/list-topups?${q}`)).status, q).toBe(422);
  });

  it('filters by state, method and kind of owner, with totals of what is shown', async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    await startTopup(t, a, '100.00');
    await tronTopupReady(t, a, '250.00');
    const approved = await tronTopupReady(t, a, '1,000.00');
    await startTopup(t, a, '5.00', 'momo');
    expect((await decide(t, staff, approved.id, 'approve')).status).toBe(200);
    const list = async (q: string) => (await get(staff, `/wallet/list-topups?wallet=${a.id}&${q}`)).body;
    expect((await list('state=Pending')).totals).toEqual({
      amount: '105.00',
      received: '0.00',
      pending: '105.00',
      denied: '0.00',
    });
    expect((await list('state=Hash-provided')).data.map((r: { amount: string }) => r.amount)).toEqual(['250.00']);
    const done = await list('state=Approved');
    expect(done.data).toHaveLength(1);
    expect(done.data[0]).toMatchObject({
      amount: '1000.00',
      credited: '995.00',
      balance_before: '0.00',
      balance_after: '995.00',
    });
    expect((await list('method=Momo')).data.map((r: { amount: string }) => r.amount)).toEqual(['5.00']);
    expect((await list('for=individual')).total).toBe(4);
    expect((await list('for=company')).total).toBe(0);
    // What was received (Approved) apart from what is pending or denied.
    expect((await list('')).totals).toEqual({
      amount: '1355.00',
      received: '1000.00',
      pending: '355.00',
      denied: '0.00',
    });
    const pendingOne = (await list('state=Pending')).data.find((r: { amount: string }) => r.amount === '100.00');
    expect((await decide(t, staff, pendingOne.id, 'deny', 'No payment arrived')).status).toBe(200);
    expect((await list('')).totals).toEqual({
      amount: '1355.00',
      received: '1000.00',
      pending: '255.00',
      denied: '100.00',
    });
    const bad = await get(staff, '/wallet/list-topups?state=Lost');
    expect(bad.status).toBe(422);
    expect(bad.body.error.state).toEqual(['Unknown state']);
  });

  it('keeps its total and sums by state, method and owner kind as top-ups come, change and go, as summing them says', async () => {
    const staff = await newStaff(t);
    const figures = async (q: string) => {
      const res = await get(staff, `/wallet/list-topups?per_page=1${q}`);
      expect(res.status, q).toBe(200);
      return { total: res.body.total as number, ...(res.body.totals as Record<string, string>) };
    };
    const summed = async (q: { state?: string; method?: string; owner?: string }) => {
      const [r] = await rows(
        t,
        sql`select count(*)::int as total,
              coalesce(sum(t.amount), 0)::bigint as amount,
              coalesce(sum(t.amount) filter (where t.state = 'Approved'), 0)::bigint as received,
              coalesce(sum(t.amount) filter (where t.state = 'Denied'), 0)::bigint as denied
            from topups t left join companies co on co.id = t.wallet_id
            where (${q.state ?? null}::text is null or t.state = ${q.state ?? null})
              and (${q.method ?? null}::text is null or t.method = ${q.method ?? null})
              and (${q.owner ?? null}::text is null or (co.id is null) = (${q.owner ?? null} = 'individual'))`,
      );
      const [amount, received, denied] = [r!.amount, r!.received, r!.denied].map(Number) as [number, number, number];
      return { total: Number(r!.total), ...topupTotals(amount, received, denied) };
    };
    const agree = async () => {
      const cases: { state?: string; method?: string; owner?: string }[] = [{}];
      for (const state of TOPUP_STATES) cases.push({ state });
      for (const method of ['Tron', 'Momo']) cases.push({ method });
      for (const owner of ['company', 'individual']) cases.push({ owner }, { owner, method: 'Momo', state: 'Pending' });
      for (const c of cases) {
        const q = `${c.state ? `&state=${encodeURIComponent(c.state)}` : ''}${c.method ? `&method=${c.method}` : ''}${c.owner ? `&for=${c.owner}` : ''}`;
        await expectAgreeing(
          () => figures(q),
          () => summed(c),
          q,
        );
      }
    };
    await agree();

    const a = await newIndividual(t);
    const company = await newCompany(t);
    const approved = await tronTopupReady(t, a, '40.00');
    const denied = await startTopup(t, company, '7.50', 'momo');
    await startTopup(t, company, '2.25');
    expect((await decide(t, staff, approved.id, 'approve')).status).toBe(200);
    const [deniedRow] = await rows(t, sql`select id from topups where reference = ${denied.reference}`);
    expect((await decide(t, staff, String(deniedRow!.id), 'deny', 'No payment arrived')).status).toBe(200);
    await agree();

    // Several top-ups in one statement, changed and removed (the product removes none: this keeps the sums honest).
    const copies = await rows(
      t,
      sql`insert into topups (id, wallet_id, reference, code, method, amount, state, created_by, created_at, updated_at)
          select gen_random_uuid(), wallet_id, reference || '-copy' || n, code, method, amount * n, state, created_by,
            created_at, updated_at
          from topups, generate_series(1, 3) n where id = ${approved.id} returning id`,
    );
    const ids = sql.join(
      copies.map((r) => sql`${r.id}`),
      sql`, `,
    );
    await agree();
    await t.ctx.db.execute(sql`update topups set state = 'Denied', amount = amount + 1 where id in (${ids})`);
    await agree();
    await t.ctx.db.execute(sql`update topups set state = state where id in (${ids})`);
    await agree();
    await t.ctx.db.execute(sql`delete from topups where id in (${ids})`);
    await agree();
  });

  it('filters by UTC day, both ends inclusive, for staff and for the customer', async () => {
    // Start two days ahead, a minute before midnight UTC.
    const now = t.clock.now().getTime();
    const midnight = (Math.floor(now / DAY) + 2) * DAY;
    t.clock.advance(midnight - 60_000 - now);
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    t.clock.advance(midnight - 10_000 - t.clock.now().getTime());
    const late = await startTopup(t, a, '11.00'); // 23:59:50
    t.clock.advance(midnight + 1_000 - t.clock.now().getTime());
    const early = await startTopup(t, a, '22.00'); // 00:00:01 the next day
    const [d1, d2] = [dayOf(midnight - 1), dayOf(midnight)];

    const refs = async (who: Actor, path: string, q: string) => {
      const res = await get(who, `${path}?wallet=${walletOf(a)}&${q}`);
      expect(res.status).toBe(200);
      return res.body.data.map((r: { reference: string }) => r.reference).sort();
    };
    for (const [who, path] of [
      [staff, '/wallet/list-topups'],
      [a, '/reports/view-wallet-topups'],
    ] as const) {
      expect(await refs(who, path, `start_date=${d1}&end_date=${d1}`)).toEqual([late.reference]);
      expect(await refs(who, path, `start_date=${d2}&end_date=${d2}`)).toEqual([early.reference]);
      expect(await refs(who, path, `start_date=${d1}&end_date=${d2}`)).toEqual(
        [late.reference, early.reference].sort(),
      );
      expect(await refs(who, path, `start_date=${d2}`)).toEqual([early.reference]);
      expect(await refs(who, path, `end_date=${d1}`)).toEqual([late.reference]);
      expect(await refs(who, path, `end_date=${dayOf(midnight - DAY - 1)}`)).toEqual([]);
    }
    const totals = await get(staff, `/wallet/list-topups?wallet=${a.id}&start_date=${d2}&end_date=${d2}`);
    expect(totals.body.totals).toEqual({ amount: '22.00', received: '0.00', pending: '22.00', denied: '0.00' });

    // A range's page is in update order, as without one (a small range's top-ups are sorted, not walked): the
    // earlier top-up, updated last, comes first.
    await t.ctx.db.execute(
      sql`update topups set updated_at = updated_at + interval '1 hour' where reference = ${late.reference}`,
    );
    const ordered = async (q: string) =>
      (await get(staff, `/wallet/list-topups?wallet=${walletOf(a)}&${q}`)).body.data.map(
        (r: { reference: string }) => r.reference,
      );
    expect(await ordered(`start_date=${d1}&end_date=${d2}`)).toEqual([late.reference, early.reference]);
    expect(await ordered(`start_date=${d1}&end_date=${d2}`)).toEqual(await ordered('per_page=10'));
  });

  it.each([
    ['start_date=2026-13-01', 'start_date', 'Start date must be a date such as 2026-01-31'],
    ['start_date=31/01/2026', 'start_date', 'Start date must be a date such as 2026-01-31'],
    ['start_date=2026-02-30', 'start_date', 'Start date must be a date such as 2026-01-31'],
    ['start_date=yesterday', 'start_date', 'Start date must be a date such as 2026-01-31'],
    ['end_date=2026-1-5', 'end_date', 'End date must be a date such as 2026-01-31'],
    ['start_date=2026-02-01&end_date=2026-01-31', 'end_date', 'End date must be on or after the start date'],
  ])('refuses %s (422) on staff and customer lists', async (q, field, message) => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    for (const [who, path] of [[staff, '/wallet/list-topups'], ...REPORTS.map((p) => [a, p] as const)] as const) {
      const res = await get(who, `${path}?${q}`);
      expect(res.status, path).toBe(422);
      expect(res.body.error[field], path).toEqual([message]);
    }
  });
});
