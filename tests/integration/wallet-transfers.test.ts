import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { fundWallet } from './support/money';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { balanceOf, walletOf } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const send = (from: Actor, body: Record<string, unknown>) =>
  t.api('POST', '/wallet/transfer', { token: from.token, body });
const transfersOf = async (a: Actor) =>
  (await t.api('GET', `/reports/view-wallet-transfers?wallet=${walletOf(a)}`, { token: a.token })).body;
const transactionsOf = async (a: Actor) =>
  (await t.api('GET', `/reports/view-wallet-transactions?wallet=${walletOf(a)}`, { token: a.token })).body;

/** Nothing moved: the balances are as given and neither side has a transfer. */
async function expectNothingMoved(...sides: [Actor, string][]) {
  for (const [who, balance] of sides) {
    expect(await balanceOf(t, who)).toBe(balance);
    expect((await transfersOf(who)).total).toBe(0);
  }
}

describe('POST /wallet/transfer', () => {
  it('moves money from an Individual to a company wallet, shown on both sides', async () => {
    const a = await newIndividual(t, { first_name: 'Akosua', last_name: 'Mensah' });
    const company = await newCompany(t);
    await fundWallet(t, a.id, 10_000);
    const res = await send(a, { wallet_id: company.companyId, amount: '25.50', reference: 'Invoice 42' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      message: 'Transfer completed.',
      trans_ref: expect.stringMatching(/^TRF-[0-9A-Z]{10}$/),
      wallet_from: a.id,
      wallet_to: company.companyId,
      to_name: 'Volta Trading Ltd',
      amount: '25.50',
      reference: 'Invoice 42',
      status: 'Completed',
      balance_before: '100.00',
      balance_after: '74.50',
    });
    expect(await balanceOf(t, a)).toBe('74.50');
    expect(await balanceOf(t, company)).toBe('25.50');

    const common = {
      id: res.body.data.id,
      trans_ref: res.body.data.trans_ref,
      wallet_from: a.id,
      wallet_to: company.companyId,
      from_name: 'Akosua Mensah',
      to_name: 'Volta Trading Ltd',
      amount: '25.50',
      reference: 'Invoice 42',
      transferer: 'Akosua Mensah',
      status: 'Completed',
    };
    const mine = await transfersOf(a);
    expect(mine.total).toBe(1);
    expect(mine.data[0]).toMatchObject({ ...common, type: 'Debit', balance_before: '100.00', balance_after: '74.50' });
    const theirs = await transfersOf(company);
    expect(theirs.total).toBe(1);
    expect(theirs.data[0]).toMatchObject({ ...common, type: 'Credit', balance_before: '0.00', balance_after: '25.50' });

    const myTx = (await transactionsOf(a)).data;
    expect(myTx.map((x: { type: string }) => x.type)).toEqual(['transfer', 'deposit']);
    expect(myTx[0]).toMatchObject({
      trans_ref: res.body.data.trans_ref,
      direction: 'debit',
      amount: '25.50',
      fees: '0.00',
      description: 'Invoice 42',
      balance_before: '100.00',
      balance_after: '74.50',
    });
    const theirTx = (await transactionsOf(company)).data;
    expect(theirTx).toHaveLength(1);
    expect(theirTx[0]).toMatchObject({
      trans_ref: res.body.data.trans_ref,
      direction: 'credit',
      amount: '25.50',
      balance_before: '0.00',
      balance_after: '25.50',
    });
  });

  it('lets a Company-User pay from the company wallet', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const b = await newIndividual(t, { first_name: 'Kojo', last_name: 'Owusu' });
    await fundWallet(t, admin.companyId!, 5_000);
    const res = await send(member, { wallet_id: b.id, amount: 20 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      wallet_from: admin.companyId,
      to_name: 'Kojo Owusu',
      amount: '20.00',
      reference: null,
      balance_after: '30.00',
    });
    expect(await balanceOf(t, admin)).toBe('30.00');
    expect(await balanceOf(t, b)).toBe('20.00');
    const seenByAdmin = (await transfersOf(admin)).data[0];
    expect(seenByAdmin).toMatchObject({
      type: 'Debit',
      transferer: 'Esi Badu',
      from_name: 'Volta Trading Ltd',
      to_name: 'Kojo Owusu',
    });
    expect((await transfersOf(b)).data[0]).toMatchObject({
      type: 'Credit',
      transferer: 'Esi Badu',
      balance_after: '20.00',
    });
  });

  it('moves the whole balance, down to 0.00', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1234);
    expect((await send(a, { wallet_id: b.id, amount: '12.34' })).status).toBe(200);
    expect(await balanceOf(t, a)).toBe('0.00');
    expect(await balanceOf(t, b)).toBe('12.34');
  });

  it('refuses a transfer to your own wallet (422)', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 1000);
    const res = await send(a, { wallet_id: a.id, amount: '1.00' });
    expect(res.status).toBe(422);
    expect(res.body.error.wallet_id).toEqual(['You cannot transfer to your own wallet']);
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    expect((await send(member, { wallet_id: admin.companyId, amount: '1.00' })).body.error.wallet_id).toEqual([
      'You cannot transfer to your own wallet',
    ]);
    await expectNothingMoved([a, '10.00']);
  });

  it('refuses a wallet id that is no master wallet (422 error.wallet_id)', async () => {
    const a = await newIndividual(t);
    const admin = await newCompany(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 1000);
    // a random id, a staff member, a Company-Admin's own user id (their wallet is the company's)
    for (const id of [randomUUID(), staff.id, admin.id]) {
      const res = await send(a, { wallet_id: id, amount: '1.00' });
      expect(res.status).toBe(422);
      expect(res.body.error.wallet_id).toEqual(['No master wallet has this id']);
    }
    expect((await send(a, { wallet_id: 'nope', amount: '1.00' })).body.error.wallet_id).toEqual([
      'Enter a valid wallet id',
    ]);
    expect((await send(a, { amount: '1.00' })).body.error.wallet_id).toEqual(['Wallet is required']);
    await expectNothingMoved([a, '10.00'], [admin, '0.00']);
  });

  it('refuses a deactivated recipient (422)', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1000);
    await t.ctx.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, b.id));
    const res = await send(a, { wallet_id: b.id, amount: '1.00' });
    expect(res.status).toBe(422);
    expect(res.body.error.wallet_id).toEqual(['This wallet cannot receive transfers']);
    expect(await balanceOf(t, a)).toBe('10.00');
  });

  it('refuses more than the balance (422 error.amount) and moves nothing', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1000);
    for (const amount of ['10.01', '1000', '99999']) {
      const res = await send(a, { wallet_id: b.id, amount });
      expect(res.status).toBe(422);
      expect(res.body.error.amount).toEqual(['Insufficient balance in your master wallet']);
    }
    const empty = await newIndividual(t);
    expect((await send(empty, { wallet_id: b.id, amount: '0.01' })).status).toBe(422);
    await expectNothingMoved([a, '10.00'], [b, '0.00'], [empty, '0.00']);
  });

  it.each([
    ['negative', '-5.00', 'The amount must be more than zero'],
    ['zero', 0, 'The amount must be more than zero'],
    ['three decimals', '1.005', 'Use at most 2 decimal places'],
    ['text', 'ten', 'Enter an amount such as 25.00'],
    ['exponent notation', '1e30', 'Enter an amount such as 25.00'],
    ['a huge number', '99999999999999', 'The amount is too large'],
    ['empty', '', 'Amount is required'],
    ['missing', undefined, 'Amount is required'],
  ])('refuses %s as an amount (422 error.amount) and moves nothing', async (_what, amount, message) => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1000);
    const res = await send(a, { wallet_id: b.id, amount });
    expect(res.status).toBe(422);
    expect(res.body.error.amount).toEqual([message]);
    await expectNothingMoved([a, '10.00'], [b, '0.00']);
  });

  it('refuses a reference longer than 140 characters', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 1000);
    const res = await send(a, { wallet_id: b.id, amount: '1.00', reference: 'x'.repeat(141) });
    expect(res.status).toBe(422);
    expect(res.body.error.reference).toEqual(['Reference must be at most 140 characters']);
    await expectNothingMoved([a, '10.00']);
  });

  it('is for customers only: staff 403, no token 401', async () => {
    const staff = await newStaff(t);
    const b = await newIndividual(t);
    expect((await send(staff, { wallet_id: b.id, amount: '1.00' })).status).toBe(403);
    expect((await t.api('POST', '/wallet/transfer', { body: { wallet_id: b.id, amount: '1.00' } })).status).toBe(401);
    expect(await balanceOf(t, b)).toBe('0.00');
  });
});
