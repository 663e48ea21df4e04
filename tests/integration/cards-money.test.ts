import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCards } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  cardLedger,
  charge,
  creationFee,
  expectLedgerConsistent,
  fundingFee,
  issuerBalance,
  issuerTokenOf,
  newCard,
  walletCents,
  withdrawalFee,
} from './support/cards';
import { fundWallet } from './support/money';
import { centsOf } from '@shared/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const SLOW = 120_000;
const addFunds = (who: Actor, card: string, amount: string) =>
  t.api('POST', '/cards/add-funds', { token: who.token, body: { card, amount } });
const withdraw = (who: Actor, card: string, amount: string) =>
  t.api('POST', '/cards/withdraw-funds', { token: who.token, body: { card, amount } });
const remove = (who: Actor, card: string) => t.api('DELETE', `/cards/${card}`, { token: who.token });

/** A customer with one card (50.00 premium Visa unless overridden) and `walletLeft` in the wallet. */
async function customerWithCard(
  over: { card_amount?: string; purpose?: 'media' | 'general'; type?: string } = {},
  walletLeft = 100_000,
) {
  const a = await newIndividual(t);
  const amount = centsOf(over.card_amount ?? '50.00');
  await fundWallet(t, a.id, amount + creationFee(over.purpose ?? 'media', amount) + walletLeft);
  const { card } = await newCard(t, a, { card_amount: '50.00', ...over });
  expect(await walletCents(t, a)).toBe(walletLeft);
  return { a, card };
}

describe('POST /cards/add-funds', () => {
  it('loads a premium card: the wallet pays amount + load + flat fees, the card and the issuer receive the amount', async () => {
    const { a, card } = await customerWithCard();
    const res = await addFunds(a, card.id, '40.00');
    expect(res.status).toBe(200);
    expect(fundingFee('media', 4_000)).toBe(110);
    expect(res.body.data).toMatchObject({ amount: '40.00', fees: '1.10', total: '41.10' });
    expect(await walletCents(t, a)).toBe(100_000 - 4_110);
    expect(await cardLedger(t, card.id)).toEqual({ available: 9_000, held: 0 });
    expect(await issuerBalance(t, card.id)).toBe(9_000);
    const detail = await t.api('GET', `/cards/${card.id}`, { token: a.token });
    expect(detail.body.data.card.balance).toBe('90.00');
    // staff may fund it from the owner's wallet (the admin card page)
    const staff = await newStaff(t);
    expect((await addFunds(staff, card.id, '3.00')).status).toBe(200);
    expect(await issuerBalance(t, card.id)).toBe(9_300);
  });

  it('refuses basic cards, amounts under 3.00 and more than the wallet holds (422), changing nothing', async () => {
    const { a, card } = await customerWithCard({ purpose: 'general' }, 2_000);
    const { card: basic } = await newCard(t, a, { type: 'basic', card_amount: '3.00' });
    const wallet = await walletCents(t, a);
    for (const [cardId, amount, field] of [
      [basic.id, '10.00', 'card'],
      [card.id, '2.99', 'amount'],
      [card.id, (wallet / 100).toFixed(2), 'amount'], // the fees come on top
    ] as const) {
      const res = await addFunds(a, cardId, amount);
      expect(res.status, `${cardId === basic.id ? 'basic' : 'premium'} ${amount}`).toBe(422);
      expect(res.body.error[field]).toBeDefined();
    }
    expect(await walletCents(t, a)).toBe(wallet);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
    expect(await issuerBalance(t, card.id)).toBe(5_000);
    expect(await issuerBalance(t, basic.id)).toBe(300);
  });
});

describe('POST /cards/withdraw-funds', () => {
  it('moves funds to the wallet less the withdrawal and flat fees; the issuer balance follows', async () => {
    const { a, card } = await customerWithCard({ purpose: 'general' });
    const res = await withdraw(a, card.id, '20.00');
    expect(res.status).toBe(200);
    expect(withdrawalFee('general', 2_000)).toBe(70);
    expect(res.body.data).toMatchObject({ amount: '20.00', fees: '0.70', credited: '19.30' });
    expect(await walletCents(t, a)).toBe(100_000 + 1_930);
    expect(await cardLedger(t, card.id)).toEqual({ available: 3_000, held: 0 });
    expect(await issuerBalance(t, card.id)).toBe(3_000);
    // 0.52: fees 0.01 + 0.50, so 0.01 reaches the wallet
    expect((await withdraw(a, card.id, '0.52')).body.data).toMatchObject({ fees: '0.51', credited: '0.01' });
  });

  it('refuses basic cards, amounts not above the fees, and more than the card holds (422), changing nothing', async () => {
    const { a, card } = await customerWithCard();
    const { card: basic } = await newCard(t, a, { type: 'basic', card_amount: '10.00' });
    const wallet = await walletCents(t, a);
    for (const [cardId, amount, field] of [
      [basic.id, '5.00', 'card'],
      [card.id, '0.50', 'amount'],
      [card.id, '0.51', 'amount'], // fees 0.01 + 0.50 = the amount
      [card.id, '50.01', 'amount'],
    ] as const) {
      const res = await withdraw(a, cardId, amount);
      expect(res.status, amount).toBe(422);
      expect(res.body.error[field]).toBeDefined();
    }
    expect(await walletCents(t, a)).toBe(wallet);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
    expect(await issuerBalance(t, card.id)).toBe(5_000);
    expect(await cardLedger(t, basic.id)).toEqual({ available: 1_000, held: 0 });
    // everything the card holds can be withdrawn
    expect((await withdraw(a, card.id, '50.00')).status).toBe(200);
    expect(await issuerBalance(t, card.id)).toBe(0);
  });

  it('keeps card ledger = issuer balance under 20 fundings and 20 withdrawals at once; nothing goes negative', {
    timeout: SLOW,
  }, async () => {
    const { a, card } = await customerWithCard();
    const ops = [
      ...Array.from({ length: 20 }, () => ['fund', () => addFunds(a, card.id, '5.00')] as const),
      ...Array.from({ length: 20 }, () => ['withdraw', () => withdraw(a, card.id, '5.00')] as const),
    ].sort(() => Math.random() - 0.5);
    const results = await Promise.all(ops.map(async ([kind, run]) => ({ kind, res: await run() })));
    for (const { res } of results) expect([200, 422]).toContain(res.status);
    const funded = results.filter((r) => r.kind === 'fund' && r.res.status === 200).length;
    const withdrawn = results.filter((r) => r.kind === 'withdraw' && r.res.status === 200).length;
    expect(funded).toBe(20); // the wallet holds plenty
    expect(withdrawn).toBeGreaterThan(0);

    const ledger = await cardLedger(t, card.id);
    expect(ledger.available).toBe(5_000 + 500 * funded - 500 * withdrawn);
    expect(await issuerBalance(t, card.id)).toBe(ledger.available);
    expect(await walletCents(t, a)).toBe(
      100_000 - funded * (500 + fundingFee('media', 500)) + withdrawn * (500 - withdrawalFee('media', 500)),
    );
    await expectLedgerConsistent(t, expect);
  });
});

describe('payments, withdrawals, fundings and new cards at once', () => {
  const noErrors = (results: { status: number; body: any }[]) => {
    const errors = results.filter((r) => r.status >= 500).map((r) => r.body?.message);
    expect(errors, 'requests that failed with a server error').toEqual([]);
  };

  it('every payment is approved or declined (never an error) while withdrawals run; card ledger = issuer', {
    timeout: SLOW,
  }, async () => {
    const { a, card } = await customerWithCard({ card_amount: '100.00' });
    const staff = await newStaff(t);
    const ops = [
      ...Array.from({ length: 20 }, () => () => charge(t, staff, card.id, '5.00')),
      ...Array.from({ length: 20 }, () => () => withdraw(a, card.id, '5.00')),
      ...Array.from({ length: 5 }, () => () => addFunds(a, card.id, '5.00')),
    ].sort(() => Math.random() - 0.5);
    const results = await Promise.all(ops.map((run) => run()));
    noErrors(results);
    const payments = results.filter((r) => r.status === 201);
    expect(payments).toHaveLength(20);
    for (const p of payments)
      if (!p.body.data.approved) expect(p.body.data.decline_reason).toBe('Insufficient funds on the card.');
    const ledger = await cardLedger(t, card.id);
    expect(ledger.held).toBe(500 * payments.filter((p) => p.body.data.approved).length);
    expect(await issuerBalance(t, card.id)).toBe(ledger.available);
    await expectLedgerConsistent(t, expect);
  });

  it('creating cards while funding and withdrawing on the same wallet never fails with an error', {
    timeout: SLOW,
  }, async () => {
    const { a, card } = await customerWithCard({ card_amount: '100.00' });
    const ops = [
      ...Array.from(
        { length: 4 },
        (_, i) => () =>
          t.api('POST', '/cards', {
            token: a.token,
            body: {
              first_name: 'Abena',
              last_name: 'Asante',
              nickname: `Mixed ${i}`,
              type: 'premium',
              purpose: 'general',
              card_amount: '3.00',
            },
          }),
      ),
      ...Array.from({ length: 10 }, () => () => addFunds(a, card.id, '3.00')),
      ...Array.from({ length: 10 }, () => () => withdraw(a, card.id, '3.00')),
    ].sort(() => Math.random() - 0.5);
    const results = await Promise.all(ops.map((run) => run()));
    noErrors(results);
    expect(results.filter((r) => r.status === 201)).toHaveLength(4); // with the first, 5: the unverified limit
    expect(await issuerBalance(t, card.id)).toBe((await cardLedger(t, card.id)).available);
    await expectLedgerConsistent(t, expect);
  });
});

describe('DELETE /cards/{id}', () => {
  it('ends a premium card (202) and returns its balance to the wallet', async () => {
    const { a, card } = await customerWithCard();
    const res = await remove(a, card.id);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ returned: '50.00', forfeited: '0.00' });
    expect(res.body.data.message).toMatch(/50\.00/);
    expect(await walletCents(t, a)).toBe(105_000);
    expect(await cardLedger(t, card.id)).toEqual({ available: 0, held: 0 });
    const [issued] = await t.ctx.db
      .select()
      .from(sandboxCards)
      .where(eq(sandboxCards.token, await issuerTokenOf(t, card.id)));
    expect(issued).toMatchObject({ status: 'terminated', balance: 0 });
    const detail = await t.api('GET', `/cards/${card.id}`, { token: a.token });
    expect(detail.body.data.card).toMatchObject({ is_deleted: true, state: 'Deactivated', balance: '0.00' });
    // a deleted card is no longer revealed, funded or listed
    expect(detail.body.data.details).not.toHaveProperty('card_cvv');
    expect(detail.body.data.card.card_number).toBe(card.masked_number);
    expect((await addFunds(a, card.id, '5.00')).status).toBe(409);
    expect((await t.api('GET', `/cards/individual/${a.id}`, { token: a.token })).body.data).toEqual([]);
    // deleting again
    expect((await remove(a, card.id)).status).toBe(409);
    expect(await walletCents(t, a)).toBe(105_000);
  });

  it('ends a basic card and forfeits what it holds', async () => {
    const { a, card } = await customerWithCard({ type: 'basic', card_amount: '12.34' });
    const res = await remove(a, card.id);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ returned: '0.00', forfeited: '12.34' });
    expect(await walletCents(t, a)).toBe(100_000);
    expect(await cardLedger(t, card.id)).toEqual({ available: 0, held: 0 });
    const hist = await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: a.token });
    expect(hist.body.data[0]).toMatchObject({ kind: 'forfeit', amount: '12.34', status: 'completed' });
  });

  it('refuses (409) while a payment is held, and ends the card once it has settled', async () => {
    const { a, card } = await customerWithCard();
    const staff = await newStaff(t);
    const pay = await charge(t, staff, card.id, '20.00');
    expect(pay.body.data.approved).toBe(true);
    const held = await remove(a, card.id);
    expect(held.status).toBe(409);
    expect(held.body.message).toMatch(/settle/i);
    expect(await cardLedger(t, card.id)).toEqual({ available: 3_000, held: 2_000 });
    expect(
      (await t.api('POST', `/sandbox/authorizations/${pay.body.data.transaction.id}/settle`, { token: staff.token }))
        .status,
    ).toBe(200);
    const res = await remove(a, card.id);
    expect(res.status).toBe(202);
    expect(res.body.data.returned).toBe('30.00');
    expect(await walletCents(t, a)).toBe(103_000);
  });
});

describe("another account's card", () => {
  it('is 404 on every card endpoint, for individuals and company users alike, and nothing changes', async () => {
    const { a, card } = await customerWithCard();
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    const stranger = await newIndividual(t);
    for (const x of [company, stranger]) await fundWallet(t, x.companyId ?? x.id, 10_000);
    for (const who of [stranger, company, member]) {
      const calls = [
        t.api('GET', `/cards/${card.id}`, { token: who.token }),
        t.api('PUT', `/cards/${card.id}`, {
          token: who.token,
          body: { spending_limit: '10.00', spending_control: 'day' },
        }),
        addFunds(who, card.id, '5.00'),
        withdraw(who, card.id, '5.00'),
        t.api('POST', `/cards/add-spend-limit/${card.id}`, {
          token: who.token,
          body: { card: card.id, spending_limit: '10.00' },
        }),
        t.api('POST', `/cards/change-status/${card.id}`, { token: who.token, body: { status: 'deactivate' } }),
        remove(who, card.id),
        t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: who.token }),
        t.api('GET', `/cards/individual/${a.id}`, { token: who.token }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain(`${card.last4}"`);
      }
    }
    const mine = await t.api('GET', `/cards/${card.id}`, { token: a.token });
    expect(mine.body.data.card).toMatchObject({
      state: 'Active',
      is_deleted: false,
      balance: '50.00',
      spending_limit: '100000.00',
      additional_spending_limit: '0.00',
    });
    expect(await walletCents(t, a)).toBe(100_000);
    expect(await walletCents(t, stranger)).toBe(10_000);
  });
});
