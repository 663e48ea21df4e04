import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import type { ApiResponse } from './support/http';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { charge, creationFee, createCard, fundingFee, newCard, withdrawalFee } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const SLOW = 120_000;
const money = (cents: number) => formatMoney(cents);
const settle = (staff: Actor, id: string) =>
  t.api('POST', `/sandbox/authorizations/${id}/settle`, { token: staff.token });
const reverse = (staff: Actor, id: string) =>
  t.api('POST', `/sandbox/authorizations/${id}/reverse`, { token: staff.token });

describe("staff GET /cards/{id}: the card's sums", () => {
  it('equal an independent account of the same activity', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 100_000);
    const { card } = await newCard(t, a, { purpose: 'media', type: 'premium', card_amount: '100.00' });
    const model = {
      issued: 10_000,
      topups: 0,
      withdrawals: 0,
      fees: creationFee('media', 10_000),
      approved: 0,
      settled: 0,
      reversed: 0,
      held: 0,
      spent: 0,
    };

    for (const [who, amount] of [
      [a, 5_000],
      [staff, 312],
    ] as const) {
      expect(
        (await t.api('POST', '/cards/add-funds', { token: who.token, body: { card: card.id, amount: money(amount) } }))
          .status,
      ).toBe(200);
      model.topups += amount;
      model.fees += fundingFee('media', amount);
    }
    expect(
      (await t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card: card.id, amount: '20.00' } }))
        .status,
    ).toBe(200);
    model.withdrawals += 2_000;
    model.fees += withdrawalFee('media', 2_000);

    for (const [amount, then] of [
      [1_000, 'settle'],
      [500, 'reverse'],
      [700, 'hold'],
      [250, 'settle'],
      [50_000, 'declined'],
    ] as const) {
      const res = await charge(t, staff, card.id, money(amount));
      expect(res.body.data.approved).toBe(then !== 'declined');
      if (then === 'declined') continue;
      model.approved += amount;
      const id = res.body.data.transaction.id;
      if (then === 'settle') {
        expect((await settle(staff, id)).status).toBe(200);
        model.settled += amount;
        model.spent += amount;
      } else if (then === 'reverse') {
        expect((await reverse(staff, id)).status).toBe(200);
        model.reversed += amount;
      } else model.held += amount;
    }
    const available = model.issued + model.topups - model.withdrawals - model.spent - model.held;

    const res = await t.api('GET', `/cards/${card.id}`, { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.body.data.additional_data).toEqual({
      spending_limit: '100000.00',
      additional_spending_limit: '0.00',
      approved_sum: money(model.approved),
      settled_sum: money(model.settled),
      reversal_sum: money(model.reversed),
      refund_sum: '0.00',
      available: money(available),
      held: money(model.held),
      debt: '0.00',
      ledger: money(available + model.held),
      total_issuance: money(model.issued),
      total_topup: money(model.topups),
      total_withdrawal: money(model.withdrawals),
      total_maintenance: '0.00',
      total_fees: money(model.fees),
    });
    expect(res.body.data.card).toMatchObject({ balance: money(available), ledger: money(available + model.held) });
    // the owner sees the card, not the back-office sums
    expect((await t.api('GET', `/cards/${card.id}`, { token: a.token })).body.data).not.toHaveProperty(
      'additional_data',
    );
    // and the wallet's report of this card's movements agrees on the fees
    const wallet = await t.api('GET', `/reports/view-wallet-transactions?wallet=${a.id}&per_page=100`, {
      token: staff.token,
    });
    const feesPaid = wallet.body.data
      .filter((r: any) => r.card_number === card.masked_number)
      .reduce((s: number, r: any) => s + Math.round(Number(r.fees) * 100), 0);
    expect(feesPaid).toBe(model.fees);
  });
});

describe('GET /wallet/master-balance', () => {
  type Balances = Record<'general' | 'media' | 'tokencard', { available: string; ledger: string }>;

  /** Every card staff can list, summed by purpose. */
  async function sumOfCards(staff: Actor): Promise<Balances> {
    const seen = new Map<string, { purpose: string; available: string; ledger: string }>();
    for (let page = 1; ; page++) {
      const res = await t.api('GET', `/cards?per_page=100&page=${page}`, { token: staff.token });
      for (const c of res.body.data) seen.set(c.id, c);
      if (page >= res.body.last_page) break;
    }
    const out: Record<string, { available: number; ledger: number }> = {
      general: { available: 0, ledger: 0 },
      media: { available: 0, ledger: 0 },
      tokencard: { available: 0, ledger: 0 },
    };
    for (const c of seen.values()) {
      out[c.purpose]!.available += Math.round(Number(c.available) * 100);
      out[c.purpose]!.ledger += Math.round(Number(c.ledger) * 100);
    }
    return Object.fromEntries(
      Object.entries(out).map(([p, v]) => [p, { available: money(v.available), ledger: money(v.ledger) }]),
    ) as Balances;
  }

  it("equals the sum of the cards' balances, by purpose (available and ledger)", { timeout: SLOW }, async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    expect((await t.api('GET', '/wallet/master-balance', { token: a.token })).status).toBe(403);
    await fundWallet(t, a.id, 100_000);
    const visa = (await newCard(t, a, { purpose: 'media', card_amount: '70.00' })).card;
    const mc = (await newCard(t, a, { purpose: 'general', card_amount: '40.00' })).card;
    const gone = (await newCard(t, a, { purpose: 'general', card_amount: '9.00' })).card;
    expect((await charge(t, staff, visa.id, '12.00')).body.data.approved).toBe(true); // held
    const paid = await charge(t, staff, mc.id, '4.00');
    await settle(staff, paid.body.data.transaction.id);
    await t.api('DELETE', `/cards/${gone.id}`, { token: a.token });

    // Other test files may move card money on a shared database: compare a stable reading.
    let master: Balances | undefined;
    let sum: Balances | undefined;
    for (let attempt = 0; attempt < 10; attempt++) {
      const before = (await t.api('GET', '/wallet/master-balance', { token: staff.token })).body.data;
      sum = await sumOfCards(staff);
      master = (await t.api('GET', '/wallet/master-balance', { token: staff.token })).body.data;
      if (JSON.stringify(before) === JSON.stringify(master) && JSON.stringify(master) === JSON.stringify(sum)) break;
    }
    expect(master).toEqual(sum);
    expect(Number(master!.media.ledger) - Number(master!.media.available)).toBeGreaterThanOrEqual(12);
  });
});

describe('card numbers and CVCs', () => {
  it('appear in no staff response and nowhere in the server log', { timeout: SLOW }, async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 100_000);
    const created = [
      (await createCard(t, a, { purpose: 'media' }, randomUUID())).body.data,
      (await createCard(t, a, { purpose: 'general', type: 'basic', card_amount: '20.00' })).body.data,
      (await createCard(t, a, { purpose: 'general' })).body.data,
    ];
    const secrets: { pan: string; cvc: string }[] = [];
    for (const c of created) {
      const mine = (await t.api('GET', `/cards/${c.card.id}`, { token: a.token })).body.data;
      secrets.push({ pan: mine.card.card_number, cvc: mine.details.card_cvv });
    }
    expect(secrets.every((s) => /^\d{16}$/.test(s.pan) && /^\d{3}$/.test(s.cvc))).toBe(true);
    const [visa, basic, mc] = created.map((c) => c.card);

    const seen: ApiResponse[] = [];
    const staffCall = async (method: string, path: string, body?: unknown) => {
      const res = await t.api(method, path, { token: staff.token, body });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      seen.push(res);
      return res;
    };
    for (const c of [visa, basic, mc]) {
      await staffCall('GET', `/cards/${c.id}`);
      await staffCall('POST', '/sandbox/authorizations', {
        card_id: c.id,
        amount: '2.00',
        merchant: 'Shop',
        mcc: '5999',
        country: 'GH',
      });
      await staffCall('POST', '/sandbox/authorizations', {
        card_id: c.id,
        amount: '999.00',
        merchant: 'Shop',
        mcc: '5999',
        country: 'GH',
      });
      await staffCall('GET', `/reports/view-cards-transactions?card=${c.id}`);
    }
    await staffCall('POST', '/cards/add-funds', { card: visa.id, amount: '10.00' });
    await staffCall('POST', '/cards/withdraw-funds', { card: mc.id, amount: '5.00' });
    await staffCall('POST', `/cards/flag/${mc.id}`, { reason: 'Check' });
    await staffCall('POST', `/cards/unflag/${mc.id}`, { reason: 'Fine' });
    const token = (await staffCall('GET', `/cards/${visa.id}`)).body.data.card.card_token;
    await staffCall('POST', '/cards/change-status-token', { card_token: token, status: 'deactivate' });
    await staffCall('POST', `/cards/change-status/${visa.id}`, { status: 'activate' });
    await staffCall('GET', `/cards?individual_id=${a.id}`);
    await staffCall('GET', `/cards/individual/${a.id}`);
    await staffCall('GET', `/reports/view-wallet-transactions?wallet=${a.id}`);
    await staffCall('GET', '/wallet/master-balance');
    await staffCall('DELETE', `/cards/${basic.id}`);
    await staffCall('GET', `/cards/${basic.id}`);

    for (const res of seen) {
      const text = JSON.stringify(res.body);
      for (const { pan } of secrets) expect(text).not.toContain(pan);
      expect(text).not.toMatch(/card_cvv|"cvc"|"cvv"/i);
    }
    const log = t.logs.join('');
    expect(log).toContain('/api/v1/cards'); // the requests were logged
    for (const { pan, cvc } of secrets) {
      expect(log).not.toContain(pan);
      expect(log).not.toContain(`"${cvc}"`);
    }
    expect(log).not.toMatch(/card_cvv|"cvc"|"cvv"|pan_sealed|panSealed/i);
  });
});
