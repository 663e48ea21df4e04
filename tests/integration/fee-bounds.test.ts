import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newStaff } from './support/actors';

/**
 * A fee's value stays within sense: a percentage between 0 and 100, a fixed fee between 0.00 and
 * 10,000.00 USD (docs/decisions.md). Accepted values are written as one company's overrides only,
 * so the default schedule other test files rely on (a shared database on PostgreSQL) never moves.
 */

let t: TestApp;
let sa: Actor;
let company: Actor;
beforeAll(async () => {
  t = await startTestApp();
  [sa, company] = await Promise.all([newStaff(t, 'Super-Admin'), newCompany(t)]);
});
afterAll(() => t.close());

interface Fee {
  id: string;
  name: string;
  type: 'percentage' | 'fixed';
  value: string;
  for: string;
}

const PERCENT = 'A percentage fee must be between 0 and 100';
const FIXED = 'A fixed fee must be between USD 0.00 and USD 10,000.00';

const put = (id: string, body: Record<string, unknown>) => t.api('PUT', `/fees/${id}`, { token: sa.token, body });
const defaults = async (): Promise<Fee[]> => {
  const res = await t.api('GET', '/fees?for=default&per_page=100', { token: sa.token });
  expect(res.status).toBe(200);
  return res.body.data;
};
const defaultFee = async (name: string) => (await defaults()).find((f) => f.name === name)!;
/** The company's effective schedule, as the company itself reads it. */
const companyValue = async (name: string) => {
  const res = await t.api('GET', `/fees?for=company&for_id=${company.companyId}`, { token: company.token });
  expect(res.status).toBe(200);
  return (res.body.data as Fee[]).find((f) => f.name === name)!.value;
};
const forCompany = (fee: Fee, value: unknown, extra: Record<string, unknown> = {}) =>
  put(fee.id, { ...fee, value, for: 'company', for_id: company.companyId, ...extra });

function expectRefused(
  res: { status: number; body: { message: string; error: Record<string, string[]> } },
  message: string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error.value).toEqual([message]);
  expect(typeof res.body.message).toBe('string');
}

describe('PUT /fees/{id}: a percentage fee', () => {
  it('is refused above 100 (a 150 % load fee) and accepted from 0 to 100', async () => {
    const load = await defaultFee('card-load-media');
    expect(load.type).toBe('percentage');
    const before = await companyValue('card-load-media');

    for (const value of ['150', '150.00', 150, '100.01', '1000000'])
      expectRefused(await forCompany(load, value), PERCENT);
    // the edit of the default itself, and a body that claims another type, are held to the stored type
    expectRefused(await put(load.id, { ...load, value: '150' }), PERCENT);
    expectRefused(await forCompany(load, '150', { type: 'fixed' }), PERCENT);
    expectRefused(await put(load.id, { value: '150', for: 'company', for_id: company.companyId }), PERCENT);
    expect(await companyValue('card-load-media')).toBe(before);
    expect((await defaultFee('card-load-media')).value).toBe(load.value);

    // below 0 is not a value at all
    const negative = await forCompany(load, '-1');
    expect(negative.status).toBe(422);
    expect(negative.body.error.value).toBeDefined();

    for (const [value, shown] of [
      ['100', '100.00'],
      ['0', '0.00'],
      ['99.99', '99.99'],
    ] as const) {
      const ok = await forCompany(load, value);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.data.value).toBe(shown);
      expect(await companyValue('card-load-media')).toBe(shown);
    }
    // editing the company's own row keeps to the same rule
    const own = (await t.api('GET', `/company/fees/${company.companyId}`, { token: sa.token })).body.data.find(
      (f: Fee & { inherited: boolean }) => f.name === 'card-load-media',
    );
    expect(own.inherited).toBe(false);
    expectRefused(await put(own.id, { value: '100.5' }), PERCENT);
    expect(await companyValue('card-load-media')).toBe('99.99');
  });
});

describe('PUT /fees/{id}: a fixed fee', () => {
  it('is refused above 10,000.00 USD and accepted up to it', async () => {
    const issuance = await defaultFee('card-issuance-media');
    expect(issuance.type).toBe('fixed');
    const before = await companyValue('card-issuance-media');

    for (const value of ['10000.01', '10001', '999999999.99', 20_000])
      expectRefused(await forCompany(issuance, value), FIXED);
    expectRefused(await put(issuance.id, { ...issuance, value: '10000.01' }), FIXED);
    expectRefused(await forCompany(issuance, '10000.01', { type: 'percentage' }), FIXED);
    expect(await companyValue('card-issuance-media')).toBe(before);
    expect((await defaultFee('card-issuance-media')).value).toBe(issuance.value);

    // a fixed fee may well be above 100
    for (const [value, shown] of [
      ['10000', '10000.00'],
      ['150', '150.00'],
      ['0', '0.00'],
    ] as const) {
      const ok = await forCompany(issuance, value);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.data.value).toBe(shown);
      expect(await companyValue('card-issuance-media')).toBe(shown);
    }
  });
});
