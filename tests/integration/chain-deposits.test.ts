import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tronAddressFromHex } from '../../server/chain/address';
import { ChainUnavailable } from '../../server/chain/port';
import { chainDeposits, topups } from '../../server/db/schema';
import { scanDeposits } from '../../server/modules/deposits/watcher';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { balanceOf, decide, startTopup, topupRow, tronHash, walletOf } from './support/wallet';
import { expectAgreeing } from './support/settled';

let t: TestApp;
let staff: Actor;
beforeAll(async () => {
  t = await startTestApp();
  staff = await newStaff(t);
});
afterAll(() => t.close());

const addressOf = async (a: Actor) =>
  (await t.api('GET', `/wallet/deposit-address/${walletOf(a)}`, { token: a.token })).body.data.address as string;
const send = async (to: string, amount: string, confirmations?: number) => {
  const res = await t.api('POST', '/sandbox/chain/transfers', {
    token: staff.token,
    body: { to, amount, ...(confirmations ? { confirmations } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.data.hash as string;
};
const confirm = (a: Actor, reference: string, hash: string) =>
  t.api('POST', '/wallet/topup-confirm', { token: a.token, body: { reference, transaction_hash: hash } });
const creditsOf = (hash: string) =>
  t.ctx.db
    .select()
    .from(topups)
    .where(and(eq(topups.transactionHash, hash), eq(topups.state, 'Approved')));
const depositOf = async (hash: string) =>
  (await t.ctx.db.select().from(chainDeposits).where(eq(chainDeposits.hash, hash)))[0];
const randomAddress = () => tronAddressFromHex(randomBytes(20).toString('hex'));

describe('GET /wallet/deposit-address/{walletId}', () => {
  it("answers the wallet's own Tron address to its owner, their company's users and staff; others get 404", async () => {
    const a = await newIndividual(t);
    const res = await t.api('GET', `/wallet/deposit-address/${a.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      network: 'Tron USDT (TRC20)',
    });
    expect(await addressOf(a)).toBe(res.body.data.address);
    expect((await t.api('GET', `/wallet/deposit-address/${a.id}`, { token: staff.token })).body.data.address).toBe(
      res.body.data.address,
    );

    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    const companyAddress = await addressOf(company);
    expect(
      (await t.api('GET', `/wallet/deposit-address/${company.companyId}`, { token: member.token })).body.data.address,
    ).toBe(companyAddress);
    expect(companyAddress).not.toBe(res.body.data.address);

    const other = await newIndividual(t);
    expect((await t.api('GET', `/wallet/deposit-address/${a.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api('GET', `/wallet/deposit-address/${a.id}`)).status).toBe(401);
    expect((await t.api('GET', '/wallet/deposit-address/not-a-uuid', { token: a.token })).status).toBe(404);
  });

  it('gives two wallets asking at the same moment two different addresses', async () => {
    const people = await Promise.all([newIndividual(t), newIndividual(t), newIndividual(t)]);
    const addresses = await Promise.all(people.map(addressOf));
    expect(new Set(addresses).size).toBe(3);
  });
});

describe('POST /sandbox/chain/transfers', () => {
  it('is for staff only and refuses bad input field by field, changing nothing', async () => {
    const a = await newIndividual(t);
    const to = await addressOf(a);
    expect(
      (await t.api('POST', '/sandbox/chain/transfers', { token: a.token, body: { to, amount: '5.00' } })).status,
    ).toBe(403);
    const bad = await t.api('POST', '/sandbox/chain/transfers', {
      token: staff.token,
      body: { to: 'T123', amount: '-1', confirmations: 0 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error).sort()).toEqual(['amount', 'confirmations', 'to']);
    expect(await t.ctx.chain.transfersTo(to, new Date(0))).toEqual([]);
  });
});

describe('the deposit watcher', () => {
  it('credits a settled deposit once, less the 0.5% Tron fee, however often it runs and with two instances', async () => {
    const a = await newIndividual(t);
    const hash = await send(await addressOf(a), '200.00');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    await Promise.all([scanDeposits(t.ctx), scanDeposits(t.ctx)]);
    await scanDeposits(t.ctx);
    expect(await balanceOf(t, a)).toBe('199.00');
    const [credited, ...more] = await creditsOf(hash);
    expect(more).toEqual([]);
    const row = await topupRow(t, a, credited!.reference);
    expect(row).toMatchObject({
      state: 'Approved',
      method: 'Tron',
      amount: '200.00',
      fee: '1.00',
      credited: '199.00',
      credited_automatically: true,
      decided_by: null,
      transaction_hash: hash,
    });
    expect(await depositOf(hash)).toMatchObject({
      status: 'Credited',
      walletId: a.id,
      topupId: credited!.id,
      amount: 20_000,
    });
    const bell = await t.api('GET', '/notifications', { token: a.token });
    expect(bell.body.data.some((n: { title: string }) => n.title.includes(credited!.reference))).toBe(true);
  });

  it('pays the Pending top-up the customer opened for that amount rather than opening another', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '75.50');
    await send(top.tron!.address!, '75.50');
    await scanDeposits(t.ctx);
    expect(await topupRow(t, a, top.reference)).toMatchObject({ state: 'Approved', credited_automatically: true });
  });

  it('waits for a deposit below the confirmations, and credits it once it has them', async () => {
    const a = await newIndividual(t);
    const hash = await send(await addressOf(a), '40.00', 1);
    await scanDeposits(t.ctx);
    expect(await creditsOf(hash)).toEqual([]);
    expect(await balanceOf(t, a)).toBe('0.00');
    t.clock.advance(3_000 * t.ctx.config.chain.minConfirmations);
    await scanDeposits(t.ctx);
    expect(await creditsOf(hash)).toHaveLength(1);
    expect(await balanceOf(t, a)).toBe('39.80');
  });

  it('credits nobody for a deposit to an address of no wallet, and staff see it, assign it once, or return another', async () => {
    const stray = await send(t.ctx.config.tronDepositAddress, '30.00');
    const nowhere = await send(randomAddress(), '30.00');
    await scanDeposits(t.ctx);
    expect(await creditsOf(stray)).toEqual([]);
    expect(await depositOf(nowhere)).toBeUndefined();
    const list = await t.api('GET', '/wallet/chain-deposits?status=Unassigned&per_page=100', { token: staff.token });
    expect(list.status).toBe(200);
    const row = list.body.data.find((d: { hash: string }) => d.hash === stray);
    expect(row).toMatchObject({
      status: 'Unassigned',
      reason: 'no-wallet',
      amount: '30.00',
      to: t.ctx.config.tronDepositAddress,
      wallet_id: null,
    });
    const bell = await t.api('GET', '/notifications?per_page=50', { token: staff.token });
    expect(bell.body.data.find((n: { body: string }) => n.body.includes(stray.slice(0, 12)))).toMatchObject({
      type: 'deposit_unassigned',
      title: 'A deposit of USDT 30.00 waits for staff',
      link: '/admin/chain-deposits',
    });

    const a = await newIndividual(t);
    expect((await t.api('GET', '/wallet/chain-deposits', { token: a.token })).status).toBe(403);
    expect(
      (await t.api('POST', `/wallet/chain-deposits/${row.id}/assign`, { token: a.token, body: { wallet_id: a.id } }))
        .status,
    ).toBe(403);
    const bad = await t.api('POST', `/wallet/chain-deposits/${row.id}/assign`, {
      token: staff.token,
      body: { wallet_id: 'nope' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.wallet_id).toBeDefined();
    const [first, second] = await Promise.all(
      [0, 1].map(() =>
        t.api('POST', `/wallet/chain-deposits/${row.id}/assign`, { token: staff.token, body: { wallet_id: a.id } }),
      ),
    );
    expect([first!.status, second!.status].sort()).toEqual([200, 409]);
    expect(await balanceOf(t, a)).toBe('29.85');
    const [credited] = await creditsOf(stray);
    expect(await topupRow(t, a, credited!.reference)).toMatchObject({
      credited_automatically: false,
      decided_by: { first_name: expect.any(String) },
    });

    const back = await send(t.ctx.config.tronDepositAddress, '12.00');
    await scanDeposits(t.ctx);
    const id = (await depositOf(back))!.id;
    const noNote = await t.api('POST', `/wallet/chain-deposits/${id}/return`, {
      token: staff.token,
      body: { note: '' },
    });
    expect(noNote.status).toBe(422);
    expect(noNote.body.error.note).toBeDefined();
    const returned = await t.api('POST', `/wallet/chain-deposits/${id}/return`, {
      token: staff.token,
      body: { note: 'Sent back to the sender', return_hash: tronHash() },
    });
    expect(returned.status).toBe(200);
    expect(await depositOf(back)).toMatchObject({ status: 'Returned', note: 'Sent back to the sender' });
    expect(
      (await t.api('POST', `/wallet/chain-deposits/${id}/assign`, { token: staff.token, body: { wallet_id: a.id } }))
        .status,
    ).toBe(409);
  });

  it('keeps a deposit below the minimum top-up for staff', async () => {
    const a = await newIndividual(t);
    const hash = await send(await addressOf(a), '0.50');
    await scanDeposits(t.ctx);
    expect(await depositOf(hash)).toMatchObject({ status: 'Unassigned', reason: 'below-minimum', walletId: a.id });
    expect(await balanceOf(t, a)).toBe('0.00');
  });

  it('credits nothing and loses nothing while the chain cannot be read', async () => {
    const a = await newIndividual(t);
    const hash = await send(await addressOf(a), '10.00');
    const chain = t.ctx.chain;
    t.ctx.chain = { ...chain, transfersTo: async () => Promise.reject(new ChainUnavailable('down')) };
    try {
      const s = await scanDeposits(t.ctx);
      expect(s.unavailable).toBeGreaterThan(0);
      expect(await creditsOf(hash)).toEqual([]);
    } finally {
      t.ctx.chain = chain;
    }
    await scanDeposits(t.ctx);
    expect(await creditsOf(hash)).toHaveLength(1);
  });
});

describe('GET /wallet/chain-deposits totals', () => {
  it('are kept by status as deposits arrive, are assigned and returned, as counting says', async () => {
    const statuses = ['', 'Unassigned', 'Credited', 'Assigned', 'Returned'];
    const listed = () =>
      Promise.all(
        statuses.map(
          async (s) =>
            (await t.api('GET', `/wallet/chain-deposits?per_page=1${s ? `&status=${s}` : ''}`, { token: staff.token }))
              .body.total as number,
        ),
      );
    const counted = async () => {
      const all = await t.ctx.db.select({ status: chainDeposits.status }).from(chainDeposits);
      return statuses.map((s) => all.filter((d) => !s || d.status === s).length);
    };
    await expectAgreeing(listed, counted);
    const a = await newIndividual(t);
    const [stray, other] = [
      await send(t.ctx.config.tronDepositAddress, '20.00'),
      await send(t.ctx.config.tronDepositAddress, '21.00'),
    ];
    await send(await addressOf(a), '25.00');
    await scanDeposits(t.ctx);
    await expectAgreeing(listed, counted);
    const [one, two] = [(await depositOf(stray))!.id, (await depositOf(other))!.id];
    const assigned = await t.api('POST', `/wallet/chain-deposits/${one}/assign`, {
      token: staff.token,
      body: { wallet_id: a.id },
    });
    expect(assigned.status).toBe(200);
    const returned = await t.api('POST', `/wallet/chain-deposits/${two}/return`, {
      token: staff.token,
      body: { note: 'Sent back', return_hash: tronHash() },
    });
    expect(returned.status).toBe(200);
    await expectAgreeing(listed, counted);
  });
});

describe('topup-confirm looks the hash up on the chain', () => {
  it('approves at once a top-up whose hash paid this wallet its amount; the watcher then credits nothing more', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '60.00');
    const other = await startTopup(t, a, '60.00');
    const hash = await send(top.tron!.address!, '60.00');
    const res = await confirm(a, other.reference, hash);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      state: 'Approved',
      chain_check: { found: true, matches: true, settled: true, amount: '60.00' },
    });
    await scanDeposits(t.ctx);
    expect(await creditsOf(hash)).toHaveLength(1);
    expect(await balanceOf(t, a)).toBe('59.70');
    expect((await topupRow(t, a, top.reference)).state).toBe('Pending');
  });

  it('answers success, not a conflict, when the watcher credited the top-up while its hash was being pasted', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '45.00');
    const hash = await send(top.tron!.address!, '45.00');
    await scanDeposits(t.ctx);
    const res = await confirm(a, top.reference, `0x${hash.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      state: 'Approved',
      transaction_hash: hash,
      message: 'Deposit confirmed on the chain: your wallet is credited.',
    });
    expect((await confirm(a, top.reference, tronHash())).status).toBe(409);
    expect(await creditsOf(hash)).toHaveLength(1);
  });

  it('approves one still confirming when it settles', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '20.00');
    const hash = await send(top.tron!.address!, '20.00', 2);
    const res = await confirm(a, top.reference, hash);
    expect(res.body.data).toMatchObject({
      state: 'Hash-provided',
      chain_check: { found: true, matches: true, settled: false, confirmations: 2 },
    });
    expect(res.body.data.message).toMatch(/2 confirmations so far/);
    t.clock.advance(3_000 * t.ctx.config.chain.minConfirmations);
    await scanDeposits(t.ctx);
    expect(await topupRow(t, a, top.reference)).toMatchObject({ state: 'Approved', credited_automatically: true });
  });

  it('leaves to staff a hash that is unknown, to another address or of another amount, with the facts beside it', async () => {
    const a = await newIndividual(t);
    const unknown = await startTopup(t, a, '15.00');
    expect((await confirm(a, unknown.reference, tronHash())).body.data).toMatchObject({
      state: 'Hash-provided',
      chain_check: { found: false },
    });
    const elsewhere = await startTopup(t, a, '15.00');
    const away = await send(randomAddress(), '15.00');
    expect((await confirm(a, elsewhere.reference, away)).body.data.chain_check).toMatchObject({
      found: true,
      matches: false,
    });
    const short = await startTopup(t, a, '15.00');
    const less = await send(short.tron!.address!, '14.00');
    expect((await confirm(a, short.reference, less)).body.data.chain_check).toMatchObject({
      found: true,
      matches: false,
      amount: '14.00',
    });
    const list = await t.api('GET', `/wallet/list-topups?individual_id=${a.id}&per_page=50`, { token: staff.token });
    const facts = list.body.data.find((r: { reference: string }) => r.reference === elsewhere.reference).chain_check;
    expect(facts).toMatchObject({ found: true, matches: false, amount: '15.00', settled: true });
    // The short payment still reached the wallet's address: it goes to staff, named by its top-up, never credited twice.
    await scanDeposits(t.ctx);
    expect(await depositOf(less)).toMatchObject({ status: 'Unassigned', reason: 'amount-mismatch', walletId: a.id });
    expect(await balanceOf(t, a)).toBe('0.00');
  });

  it('never credits one hash twice, whichever path sees it first', async () => {
    const a = await newIndividual(t);
    const hash = await send(await addressOf(a), '25.00');
    await scanDeposits(t.ctx);
    const top = await startTopup(t, a, '50.00');
    const again = await confirm(a, top.reference, hash);
    expect(again.status).toBe(422);
    expect(again.body.error.transaction_hash).toEqual([expect.stringMatching(/already credited to your wallet/)]);

    // Staff approved a hash by hand before the chain settled it: the watcher records it, credits nothing.
    const b = await newIndividual(t);
    const manual = await startTopup(t, b, '33.00');
    const slow = await send(manual.tron!.address!, '33.00', 1);
    await confirm(b, manual.reference, slow);
    const row = await topupRow(t, b, manual.reference);
    expect((await decide(t, staff, row.id, 'approve')).status).toBe(200);
    t.clock.advance(3_000 * t.ctx.config.chain.minConfirmations);
    await scanDeposits(t.ctx);
    expect(await creditsOf(slow)).toHaveLength(1);
    expect(await depositOf(slow)).toMatchObject({ status: 'Credited', topupId: row.id });
    expect(await balanceOf(t, b)).toBe('32.83'); // 33.00 less 0.165 rounded up to 0.17
  });

  it('never credits by itself a payment to the shared address, whoever names its hash; staff approving it by hand closes the deposit', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '64.00');
    const hash = await send(t.ctx.config.tronDepositAddress, '64.00');
    const res = await confirm(a, top.reference, hash);
    expect(res.body.data).toMatchObject({
      state: 'Hash-provided',
      chain_check: { found: true, matches: false, to: t.ctx.config.tronDepositAddress },
    });
    await scanDeposits(t.ctx);
    expect(await creditsOf(hash)).toEqual([]);
    const deposit = (await depositOf(hash))!;
    expect(deposit).toMatchObject({ status: 'Unassigned', reason: 'no-wallet' });
    // Staff check it and approve the top-up by hand: the deposit is then paid, and cannot be assigned again.
    expect((await decide(t, staff, (await topupRow(t, a, top.reference)).id, 'approve')).status).toBe(200);
    expect(await depositOf(hash)).toMatchObject({
      status: 'Credited',
      topupId: (await topupRow(t, a, top.reference)).id,
    });
    const other = await newIndividual(t);
    expect(
      (
        await t.api('POST', `/wallet/chain-deposits/${deposit.id}/assign`, {
          token: staff.token,
          body: { wallet_id: other.id },
        })
      ).status,
    ).toBe(409);
    expect(await balanceOf(t, other)).toBe('0.00');
    expect(await balanceOf(t, a)).toBe('63.68');
  });

  it('credits nothing more when a top-up of another amount was approved by hand before its payment settled', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '100.00');
    const hash = await send(top.tron!.address!, '99.50', 1);
    await confirm(a, top.reference, hash);
    expect((await decide(t, staff, (await topupRow(t, a, top.reference)).id, 'approve')).status).toBe(200);
    t.clock.advance(3_000 * t.ctx.config.chain.minConfirmations);
    await scanDeposits(t.ctx);
    expect(await depositOf(hash)).toMatchObject({
      status: 'Credited',
      topupId: (await topupRow(t, a, top.reference)).id,
    });
    expect(await creditsOf(hash)).toHaveLength(1);
    expect(await balanceOf(t, a)).toBe('99.50');
  });

  it('credits a deposit sent already deep in the chain', async () => {
    const a = await newIndividual(t);
    const hash = await send(await addressOf(a), '8.00', 5_000);
    await scanDeposits(t.ctx);
    expect(await creditsOf(hash)).toHaveLength(1);
  });

  it('keeps a top-up for staff when the chain cannot be asked', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '11.00');
    const chain = t.ctx.chain;
    t.ctx.chain = { ...chain, transaction: async () => Promise.reject(new ChainUnavailable('slow')) };
    try {
      const res = await confirm(a, top.reference, tronHash());
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ state: 'Hash-provided', chain_check: { found: false, unavailable: true } });
    } finally {
      t.ctx.chain = chain;
    }
  });
});
