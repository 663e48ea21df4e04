import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { charge, newCard, verifyAccount } from './support/cards';
import { fundWallet } from './support/money';

/**
 * Balances at any date (issue 36): GET /wallet/account-balance/{id}?at= and GET /cards/{id}/account-balance?at=
 * answer the balance after the last posting at or before `at`, from the ledger: 0 before the first, the posting's
 * own at its exact instant. The owner and staff reach them, a stranger gets 404; a bad or future `at` is a 422.
 */

let t: TestApp;
let owner: Actor;
let stranger: Actor;
let support: Actor;

/** The owner's postings, oldest first, in a past no other test writes to. */
const HISTORY = [
  { at: '2025-01-10T10:00:00.000Z', cents: 10_000 },
  { at: '2025-01-10T12:00:00.000Z', cents: -2_500 },
  { at: '2025-01-11T00:00:00.000Z', cents: 500 },
];

beforeAll(async () => {
  t = await startTestApp();
  owner = await newIndividual(t);
  stranger = await newIndividual(t);
  support = await newStaff(t, 'Support');
  const wallet = (await findWallet(t.ctx.db, owner.id))!;
  for (const h of HISTORY)
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: h.cents > 0 ? 'deposit' : 'withdraw',
        reference: newReference('TST'),
        meta: { fees_total: 0 },
        at: new Date(h.at),
        legs: [
          { accountId: wallet.id, amount: h.cents },
          { accountId: PLATFORM.tronDeposits, amount: -h.cents },
        ],
      }),
    );
});
afterAll(() => t.close());

const walletAt = (at: string, as: Actor = owner, id = owner.id) =>
  t.api('GET', `/wallet/account-balance/${id}?at=${encodeURIComponent(at)}`, { token: as.token });

describe('a wallet at a date', () => {
  it('is the balance after the last posting at or before it', async () => {
    const cases: Array<[string, string]> = [
      ['2025-01-10T09:59:59.999Z', '0.00'], // before the first posting
      ['2025-01-10T10:00:00Z', '100.00'], // exactly at the first
      ['2025-01-10T11:00:00Z', '100.00'], // between
      ['2025-01-10T12:00:00Z', '75.00'],
      ['2025-01-10T13:00:00+01:00', '75.00'], // 12:00 UTC, written with an offset
      ['2025-01-10T23:59:59.999Z', '75.00'],
      ['2025-01-11T00:00:00Z', '80.00'],
      ['2025-06-30T23:59:59Z', '80.00'],
    ];
    for (const [at, want] of cases) {
      const r = await walletAt(at);
      expect([at, r.status, r.body.data]).toEqual([at, 200, want]);
    }
    // Without `at`: the balance now, the same figure while nothing else was posted.
    expect((await t.api('GET', `/wallet/account-balance/${owner.id}`, { token: owner.token })).body.data).toBe('80.00');
  });

  it('follows the wallet rules: staff read any, a stranger gets 404', async () => {
    expect((await walletAt('2025-01-10T12:00:00Z', support)).body.data).toBe('75.00');
    expect((await walletAt('2025-01-10T12:00:00Z', stranger)).status).toBe(404);
    expect((await walletAt('2025-01-10T12:00:00Z', owner, randomUUID())).status).toBe(404);
  });

  it('refuses a bad or future `at` with a message on the field', async () => {
    for (const at of ['yesterday', '2025-13-01T00:00:00Z', '2025-01-10', '2025-01-10T10:00:00', '']) {
      const r = await walletAt(at);
      expect([at, r.status]).toEqual([at, 422]);
      expect(r.body.error.at[0]).toMatch(/^at must be a date and time/);
    }
    const future = await walletAt(new Date(Date.now() + 86_400_000).toISOString());
    expect(future.status).toBe(422);
    expect(future.body.error).toEqual({ at: ['at cannot be in the future'] });
  });
});

describe('a card at a date', () => {
  it("answers the card's available, held and ledger balances now and at an instant", async () => {
    await verifyAccount(t, owner);
    await fundWallet(t, owner.id, 20_000);
    const before = new Date(Date.now() - 1000).toISOString();
    const card = (await newCard(t, owner, { card_amount: '50.00' })).card;
    const now = await t.api('GET', `/cards/${card.id}/account-balance`, { token: owner.token });
    expect(now.status).toBe(200);
    expect(now.body.data).toEqual({ available: card.balance, held: '0.00', ledger: card.balance });
    const at = (when: string, as: Actor = owner) =>
      t.api('GET', `/cards/${card.id}/account-balance?at=${encodeURIComponent(when)}`, { token: as.token });
    expect((await at(before)).body.data).toEqual({ available: '0.00', held: '0.00', ledger: '0.00' });
    expect((await at(new Date().toISOString())).body.data).toEqual(now.body.data);
    expect((await at(new Date().toISOString(), support)).status).toBe(200);
    expect((await at(new Date().toISOString(), stranger)).status).toBe(404);
    expect((await at('not a date')).status).toBe(422);
    expect((await at(new Date(Date.now() + 3_600_000).toISOString())).body.error).toEqual({
      at: ['at cannot be in the future'],
    });
  });

  it('between postings: as the card stood after each (issued, funded, a payment held)', async () => {
    const admin = await newStaff(t);
    const me = await newIndividual(t);
    await verifyAccount(t, me);
    await fundWallet(t, me.id, 20_000);
    const pause = () => new Promise((r) => setTimeout(r, 20));
    const card = (await newCard(t, me, { card_amount: '50.00' })).card;
    const balances = async () =>
      (await t.api('GET', `/cards/${card.id}/account-balance`, { token: me.token })).body.data;
    const issued = await balances();
    await pause();
    const afterIssue = new Date().toISOString();
    await pause();
    const funded = await t.api('POST', '/cards/add-funds', {
      token: me.token,
      body: { card: card.id, amount: '10.00' },
    });
    expect(funded.status).toBe(200);
    const afterFunding = await balances();
    expect(afterFunding.available).not.toBe(issued.available);
    await pause();
    const afterFund = new Date().toISOString();
    await pause();
    expect((await charge(t, admin, card.id, '5.00')).status).toBe(201);
    const held = await balances();
    expect(held.held).toBe('5.00');
    const at = async (when: string) =>
      (await t.api('GET', `/cards/${card.id}/account-balance?at=${encodeURIComponent(when)}`, { token: me.token })).body
        .data;
    expect(await at(afterIssue)).toEqual(issued);
    expect(await at(afterFund)).toEqual(afterFunding);
    expect(await at(new Date().toISOString())).toEqual(held);
  });
});
