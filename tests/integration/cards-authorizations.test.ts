import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { cardLedger, charge, issuerBalance, newCard } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const settle = (staff: Actor, txId: string, token = staff.token) =>
  t.api('POST', `/sandbox/authorizations/${txId}/settle`, { token });
const reverse = (staff: Actor, txId: string, token = staff.token) =>
  t.api('POST', `/sandbox/authorizations/${txId}/reverse`, { token });

/** A customer, a staff member, and a premium card of 50.00 (Mastercard: no spending limit). */
async function setup(over: Record<string, unknown> = {}) {
  const a = await newIndividual(t);
  const staff = await newStaff(t);
  await fundWallet(t, a.id, 100_000);
  const { card } = await newCard(t, a, { purpose: 'general', card_amount: '50.00', ...over });
  return { a, staff, card };
}

/** The card as its owner sees it. */
const view = async (a: Actor, id: string) => (await t.api('GET', `/cards/${id}`, { token: a.token })).body.data.card;

describe('POST /sandbox/authorizations', () => {
  it('is for staff only: a customer is refused (403), an unknown card is 404', async () => {
    const { a, staff, card } = await setup();
    expect((await charge(t, a, card.id, '1.00')).status).toBe(403);
    expect(
      (
        await t.api('POST', '/sandbox/authorizations', {
          body: { card_id: card.id, amount: '1.00', merchant: 'X', country: 'GH' },
        })
      ).status,
    ).toBe(401);
    expect((await charge(t, staff, randomUUID(), '1.00')).status).toBe(404);
    const bad = await t.api('POST', '/sandbox/authorizations', {
      token: staff.token,
      body: { card_id: card.id, amount: '0', merchant: '', country: 'Ghana' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error).sort()).toEqual(['amount', 'country', 'mcc', 'merchant']);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
  });

  it('approves and holds: available drops at once, the ledger balance only when the payment settles', async () => {
    const { a, staff, card } = await setup();
    const res = await charge(t, staff, card.id, '20.00', 'Jumia Ghana');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      approved: true,
      decline_reason: null,
      transaction: {
        card_id: card.id,
        kind: 'authorization',
        status: 'approved',
        amount: '20.00',
        currency: 'USD',
        merchant: 'Jumia Ghana',
        country: 'GH',
        decline_reason: null,
      },
    });
    expect(await view(a, card.id)).toMatchObject({ available: '30.00', balance: '30.00', ledger: '50.00' });
    expect(await issuerBalance(t, card.id)).toBe(3_000);

    const txId = res.body.data.transaction.id;
    expect((await settle(staff, txId, a.token)).status).toBe(403);
    expect((await settle(staff, txId)).status).toBe(200);
    expect(await view(a, card.id)).toMatchObject({ available: '30.00', ledger: '30.00' });
    expect(await issuerBalance(t, card.id)).toBe(3_000);
    // a settled payment can be neither reversed nor settled again
    for (const again of [reverse(staff, txId), settle(staff, txId)]) expect((await again).status).toBe(409);
    expect(await view(a, card.id)).toMatchObject({ available: '30.00', ledger: '30.00' });
  });

  it('reverses a held payment: the amount returns to the card, once', async () => {
    const { a, staff, card } = await setup();
    const txId = (await charge(t, staff, card.id, '15.00')).body.data.transaction.id;
    expect(await view(a, card.id)).toMatchObject({ available: '35.00', ledger: '50.00' });
    expect((await reverse(staff, txId)).status).toBe(200);
    expect(await view(a, card.id)).toMatchObject({ available: '50.00', ledger: '50.00' });
    expect(await issuerBalance(t, card.id)).toBe(5_000);
    for (const again of [reverse(staff, txId), settle(staff, txId)]) expect((await again).status).toBe(409);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
    expect((await reverse(staff, randomUUID())).status).toBe(404);
  });

  it('declines with a reason a person understands, and moves no money', async () => {
    const { a, staff, card } = await setup();
    const flagged = (what: string, reason?: string) =>
      t.api('POST', `/cards/${what}/${card.id}`, { token: staff.token, body: reason === undefined ? {} : { reason } });
    const status = (s: 'activate' | 'deactivate') =>
      t.api('POST', `/cards/change-status/${card.id}`, { token: a.token, body: { status: s } });
    const declines: [string, () => Promise<unknown>, RegExp, () => Promise<unknown>][] = [
      ['more than the card holds', async () => undefined, /^Insufficient funds on the card\.$/, async () => undefined],
      ['a frozen card', () => status('deactivate'), /frozen.*Unfreeze/, () => status('activate')],
      [
        'a flagged card',
        () => flagged('flag', 'Chargeback investigation'),
        /flagged.*contact support/,
        () => flagged('unflag', 'Cleared'),
      ],
      [
        'a suspended card',
        () => flagged('suspend', 'KYC refresh'),
        /suspended.*contact support/,
        () => flagged('unsuspend', 'Done'),
      ],
    ];
    const ledger = { available: 5_000, held: 0 };
    for (const [what, before, reason, after] of declines) {
      const r = await before();
      if (r) expect([200, 202], what).toContain((r as { status: number }).status);
      const res = await charge(
        t,
        staff,
        card.id,
        what === 'more than the card holds' ? ((ledger.available + 1) / 100).toFixed(2) : '5.00',
      );
      expect(res.status, what).toBe(201);
      expect(res.body.data.approved, what).toBe(false);
      expect(res.body.data.decline_reason, what).toMatch(reason);
      expect(res.body.data.transaction, what).toMatchObject({
        status: 'declined',
        decline_reason: res.body.data.decline_reason,
      });
      expect(await cardLedger(t, card.id), what).toEqual(ledger);
      expect(await issuerBalance(t, card.id), what).toBe(ledger.available);
      await after();
      expect((await charge(t, staff, card.id, '1.00')).body.data.approved, `after ${what}`).toBe(true);
      ledger.available -= 100;
      ledger.held += 100;
    }
    const casino = await charge(t, staff, card.id, '5.00', 'Lucky Casino');
    expect(casino.body.data).toMatchObject({ approved: false });
    expect(casino.body.data.decline_reason).toMatch(/casinos or betting/);
    expect(await cardLedger(t, card.id)).toEqual({ available: 4_600, held: 400 });

    expect((await t.api('DELETE', `/cards/${card.id}`, { token: a.token })).status).toBe(409); // held payments
    for (const tx of (await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: a.token })).body
      .data) {
      if (tx.status === 'approved') expect((await settle(staff, tx.id)).status).toBe(200);
    }
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: a.token })).status).toBe(202);
    const ended = await charge(t, staff, card.id, '1.00');
    expect(ended.body.data).toMatchObject({ approved: false, decline_reason: 'The card has been terminated.' });
  });

  it('declines over the spending limit of a Visa card, saying which limit', async () => {
    const { staff, card } = await setup({ purpose: 'media', spending_limit: '25.00', spending_control: 'month' });
    expect((await charge(t, staff, card.id, '20.00')).body.data.approved).toBe(true);
    const over = await charge(t, staff, card.id, '5.01');
    expect(over.body.data).toMatchObject({
      approved: false,
      decline_reason: "This payment would go over the card's spending limit of USD 25.00 per month.",
    });
    expect((await charge(t, staff, card.id, '5.00')).body.data.approved).toBe(true);
    expect(await cardLedger(t, card.id)).toEqual({ available: 2_500, held: 2_500 });
  });
});

describe('GET /reports/view-cards-transactions', () => {
  it("lists the card's payments with their status and reasons, newest first, paged, for its owner and staff", async () => {
    const { a, staff, card } = await setup();
    const ids: Record<string, string> = {};
    for (const [name, amount, merchant] of [
      ['settled', '3.00', 'Shop A'],
      ['reversed', '4.00', 'Shop B'],
      ['held', '5.00', 'Shop C'],
      ['declined', '99.00', 'Shop D'],
    ] as const) {
      t.clock.advance(1_000);
      ids[name] = (await charge(t, staff, card.id, amount, merchant)).body.data.transaction.id;
    }
    t.clock.advance(1_000);
    await settle(staff, ids.settled!);
    t.clock.advance(1_000);
    await reverse(staff, ids.reversed!);
    for (const who of [a, staff]) {
      const res = await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: who.token });
      expect(res.status).toBe(200);
      // issue 32: the clearing and the reversal are rows of their own, pointing at their authorisation
      expect(res.body.total).toBe(7);
      expect(res.body.data.map((r: any) => [r.kind, r.status, r.merchant, r.amount])).toEqual([
        ['reversal', 'completed', 'Shop B', '4.00'],
        ['clearing', 'completed', 'Shop A', '3.00'],
        ['authorization', 'declined', 'Shop D', '99.00'],
        ['authorization', 'approved', 'Shop C', '5.00'],
        ['authorization', 'reversed', 'Shop B', '4.00'],
        ['authorization', 'settled', 'Shop A', '3.00'],
        ['load', 'completed', 'Cardwallet', '50.00'],
      ]);
      expect(res.body.data[2].decline_reason).toBe('Insufficient funds on the card.');
      expect(res.body.data[2].decline_code).toBe('insufficient_funds');
      expect(res.body.data[0].authorization_id).toBe(ids.reversed);
      expect(res.body.data[1].authorization_id).toBe(ids.settled);
    }
    const page = await t.api('GET', `/reports/view-cards-transactions?card=${card.id}&per_page=2&page=3`, {
      token: a.token,
    });
    expect(page.body.data.map((r: any) => r.merchant)).toEqual(['Shop B', 'Shop A']);
    const missing = await t.api('GET', '/reports/view-cards-transactions', { token: a.token });
    expect(missing.status).toBe(422);
    expect(missing.body.error.card).toEqual(['Please select a card']);
  });
});
