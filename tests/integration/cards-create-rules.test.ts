import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards, ledgerEntries } from '../../server/db/schema';
import { findWallet } from '../../server/modules/ledger/accounts';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';
import {
  cardBody,
  createCard,
  creationFee,
  expectLedgerConsistent,
  newCard,
  verifyAccount,
  walletCents,
} from './support/cards';
import { fundWallet } from './support/money';
import { walletOf } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const SLOW = 120_000;

/** What a customer can observe of their wallet: its balance, its entries and its cards. */
async function snapshot(a: Actor) {
  const wallet = (await findWallet(t.ctx.db, walletOf(a)))!;
  const entries = await t.ctx.db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountId, wallet.id));
  const own = await t.ctx.db
    .select({ id: cards.id })
    .from(cards)
    .where(eq(cards.walletId, walletOf(a)));
  return { balance: await walletCents(t, a), entries: entries.length, cards: own.length };
}

describe('amounts', () => {
  it('refuses a load under 3.00 (422 on card_amount) and accepts 3.00', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 10_000);
    const before = await snapshot(a);
    const low = await createCard(t, a, { card_amount: '2.99' });
    expect(low.status).toBe(422);
    expect(low.body.error.card_amount[0]).toMatch(/minimum.*3\.00/i);
    expect(await snapshot(a)).toEqual(before);
    expect((await createCard(t, a, { card_amount: '3.00' })).status).toBe(201);
  });

  it('refuses a card the wallet cannot pay with fees (422) and changes nothing; the exact amount is enough', async () => {
    const a = await newIndividual(t);
    const needed = 4_500 + creationFee('media', 4_500); // 45.00 + 5.00 + 0.68 + 0.50 = 51.18
    expect(needed).toBe(5_118);
    await fundWallet(t, a.id, needed - 1);
    const before = await snapshot(a);
    const res = await createCard(t, a, { card_amount: '45.00' });
    expect(res.status).toBe(422);
    expect(res.body.error.card_amount[0]).toMatch(/insufficient/i);
    expect(await snapshot(a)).toEqual(before);
    expect(before).toMatchObject({ balance: needed - 1, entries: 1, cards: 0 });

    await fundWallet(t, a.id, 1);
    expect((await createCard(t, a, { card_amount: '45.00' })).status).toBe(201);
    expect(await walletCents(t, a)).toBe(0);
  });
});

describe('unverified accounts: at most 5 cards in their lifetime', () => {
  it('refuses the 6th card even when some were deleted, and allows it once verified', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 100_000);
    const allowance = async () => (await t.api('GET', '/cards/allowance', { token: a.token })).body.data;
    expect(await allowance()).toEqual({ limit: 5, created: 0, left: 5 });
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(await newCard(t, a, { type: 'premium', purpose: 'general', card_amount: '3.00' }));
    expect(await allowance()).toEqual({ limit: 5, created: 5, left: 0 });
    for (const c of made.slice(0, 2))
      expect((await t.api('DELETE', `/cards/${c.card.id}`, { token: a.token })).status).toBe(202);
    expect(await allowance()).toEqual({ limit: 5, created: 5, left: 0 }); // deleted cards count
    const before = await snapshot(a);
    const sixth = await createCard(t, a, { card_amount: '3.00' });
    expect(sixth.status).toBe(422);
    expect(sixth.body.message).toMatch(/at most 5 cards/);
    expect(await snapshot(a)).toEqual(before);

    await verifyAccount(t, a);
    expect(await allowance()).toEqual({ limit: null, created: 5, left: null });
    expect((await createCard(t, a, { card_amount: '3.00' })).status).toBe(201);
    expect((await createCard(t, a, { card_amount: '3.00' })).status).toBe(201);
  });

  it('tells only customers their card allowance', async () => {
    const staff = await newStaff(t, 'Admin');
    expect((await t.api('GET', '/cards/allowance', { token: staff.token })).status).toBe(403);
    expect((await t.api('GET', '/cards/allowance')).status).toBe(401);
  });

  it('holds under 8 concurrent creations from one wallet: 5 cards, 3 refusals, each card paid once', {
    timeout: SLOW,
  }, async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 100_000);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createCard(t, a, { nickname: `Race ${i}`, card_amount: '10.00' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 422, 422, 422]);
    const own = await t.api('GET', `/cards/individual/${a.id}`, { token: a.token });
    expect(own.body.data).toHaveLength(5);
    expect(await walletCents(t, a)).toBe(100_000 - 5 * (1_000 + creationFee('media', 1_000)));
    await expectLedgerConsistent(t, expect);
  });

  it('counts a company wallet as one account, whoever creates the cards', async () => {
    const admin = await newCompany(t);
    await fundWallet(t, admin.companyId!, 100_000);
    for (let i = 0; i < 5; i++) await newCard(t, admin, { card_amount: '3.00' });
    expect((await createCard(t, admin, { card_amount: '3.00' })).status).toBe(422);
    await verifyAccount(t, admin);
    expect((await createCard(t, admin, { card_amount: '3.00' })).status).toBe(201);
  });
});

describe('nicknames', () => {
  it('are unique among the live cards of a wallet (422 on nickname); a deleted card frees its nickname', async () => {
    const [a, b] = [await newIndividual(t), await newIndividual(t)];
    for (const x of [a, b]) await fundWallet(t, x.id, 50_000);
    const first = await newCard(t, a, { nickname: 'Groceries' });
    const before = await snapshot(a);
    const dup = await createCard(t, a, { nickname: 'Groceries', purpose: 'general' });
    expect(dup.status).toBe(422);
    expect(dup.body.error.nickname[0]).toMatch(/nickname/i);
    expect(await snapshot(a)).toEqual(before);
    // another wallet may use it
    expect((await createCard(t, b, { nickname: 'Groceries' })).status).toBe(201);
    expect((await t.api('DELETE', `/cards/${first.card.id}`, { token: a.token })).status).toBe(202);
    expect((await createCard(t, a, { nickname: 'Groceries' })).status).toBe(201);
  });

  it('stay unique when two creations race with the same nickname', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 50_000);
    const [x, y] = await Promise.all([createCard(t, a, { nickname: 'Twin' }), createCard(t, a, { nickname: 'Twin' })]);
    expect([x.status, y.status].sort()).toEqual([201, 422]);
    expect(await walletCents(t, a)).toBe(50_000 - 5_000 - creationFee('media', 5_000));
  });
});

describe('validation', () => {
  const missing = (field: string) => {
    const body: Record<string, unknown> = cardBody();
    delete body[field];
    return body;
  };

  it.each([
    ['first_name', 'First Name is required'],
    ['last_name', 'Last Name is required'],
    ['nickname', 'Nickname is required'],
    ['type', 'Card Type is required'],
    ['purpose', 'Card Purpose is required'],
    ['card_amount', 'Amount is required'],
    ['spending_limit', 'Spending Limit is required'],
  ])('refuses a card without %s (422) and charges nothing', async (field, message) => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 10_000);
    const before = await snapshot(a);
    const res = await t.api('POST', '/cards', { token: a.token, body: missing(field) });
    expect(res.status).toBe(422);
    expect(res.body.error[field]).toContain(message);
    expect(await snapshot(a)).toEqual(before);
  });

  it.each([
    ['a blank first name', { first_name: '  ' }, 'first_name'],
    ['a tokenised card (not for customers)', { purpose: 'tokencard' }, 'purpose'],
    ['an unknown type', { type: 'gold' }, 'type'],
    ['an unknown spending control', { spending_control: 'hour' }, 'spending_control'],
    ['three decimals', { card_amount: '10.001' }, 'card_amount'],
    ['a negative amount', { card_amount: '-10.00' }, 'card_amount'],
    ['text as amount', { card_amount: 'ten' }, 'card_amount'],
    ['a Visa with an empty spending limit', { spending_limit: '' }, 'spending_limit'],
  ])('refuses %s (422)', async (_what, over, field) => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 10_000);
    const before = await snapshot(a);
    const res = await createCard(t, a, over);
    expect(res.status).toBe(422);
    expect(res.body.error[field]).toBeDefined();
    expect(await snapshot(a)).toEqual(before);
  });

  it('accepts amounts with commas, and gives a Mastercard no spending limit whatever is sent', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 500_000);
    const visa = await newCard(t, a, { card_amount: '1,000.00', spending_limit: '250', spending_control: undefined });
    expect(visa.card).toMatchObject({ balance: '1000.00', spending_limit: '250.00', spending_control: 'lifetime' });
    const mc = await newCard(t, a, { purpose: 'general', spending_limit: '25.00', spending_control: 'day' });
    expect(mc.card).toMatchObject({ brand: 'Mastercard', spending_limit: null, spending_control: null });
    const bare = await t.api('POST', '/cards', {
      token: a.token,
      body: { ...cardBody({ purpose: 'general' }), spending_limit: undefined, spending_control: undefined },
    });
    expect(bare.status).toBe(201);
  });

  it('refuses staff (403) and anonymous callers (401)', async () => {
    const staff = await newStaff(t);
    expect((await createCard(t, staff)).status).toBe(403);
    expect((await t.api('POST', '/cards', { body: cardBody() })).status).toBe(401);
  });
});
