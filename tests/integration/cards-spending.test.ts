import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { charge, newCard, relogin, setClock } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const utcDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

/** A customer with a Visa card of 100.00 limited to 10.00 per `control`, and a staff member to charge it. */
async function limitedCard(control: 'day' | 'week' | 'month' | 'lifetime', limit = '10.00') {
  const a = await newIndividual(t);
  const staff = await newStaff(t);
  await fundWallet(t, a.id, 100_000);
  const { card } = await newCard(t, a, {
    purpose: 'media',
    type: 'premium',
    card_amount: '100.00',
    spending_limit: limit,
    spending_control: control,
  });
  return { a, staff, card };
}

/** Charges the card at the given instant (after a long jump, the staff session is renewed just before). */
async function chargeAt(staff: Actor, cardId: string, at: number, amount: string) {
  if (at - t.clock.now().getTime() > 20 * 60_000) {
    setClock(t, new Date(at - 10 * 60_000));
    await relogin(t, staff);
  }
  setClock(t, new Date(at));
  const res = await charge(t, staff, cardId, amount);
  expect(res.status).toBe(201);
  // the payment really was made at that second
  expect(res.body.data.transaction.date_created.slice(0, 19)).toBe(new Date(at).toISOString().slice(0, 19));
  return res.body.data as { approved: boolean; decline_reason: string | null };
}

describe('spending-limit windows (UTC)', () => {
  it('per day: 23:59:59 is still the same day, 00:00 starts a new one', async () => {
    const day = utcDay(t.clock.now()) + 2 * DAY;
    setClock(t, new Date(day + 30_000));
    const { staff, card } = await limitedCard('day');
    expect((await chargeAt(staff, card.id, day + 60_000, '8.00')).approved).toBe(true);
    const late = await chargeAt(staff, card.id, day + DAY - 1_000, '5.00');
    expect(late).toMatchObject({
      approved: false,
      decline_reason: "This payment would go over the card's spending limit of USD 10.00 per day.",
    });
    expect((await chargeAt(staff, card.id, day + DAY - 1_000, '2.00')).approved).toBe(true); // exactly the limit
    expect((await chargeAt(staff, card.id, day + DAY, '5.00')).approved).toBe(true);
    expect((await chargeAt(staff, card.id, day + DAY + 1_000, '5.01')).approved).toBe(false);
  });

  it('per week: Sunday 23:59 is still the week that began on Monday, Monday 00:00 starts a new one', async () => {
    let monday = utcDay(t.clock.now()) + DAY;
    while (new Date(monday).getUTCDay() !== 1) monday += DAY;
    setClock(t, new Date(monday + 30_000));
    const { staff, card } = await limitedCard('week');
    expect((await chargeAt(staff, card.id, monday + 60_000, '8.00')).approved).toBe(true);
    const sunday = monday + 7 * DAY - 60_000; // Sunday 23:59
    expect(new Date(sunday).getUTCDay()).toBe(0);
    expect(await chargeAt(staff, card.id, sunday, '5.00')).toMatchObject({
      approved: false,
      decline_reason: expect.stringContaining('USD 10.00 per week'),
    });
    expect((await chargeAt(staff, card.id, monday + 7 * DAY, '5.00')).approved).toBe(true);
  });

  it('per month: the last day of the month is still the month, the 1st starts a new one', async () => {
    const now = t.clock.now();
    const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1);
    setClock(t, new Date(first + 30_000));
    const { staff, card } = await limitedCard('month');
    expect((await chargeAt(staff, card.id, first + 60_000, '8.00')).approved).toBe(true);
    expect(await chargeAt(staff, card.id, next - 1_000, '5.00')).toMatchObject({
      approved: false,
      decline_reason: expect.stringContaining('USD 10.00 per month'),
    });
    expect((await chargeAt(staff, card.id, next, '5.00')).approved).toBe(true);
  });

  it('lifetime: never resets; reversed payments do not count; add-spend-limit raises the allowance', async () => {
    const { a, staff, card } = await limitedCard('lifetime');
    const first = await charge(t, staff, card.id, '8.00');
    expect(first.body.data.approved).toBe(true);
    const start = Math.floor(t.clock.now().getTime() / 1_000) * 1_000;
    expect(await chargeAt(staff, card.id, start + 400 * DAY, '5.00')).toMatchObject({
      approved: false,
      decline_reason: expect.stringContaining('USD 10.00 in total'),
    });
    // a reversal gives the allowance back
    expect(
      (await t.api('POST', `/sandbox/authorizations/${first.body.data.transaction.id}/reverse`, { token: staff.token }))
        .status,
    ).toBe(200);
    expect((await charge(t, staff, card.id, '10.00')).body.data.approved).toBe(true);

    await relogin(t, a);
    const more = await t.api('POST', `/cards/add-spend-limit/${card.id}`, {
      token: a.token,
      body: { card: card.id, spending_limit: '5.00' },
    });
    expect(more.status).toBe(200);
    expect(more.body.data.additional_spending_limit).toBe('5.00');
    expect((await t.api('GET', `/cards/${card.id}`, { token: a.token })).body.data.card).toMatchObject({
      spending_limit: '10.00',
      additional_spending_limit: '5.00',
    });
    expect((await charge(t, staff, card.id, '5.01')).body.data.decline_reason).toContain('USD 15.00 in total');
    expect((await charge(t, staff, card.id, '5.00')).body.data.approved).toBe(true);
  });
});

describe('setting limits', () => {
  it('PUT /cards/{id} sets the limit and its period (201); a Mastercard is "Not applicable" (422); staff cannot (403)', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 100_000);
    const { card: visa } = await newCard(t, a, { purpose: 'media', spending_limit: '10.00', spending_control: 'day' });
    const { card: mc } = await newCard(t, a, { purpose: 'general' });
    const put = (who: Actor, id: string, body: unknown) => t.api('PUT', `/cards/${id}`, { token: who.token, body });

    const res = await put(a, visa.id, { spending_limit: '30.00', spending_control: 'week' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ spending_limit: '30.00', spending_control: 'week' });
    expect((await t.api('GET', `/cards/${visa.id}`, { token: a.token })).body.data.card).toMatchObject({
      spending_limit: '30.00',
      spending_control: 'week',
    });
    expect((await charge(t, staff, visa.id, '25.00')).body.data.approved).toBe(true);
    // the period defaults to lifetime
    expect((await put(a, visa.id, { spending_limit: '26.00' })).body.data.spending_control).toBe('lifetime');
    expect((await charge(t, staff, visa.id, '1.01')).body.data.decline_reason).toContain('USD 26.00 in total');

    const na = await put(a, mc.id, { spending_limit: '30.00', spending_control: 'day' });
    expect(na.status).toBe(422);
    expect(na.body.error.spending_limit[0]).toMatch(/^Not applicable!/);
    const addMc = await t.api('POST', `/cards/add-spend-limit/${mc.id}`, {
      token: a.token,
      body: { card: mc.id, spending_limit: '5.00' },
    });
    expect(addMc.status).toBe(422);
    expect((await t.api('GET', `/cards/${mc.id}`, { token: a.token })).body.data.card.spending_limit).toBeNull();

    for (const [body, field] of [
      [{}, 'spending_limit'],
      [{ spending_limit: '-1' }, 'spending_limit'],
      [{ spending_limit: '5', spending_control: 'year' }, 'spending_control'],
    ] as const) {
      const bad = await put(a, visa.id, body);
      expect(bad.status).toBe(422);
      expect(bad.body.error[field]).toBeDefined();
    }
    expect((await put(staff, visa.id, { spending_limit: '99.00' })).status).toBe(403);
    expect(
      (
        await t.api('POST', `/cards/add-spend-limit/${visa.id}`, {
          token: staff.token,
          body: { spending_limit: '5.00' },
        })
      ).status,
    ).toBe(403);
    const mismatch = await t.api('POST', `/cards/add-spend-limit/${visa.id}`, {
      token: a.token,
      body: { card: mc.id, spending_limit: '5.00' },
    });
    expect(mismatch.status).toBe(422);
    expect((await t.api('GET', `/cards/${visa.id}`, { token: a.token })).body.data.card).toMatchObject({
      spending_limit: '26.00',
      additional_spending_limit: '0.00',
    });
  });
});
