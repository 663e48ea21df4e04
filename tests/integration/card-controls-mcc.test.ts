import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCHANT_CATEGORIES, PROHIBITED_CATEGORIES, categoryOf } from '@shared/merchant-categories';
import { auditLog, cards } from '../../server/db/schema';
import { cardControlDecline, programDecline } from '../../server/modules/cards/controls/decline';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { apiCompany } from './support/api';
import { charge, newCard } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
let superAdmin: Actor;
beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await newStaff(t, 'Super-Admin');
});
afterAll(() => t.close());

async function ownedCard() {
  const a = await newIndividual(t);
  await fundWallet(t, a.id, 100_000);
  const { card } = await newCard(t, a, { card_amount: '200.00' });
  return { a, card };
}

const getControls = (who: { token: string }, id: string) => t.api('GET', `/cards/${id}/controls`, { token: who.token });
const putControls = (who: { token: string }, id: string, body: unknown) =>
  t.api('PUT', `/cards/${id}/controls`, { token: who.token, body });
const cardRow = async (id: string) => (await t.ctx.db.select().from(cards).where(eq(cards.id, id)))[0]!;
const pay = (over: Partial<{ amount: number; mcc: string; country: string; merchant: string }> = {}) => ({
  amount: 1_000,
  currency: 'USD',
  merchant: 'Accra Mall',
  mcc: '5411',
  country: 'GH',
  ...over,
});

/** What the program blocks by default, and a little more: other files on the shared database keep the defaults. */
const PROGRAM_PLUS = { blocked_categories: [...PROHIBITED_CATEGORIES, 'charity'], blocked_countries: ['AQ'] };
const PROGRAM_DEFAULT = { blocked_categories: PROHIBITED_CATEGORIES, blocked_countries: [] };

describe('GET /merchant-categories', () => {
  it('lists every category with its codes to anyone signed in, API clients too', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    const { token } = await apiCompany(t);
    for (const who of [a.token, staff.token, token]) {
      const res = await t.api('GET', '/merchant-categories', { token: who });
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { name: string }) => c.name)).toEqual(MERCHANT_CATEGORIES.map((c) => c.name));
    }
    const res = await t.api('GET', '/merchant-categories', { token: a.token });
    const byName = Object.fromEntries(res.body.data.map((c: { name: string }) => [c.name, c]));
    expect(byName.gambling).toMatchObject({ label: 'Gambling and betting', mccs: expect.arrayContaining(['7995']) });
    expect(byName.money_transfer.mccs).toEqual(expect.arrayContaining(['4829', '6051']));
    expect(byName.airlines.mccs).toEqual(expect.arrayContaining(['3000', '3350', '4511']));
    expect((await t.api('GET', '/merchant-categories')).status).toBe(401);
  });

  it('maps a code to one category, or to none', () => {
    expect(categoryOf('7995')).toBe('gambling');
    expect(categoryOf('4511')).toBe('airlines');
    expect(categoryOf('3501')).toBe('hotels_lodging');
    expect(categoryOf('0001')).toBeNull();
    expect(categoryOf(null)).toBeNull();
    const all = MERCHANT_CATEGORIES.flatMap((c) => c.mccs);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('GET/PUT /cards/{id}/controls', () => {
  it('starts empty; the owner sets and replaces the whole set', async () => {
    const { a, card } = await ownedCard();
    const before = await getControls(a, card.id);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({
      card_id: card.id,
      allowed_categories: [],
      blocked_categories: [],
      allowed_countries: [],
      blocked_countries: [],
      per_transaction_limit: null,
      max_approvals: null,
      updated_at: null,
    });
    const set = await putControls(a, card.id, {
      blocked_categories: ['gambling', 'airlines', 'gambling'],
      allowed_countries: ['gh', 'NG'],
      per_transaction_limit: '1,250.50',
      max_approvals: { count: 3, interval: 'daily' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({
      allowed_categories: [],
      blocked_categories: ['gambling', 'airlines'],
      allowed_countries: ['GH', 'NG'],
      blocked_countries: [],
      per_transaction_limit: '1250.50',
      max_approvals: { count: 3, interval: 'daily' },
      updated_at: expect.any(String),
    });
    expect((await getControls(a, card.id)).body.data).toEqual(set.body.data);
    // PUT replaces: what is left out is cleared
    const replaced = await putControls(a, card.id, { allowed_categories: ['groceries'] });
    expect(replaced.body.data).toMatchObject({
      allowed_categories: ['groceries'],
      blocked_categories: [],
      allowed_countries: [],
      per_transaction_limit: null,
      max_approvals: null,
    });
  });

  it('another customer gets 404; an unknown or malformed id is 404; no token is 401', async () => {
    const { card } = await ownedCard();
    const other = await newIndividual(t);
    expect((await getControls(other, card.id)).status).toBe(404);
    expect((await putControls(other, card.id, {})).status).toBe(404);
    expect((await getControls(other, randomUUID())).status).toBe(404);
    expect((await getControls(other, 'not-a-uuid')).status).toBe(404);
    expect((await t.api('GET', `/cards/${card.id}/controls`)).status).toBe(401);
    expect((await t.api('PUT', `/cards/${card.id}/controls`, { body: {} })).status).toBe(401);
  });

  it("a company's admin and its API credentials set them; its users only read; staff set them, audited", async () => {
    const { admin, token } = await apiCompany(t);
    await fundWallet(t, admin.companyId!, 100_000);
    const { card } = await newCard(t, admin, { card_amount: '20.00' });
    const user = await newCompanyMember(t, admin, 'user');
    const coAdmin = await newCompanyMember(t, admin, 'admin');
    expect((await putControls(admin, card.id, { blocked_countries: ['NG'] })).status).toBe(200);
    expect((await putControls(coAdmin, card.id, { blocked_countries: ['KE'] })).status).toBe(200);
    expect((await putControls({ token }, card.id, { blocked_countries: ['US'] })).status).toBe(200);
    const read = await getControls(user, card.id);
    expect(read.status).toBe(200);
    expect(read.body.data.blocked_countries).toEqual(['US']);
    const refused = await putControls(user, card.id, { blocked_countries: [] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Only the company's admins may change a card's controls.");

    const staff = await newStaff(t);
    const bystander = await newIndividual(t);
    expect((await getControls(bystander, card.id)).status).toBe(404);
    const byStaff = await putControls(staff, card.id, { blocked_categories: ['gambling'] });
    expect(byStaff.status).toBe(200);
    expect((await getControls(staff, card.id)).body.data.blocked_categories).toEqual(['gambling']);
    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, staff.id), eq(auditLog.action, 'card.controls')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ objectType: 'card', objectId: card.id });
  });

  it('a deleted card keeps its last controls (409 on change)', async () => {
    const { a, card } = await ownedCard();
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: a.token })).status).toBe(202);
    const res = await putControls(a, card.id, { blocked_categories: ['gambling'] });
    expect(res.status).toBe(409);
    expect((await getControls(a, card.id)).status).toBe(200);
  });

  it('refuses bad input on every field with its own message (422)', async () => {
    const { a, card } = await ownedCard();
    const cases: Array<[Record<string, unknown>, string, string | RegExp]> = [
      [{ allowed_categories: ['casinos'] }, 'allowed_categories', 'Unknown category: casinos'],
      [{ blocked_categories: ['gambling', 'nope'] }, 'blocked_categories', 'Unknown category: nope'],
      [{ blocked_categories: 'gambling' }, 'blocked_categories', 'Give a list of category names'],
      [{ blocked_categories: [7995] }, 'blocked_categories.0', 'A category is a name such as gambling'],
      [
        { allowed_categories: ['groceries'], blocked_categories: ['gambling'] },
        'blocked_categories',
        'Set allowed or blocked, not both',
      ],
      [{ allowed_countries: ['ZZ'] }, 'allowed_countries', /Unknown country .*ZZ/],
      [{ blocked_countries: ['Ghana'] }, 'blocked_countries', /Unknown country/],
      [{ blocked_countries: 'GH' }, 'blocked_countries', 'Give a list of two-letter country codes'],
      [
        { allowed_countries: ['GH'], blocked_countries: ['NG'] },
        'blocked_countries',
        'Set allowed or blocked, not both',
      ],
      [{ per_transaction_limit: '-5' }, 'per_transaction_limit', /./],
      [{ per_transaction_limit: '1.234' }, 'per_transaction_limit', /./],
      [{ per_transaction_limit: 'ten' }, 'per_transaction_limit', /./],
      [{ per_transaction_limit: 0 }, 'per_transaction_limit', /./],
      [{ max_approvals: { count: 0, interval: 'daily' } }, 'max_approvals.count', /Count must be a whole number/],
      [{ max_approvals: { count: 1.5, interval: 'daily' } }, 'max_approvals.count', /Count must be a whole number/],
      [{ max_approvals: { count: '3', interval: 'daily' } }, 'max_approvals.count', /Count must be a whole number/],
      [{ max_approvals: { count: 3, interval: 'hourly' } }, 'max_approvals.interval', /Interval must be daily/],
      [{ max_approvals: { count: 3 } }, 'max_approvals.interval', /Interval must be daily/],
      [{ max_approvals: 3 }, 'max_approvals', 'Max approvals is { count, interval } or null'],
    ];
    for (const [body, field, message] of cases) {
      const res = await putControls(a, card.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.error), JSON.stringify(body)).toContain(field);
      expect(res.body.error[field][0], JSON.stringify(body)).toMatch(message);
    }
    // nothing was stored
    expect((await getControls(a, card.id)).body.data.updated_at).toBeNull();
  });
});

describe('GET/PUT /program/controls', () => {
  it('blocks the prohibited uses by default; staff read, a Super-Admin sets (audited), others 403', async () => {
    const admin = await newStaff(t, 'Admin');
    const read = await t.api('GET', '/program/controls', { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data.blocked_categories).toEqual(expect.arrayContaining(PROHIBITED_CATEGORIES));
    const customer = await newIndividual(t);
    expect((await t.api('GET', '/program/controls', { token: customer.token })).status).toBe(403);
    expect((await t.api('PUT', '/program/controls', { token: customer.token, body: PROGRAM_PLUS })).status).toBe(403);
    expect((await t.api('PUT', '/program/controls', { token: admin.token, body: PROGRAM_PLUS })).status).toBe(403);
    const { token } = await apiCompany(t);
    expect((await t.api('GET', '/program/controls', { token })).status).toBe(403);

    const bad = await t.api('PUT', '/program/controls', {
      token: superAdmin.token,
      body: { blocked_categories: ['lottery'], blocked_countries: ['XX'] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.blocked_categories[0]).toBe('Unknown category: lottery');
    expect(bad.body.error.blocked_countries[0]).toMatch(/Unknown country/);

    try {
      const set = await t.api('PUT', '/program/controls', { token: superAdmin.token, body: PROGRAM_PLUS });
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ ...PROGRAM_PLUS, updated_at: expect.any(String) });
      const audit = await t.ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, superAdmin.id), eq(auditLog.action, 'program.controls')));
      expect(audit.length).toBeGreaterThan(0);
      // the program binds every card, checked on its own
      const charity = await programDecline(t.ctx.db, pay({ mcc: '8398' }));
      expect(charity).toEqual({
        code: 'program_blocked',
        reason: 'Payments to charities and memberships are not allowed with any card.',
      });
      expect(await programDecline(t.ctx.db, pay({ country: 'AQ' }))).toEqual({
        code: 'program_blocked',
        reason: 'Payments to merchants in Antarctica are not allowed with any card.',
      });
    } finally {
      await t.api('PUT', '/program/controls', { token: superAdmin.token, body: PROGRAM_DEFAULT });
    }
  });

  it('declines a prohibited category by its code whatever the merchant calls itself', async () => {
    const gambling = await programDecline(t.ctx.db, pay({ mcc: '7995', merchant: 'Lucky Star Ltd' }));
    expect(gambling).toEqual({
      code: 'program_blocked',
      reason: 'Payments to gambling and betting are not allowed with any card.',
    });
    expect((await programDecline(t.ctx.db, pay({ mcc: '4829' })))?.code).toBe('program_blocked');
    expect(await programDecline(t.ctx.db, pay({ mcc: '5411' }))).toBeNull();
    expect(await programDecline(t.ctx.db, pay({ mcc: '0001' }))).toBeNull();
  });
});

describe("the card's controls decide (called as the authorisation path calls them)", () => {
  it('categories: a block list stops its own; an allow list lets only its own through', async () => {
    const { a, card } = await ownedCard();
    const row = await cardRow(card.id);
    const now = t.clock.now();
    expect(await cardControlDecline(t.ctx.db, row, pay({ mcc: '4511' }), now)).toBeNull();
    await putControls(a, card.id, { blocked_categories: ['airlines'] });
    expect(await cardControlDecline(t.ctx.db, row, pay({ mcc: '4511' }), now)).toEqual({
      code: 'merchant_category_blocked',
      reason: "This card's controls do not allow payments to airlines.",
    });
    expect(await cardControlDecline(t.ctx.db, row, pay({ mcc: '5411' }), now)).toBeNull();
    await putControls(a, card.id, { allowed_categories: ['groceries'] });
    expect(await cardControlDecline(t.ctx.db, row, pay({ mcc: '5411' }), now)).toBeNull();
    expect((await cardControlDecline(t.ctx.db, row, pay({ mcc: '3001' }), now))?.code).toBe(
      'merchant_category_blocked',
    );
    expect(await cardControlDecline(t.ctx.db, row, pay({ mcc: '0001' }), now)).toEqual({
      code: 'merchant_category_blocked',
      reason: "This card's controls do not allow payments to this kind of merchant.",
    });
  });

  it('countries: a block list stops its own; an allow list lets only its own through', async () => {
    const { a, card } = await ownedCard();
    const row = await cardRow(card.id);
    const now = t.clock.now();
    await putControls(a, card.id, { blocked_countries: ['NG'] });
    expect(await cardControlDecline(t.ctx.db, row, pay({ country: 'NG' }), now)).toEqual({
      code: 'merchant_country_blocked',
      reason: "This card's controls do not allow payments to merchants in Nigeria.",
    });
    expect(await cardControlDecline(t.ctx.db, row, pay({ country: 'GH' }), now)).toBeNull();
    await putControls(a, card.id, { allowed_countries: ['GH'] });
    expect(await cardControlDecline(t.ctx.db, row, pay({ country: 'GH' }), now)).toBeNull();
    expect((await cardControlDecline(t.ctx.db, row, pay({ country: 'US' }), now))?.code).toBe(
      'merchant_country_blocked',
    );
  });

  it('the per-transaction limit lets the limit itself through, not a cent more', async () => {
    const { a, card } = await ownedCard();
    const row = await cardRow(card.id);
    const now = t.clock.now();
    await putControls(a, card.id, { per_transaction_limit: '25.00' });
    expect(await cardControlDecline(t.ctx.db, row, pay({ amount: 2_500 }), now)).toBeNull();
    expect(await cardControlDecline(t.ctx.db, row, pay({ amount: 2_501 }), now)).toEqual({
      code: 'per_transaction_limit_exceeded',
      reason: "This payment is over the card's limit of USD 25.00 per payment.",
    });
  });

  it('max approvals counts approved authorisations in the interval, and a new interval starts again', async () => {
    const { a, card } = await ownedCard();
    const staff = await newStaff(t);
    const row = await cardRow(card.id);
    await putControls(a, card.id, { max_approvals: { count: 2, interval: 'daily' } });
    for (let i = 0; i < 2; i++) {
      const now = t.clock.now();
      expect(await cardControlDecline(t.ctx.db, row, pay(), now)).toBeNull();
      const res = await charge(t, staff, card.id, '1.00');
      expect(res.body.data.approved).toBe(true);
    }
    // a declined payment does not count
    const declined = await charge(t, staff, card.id, '100000.00');
    expect(declined.body.data.approved).toBe(false);
    const now = t.clock.now();
    expect(await cardControlDecline(t.ctx.db, row, pay(), now)).toEqual({
      code: 'velocity_count_exceeded',
      reason: 'This card has reached its limit of 2 approved payments per day.',
    });
    const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 1));
    expect(await cardControlDecline(t.ctx.db, row, pay(), tomorrow)).toBeNull();
    await putControls(a, card.id, { max_approvals: { count: 2, interval: 'all_time' } });
    expect((await cardControlDecline(t.ctx.db, row, pay(), tomorrow))?.code).toBe('velocity_count_exceeded');
    await putControls(a, card.id, { max_approvals: { count: 1, interval: 'monthly' } });
    expect((await cardControlDecline(t.ctx.db, row, pay(), now))?.reason).toBe(
      'This card has reached its limit of 1 approved payment per month.',
    );
  });
});

const sandboxPay = (staff: Actor, cardId: string, over: Record<string, unknown> = {}) =>
  t.api('POST', '/sandbox/authorizations', {
    token: staff.token,
    body: {
      card_id: cardId,
      amount: '10.00',
      merchant: 'Accra Mall',
      mcc: '5411',
      country: 'GH',
      currency: 'USD',
      ...over,
    },
  });

describe('POST /sandbox/authorizations with controls', () => {
  it('declines with each code and its reason, recorded on the transaction', async () => {
    const { a, card } = await ownedCard();
    const staff = await newStaff(t);
    const program = await sandboxPay(staff, card.id, { mcc: '7995', merchant: 'Lucky Star' });
    expect(program.body.data).toMatchObject({ approved: false, decline_code: 'program_blocked' });
    expect(program.body.data.transaction).toMatchObject({
      mcc: '7995',
      merchant_category: 'gambling',
      decline_code: 'program_blocked',
      country: 'GH',
    });

    await putControls(a, card.id, { blocked_categories: ['airlines'] });
    const category = await sandboxPay(staff, card.id, { mcc: '4511', merchant: 'Africa World Airlines' });
    expect(category.body.data).toMatchObject({
      approved: false,
      decline_code: 'merchant_category_blocked',
      decline_reason: "This card's controls do not allow payments to airlines.",
    });

    await putControls(a, card.id, { blocked_countries: ['NG'] });
    const country = await sandboxPay(staff, card.id, { country: 'NG' });
    expect(country.body.data).toMatchObject({ approved: false, decline_code: 'merchant_country_blocked' });

    await putControls(a, card.id, { per_transaction_limit: '5.00' });
    const limit = await sandboxPay(staff, card.id, { amount: '5.01' });
    expect(limit.body.data).toMatchObject({ approved: false, decline_code: 'per_transaction_limit_exceeded' });
    expect((await sandboxPay(staff, card.id, { amount: '5.00' })).body.data.approved).toBe(true);

    await putControls(a, card.id, { max_approvals: { count: 2, interval: 'daily' } });
    expect((await sandboxPay(staff, card.id)).body.data.approved).toBe(true);
    const velocity = await sandboxPay(staff, card.id);
    expect(velocity.body.data).toMatchObject({ approved: false, decline_code: 'velocity_count_exceeded' });

    const list = await t.api('GET', `/reports/view-cards-transactions?card=${card.id}&per_page=100`, {
      token: a.token,
    });
    const codes = list.body.data.map((r: { decline_code: string | null }) => r.decline_code);
    for (const code of [
      'program_blocked',
      'merchant_category_blocked',
      'merchant_country_blocked',
      'per_transaction_limit_exceeded',
      'velocity_count_exceeded',
    ])
      expect(codes).toContain(code);
  });
});
