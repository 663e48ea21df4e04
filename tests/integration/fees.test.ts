import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { balanceOf, decide, topupRow, tronTopupReady } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Fee {
  id: string;
  name: string;
  type: string;
  value: string;
  state: string;
  for: string;
  for_id: string | null;
  for_name: string | null;
  inherited?: boolean;
}

const DEFAULT_NAMES = [
  'api-monthly',
  'card-issuance-general',
  'card-issuance-media',
  'card-issuance-tokencard',
  'card-load-general',
  'card-load-media',
  'card-load-tokencard',
  'card-maintenance',
  'card-withdraw-general',
  'card-withdraw-media',
  'card-withdraw-tokencard',
  'flat-fee',
  'wallet-topup-tron',
];
const DAY = 86_400_000;

const schedule = async (a: Actor, q: string): Promise<Fee[]> => {
  const res = await t.api('GET', `/fees?${q}`, { token: a.token });
  expect(res.status).toBe(200);
  return res.body.data;
};
const byName = (fees: Fee[], name: string) => fees.find((f) => f.name === name)!;
const put = (who: Actor, id: string, body: unknown) => t.api('PUT', `/fees/${id}`, { token: who.token, body });
const companyFees = async (who: Actor, companyId: string): Promise<Fee[]> =>
  (await t.api('GET', `/company/fees/${companyId}`, { token: who.token })).body.data;
/** The default row of a fee, as staff see it. */
const defaultFee = async (staff: Actor, name: string) =>
  byName(await schedule(staff, 'for=default&per_page=100'), name);

describe('GET /fees for customers', () => {
  it('gives an Individual the default schedule, and 404 for a company id', async () => {
    const a = await newIndividual(t);
    const fees = await schedule(a, 'for=default');
    expect(fees.map((f) => f.name)).toEqual(expect.arrayContaining(DEFAULT_NAMES));
    expect(fees.every((f) => f.for === 'default' && f.inherited === undefined)).toBe(true);
    expect(byName(fees, 'wallet-topup-tron')).toMatchObject({ type: 'percentage', value: '0.50', state: 'Active' });
    expect(byName(fees, 'flat-fee')).toMatchObject({ type: 'fixed', value: '0.50' });
    expect(byName(fees, 'card-issuance-media')).toMatchObject({ type: 'fixed', value: '5.00' });
    const company = await newCompany(t);
    expect((await t.api('GET', `/fees?for=company&for_id=${company.companyId}`, { token: a.token })).status).toBe(404);
  });

  it('gives a company its effective schedule (its own fees over the defaults), and 404 for another company', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const other = await newCompany(t);
    const sa = await newStaff(t, 'Super-Admin');
    const tron = await defaultFee(sa, 'wallet-topup-tron');
    expect((await put(sa, tron.id, { value: '0.80', for: 'company', for_id: admin.companyId })).status).toBe(200);

    for (const who of [admin, member]) {
      for (const q of [`for=company&for_id=${admin.companyId}`, 'for=default']) {
        const fees = await schedule(who, q);
        expect(fees.map((f) => f.name)).toEqual(expect.arrayContaining(DEFAULT_NAMES));
        expect(byName(fees, 'wallet-topup-tron')).toMatchObject({
          value: '0.80',
          for: 'company',
          for_id: admin.companyId,
          inherited: false,
        });
        expect(byName(fees, 'flat-fee')).toMatchObject({ value: '0.50', for: 'default', inherited: true });
      }
      expect((await t.api('GET', `/fees?for=company&for_id=${other.companyId}`, { token: who.token })).status).toBe(
        404,
      );
    }
    expect(byName(await schedule(other, `for=company&for_id=${other.companyId}`), 'wallet-topup-tron')).toMatchObject({
      value: '0.50',
      inherited: true,
    });
  });
});

describe('fees for staff', () => {
  it('lists the schedule paged, filtered by for, company and day of change', async () => {
    const now = t.clock.now().getTime();
    const midnight = (Math.floor(now / DAY) + 3) * DAY;
    t.clock.advance(midnight + 3600_000 - now); // 01:00 UTC three days ahead
    const sa = await newStaff(t, 'Super-Admin');
    const admin = await newStaff(t, 'Admin');
    const company = await newCompany(t);
    const page = await t.api('GET', '/fees?per_page=5', { token: admin.token });
    expect(page.body).toMatchObject({ current_page: 1, per_page: 5, from: 1, to: 5 });
    expect(page.body.data).toHaveLength(5);
    expect(page.body.total).toBeGreaterThanOrEqual(DEFAULT_NAMES.length);

    const defaults = await schedule(admin, 'for=default&per_page=100');
    expect(defaults.every((f) => f.for === 'default' && f.for_id === null)).toBe(true);
    expect(defaults.map((f) => f.name)).toEqual(expect.arrayContaining(DEFAULT_NAMES));

    for (const name of ['flat-fee', 'card-load-media']) {
      expect(
        (await put(sa, (await defaultFee(sa, name)).id, { value: '1.00', for: 'company', for_id: company.companyId }))
          .status,
      ).toBe(200);
    }
    const own = await schedule(admin, `for=company&for_id=${company.companyId}`);
    expect(own.map((f) => f.name).sort()).toEqual(['card-load-media', 'flat-fee']);
    expect(own.every((f) => f.for_name === 'Volta Trading Ltd')).toBe(true);

    const day = new Date(midnight).toISOString().slice(0, 10);
    const next = new Date(midnight + DAY).toISOString().slice(0, 10);
    const prev = new Date(midnight - DAY).toISOString().slice(0, 10);
    expect(await schedule(admin, `for_id=${company.companyId}&start_date=${day}&end_date=${day}`)).toHaveLength(2);
    expect(await schedule(admin, `for_id=${company.companyId}&start_date=${next}`)).toHaveLength(0);
    expect(await schedule(admin, `for_id=${company.companyId}&end_date=${prev}`)).toHaveLength(0);
    const bad = await t.api('GET', '/fees?start_date=soon', { token: admin.token });
    expect(bad.status).toBe(422);
    expect(bad.body.error.start_date).toEqual(['Start date must be a date such as 2026-01-31']);
  });

  it('edits a default fee for one company: an override only that company gets', async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const [x, y] = [await newCompany(t), await newCompany(t)];
    const tron = await defaultFee(sa, 'wallet-topup-tron');
    const res = await put(sa, tron.id, { ...tron, value: '0.75', for: 'company', for_id: x.companyId });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'wallet-topup-tron',
      type: 'percentage',
      value: '0.75',
      state: 'Active',
      for: 'company',
      for_id: x.companyId,
      for_name: 'Volta Trading Ltd',
    });
    expect(res.body.data.id).not.toBe(tron.id);
    // the same edit again updates that override rather than adding another
    const again = await put(sa, tron.id, { value: '1.25', for: 'company', for_id: x.companyId });
    expect(again.body.data.id).toBe(res.body.data.id);
    expect(await schedule(sa, `for=company&for_id=${x.companyId}`)).toHaveLength(1);

    expect(byName(await companyFees(sa, x.companyId!), 'wallet-topup-tron')).toMatchObject({
      value: '1.25',
      inherited: false,
    });
    expect(byName(await companyFees(sa, y.companyId!), 'wallet-topup-tron')).toMatchObject({
      id: tron.id,
      value: '0.50',
      inherited: true,
    });
    expect((await defaultFee(sa, 'wallet-topup-tron')).value).toBe('0.50');
    expect((await t.api('GET', `/company/fees/${randomUUID()}`, { token: sa.token })).status).toBe(404);
    // The answer names the company, whose own rows may be none (a screen opened by its address).
    const plain = await t.api('GET', `/company/fees/${y.companyId}`, { token: sa.token });
    expect(plain.body.company).toEqual({ id: y.companyId, company_name: expect.any(String) });
    expect(plain.body.company.company_name.length).toBeGreaterThan(0);
  });

  it('stores a value as shown and a status 0 as Inactive; the form may send the whole row', async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const company = await newCompany(t);
    const base = await defaultFee(sa, 'card-maintenance');
    const override = (await put(sa, base.id, { value: '2.00', for: 'company', for_id: company.companyId })).body
      .data as Fee;
    const res = await put(sa, override.id, { ...override, name: 'renamed', type: 'fixed', value: '2.75', status: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: override.id,
      name: 'card-maintenance',
      type: 'fixed',
      value: '2.75',
      state: 'Inactive',
    });
    for (const [status, state] of [
      [1, 'Active'],
      ['0', 'Inactive'],
      ['Active', 'Active'],
      ['Inactive', 'Inactive'],
    ] as const) {
      expect((await put(sa, override.id, { value: 2.5, status })).body.data).toMatchObject({ value: '2.50', state });
    }
    expect((await put(sa, override.id, { value: '3' })).body.data).toMatchObject({ value: '3.00', state: 'Inactive' });
    expect(byName(await companyFees(sa, company.companyId!), 'card-maintenance')).toMatchObject({
      value: '3.00',
      state: 'Inactive',
      inherited: false,
    });
  });

  it.each([
    ['three decimals', { value: '1.234' }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    ['text', { value: 'abc' }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    ['a negative value', { value: '-1' }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    ['an empty value', { value: '' }, 'value', 'Value is required'],
    ['a value in exponent notation', { value: '1e2' }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    ['a value with thousands commas', { value: '1,000' }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    [
      'a value with no digits after the point',
      { value: '5.' },
      'value',
      'Enter a value such as 1.50 (at most 2 decimals)',
    ],
    ['a number with three decimals', { value: 1.005 }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    ['a value of ten digits', { value: '1000000000' }, 'value', 'Enter a value such as 1.50 (at most 2 decimals)'],
    ['a value that is no number or string', { value: true }, 'value', 'Value is required'],
    ['no value', {}, 'value', 'Value is required'],
    ['a company without its id', { value: '1.00', for: 'company' }, 'for_id', 'Company is required'],
  ])('refuses %s (422) and changes nothing', async (_what, body, field, message) => {
    const sa = await newStaff(t, 'Super-Admin');
    const company = await newCompany(t);
    const base = await defaultFee(sa, 'api-monthly');
    const override = (await put(sa, base.id, { value: '40.00', for: 'company', for_id: company.companyId })).body
      .data as Fee;
    const res = await put(sa, override.id, body);
    expect(res.status).toBe(422);
    expect(res.body.error[field]).toEqual([message]);
    expect(byName(await companyFees(sa, company.companyId!), 'api-monthly')).toMatchObject({
      value: '40.00',
      state: 'Active',
    });
    expect((await put(sa, override.id, { value: '1.00', status: 2 })).status).toBe(422);
  });

  it('answers 404 for an unknown fee or company', async () => {
    const sa = await newStaff(t, 'Super-Admin');
    expect((await put(sa, randomUUID(), { value: '1.00' })).status).toBe(404);
    const base = await defaultFee(sa, 'flat-fee');
    expect((await put(sa, base.id, { value: '9.00', for: 'company', for_id: randomUUID() })).status).toBe(404);
    expect((await defaultFee(sa, 'flat-fee')).value).toBe('0.50');
  });

  it('never charges an inactive fee, and charges a company its own rate', async () => {
    const sa = await newStaff(t, 'Super-Admin');
    const staff = await newStaff(t);
    const [free, dear, person] = [await newCompany(t), await newCompany(t), await newIndividual(t)];
    const tron = await defaultFee(sa, 'wallet-topup-tron');
    expect(
      (await put(sa, tron.id, { value: '0.50', status: 0, for: 'company', for_id: free.companyId })).body.data.state,
    ).toBe('Inactive');
    expect((await put(sa, tron.id, { value: '1.00', for: 'company', for_id: dear.companyId })).status).toBe(200);

    for (const [who, credited, fee] of [
      [free, '1000.00', '0.00'],
      [dear, '990.00', '10.00'],
      [person, '995.00', '5.00'],
    ] as const) {
      const top = await tronTopupReady(t, who, '1,000.00');
      expect((await decide(t, staff, top.id, 'approve')).status).toBe(200);
      expect(await balanceOf(t, who)).toBe(credited);
      expect(await topupRow(t, who, top.reference)).toMatchObject({ credited, fee });
    }
  });
});
