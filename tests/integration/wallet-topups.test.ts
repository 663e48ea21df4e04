import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { momoAmountToSend } from '@shared/fees';
import { centsOf, formatMoney } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  addMomoAlertEmail,
  decide,
  makeMomoAgent,
  startTopup,
  topupBody,
  topupRow,
  tronHash,
  withMomoSettings,
} from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOCKED = 90_000;
const create = (token: string, body: unknown) => t.api('POST', '/wallet/topup-balance', { token, body });
const confirm = (token: string, body: Record<string, unknown>) =>
  t.api('POST', '/wallet/topup-confirm', { token, body });
const momoConfirm = (token: string, topupId: string) =>
  t.api('POST', '/wallet/momo-confirm', { token, body: { topup_id: topupId } });
const topupsOf = async (token: string, wallet: string) =>
  (await t.api('GET', `/reports/view-wallet-topups?wallet=${wallet}`, { token })).body;

describe('POST /wallet/topup-balance', () => {
  it("creates a Pending Tron top-up (201) with a reference, a code and the wallet's own deposit address", async () => {
    const a = await newIndividual(t);
    const res = await create(a.token, { wallet_id: a.id, amount: '1,000' });
    const own = (await t.api('GET', `/wallet/deposit-address/${a.id}`, { token: a.token })).body.data.address;
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      reference: expect.stringMatching(/^TOP-[0-9A-Z]{10}$/),
      code: expect.stringMatching(/^[0-9A-Z]{6}$/),
      method: 'Tron',
      amount: '1000.00',
      tron: { network: 'Tron USDT (TRC20)', address: own },
    });
    expect(own).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(own).not.toBe(t.ctx.config.tronDepositAddress);
    const row = await topupRow(t, a, res.body.data.reference);
    expect(row).toMatchObject({
      state: 'Pending',
      method: 'Tron',
      amount: '1000.00',
      wallet_id: a.id,
      transaction_hash: null,
      name_type: 'Individual',
    });
    expect(row.loader).toMatchObject({ first_name: 'Abena', role: 'Individual' });
    // The customer can come back to the instructions later.
    const again = await t.api('GET', `/wallet/topup/${res.body.data.reference}`, { token: a.token });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
  });

  it(
    'tells what to send by mobile money: rate × amount + flat fee in GHS, and the reference to quote',
    { timeout: LOCKED },
    () =>
      withMomoSettings(async () => {
        const a = await newIndividual(t);
        const settings = (await t.api('GET', '/param/momo-details', { token: a.token })).body.data;
        for (const amount of ['10', '12.34', '1,250.50']) {
          const res = await create(a.token, { wallet_id: a.id, amount, method: 'momo' });
          expect(res.status).toBe(201);
          const expected = formatMoney(
            momoAmountToSend(settings.rate, centsOf(settings.flat_fee), centsOf(amount.replace(/,/g, ''))),
          );
          expect(res.body.data).toMatchObject({
            method: 'Momo',
            amount: formatMoney(centsOf(amount.replace(/,/g, ''))),
          });
          expect(res.body.data.momo).toEqual({
            network: settings.network,
            momo_number: settings.momo_number,
            momo_name: settings.momo_name,
            amount_to_send: expected,
            currency: 'GHS',
            pay_reference: `${res.body.data.code}-${expected}`,
          });
          expect(res.body.data.tron).toBeUndefined();
        }
        if (settings.rate === '15.50' && settings.flat_fee === '5.00') {
          // the migration's settings, worked by hand: 12.34 × 15.50 = 191.27, + 5.00
          const res = await create(a.token, { wallet_id: a.id, amount: '12.34', method: 'momo' });
          expect(res.body.data.momo.amount_to_send).toBe('196.27');
        }
      }),
  );

  it('mails the momo alert list when a Momo top-up starts, and not for Tron', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const alert = `momo.alerts.${randomUUID()}@example.com`;
      await addMomoAlertEmail(t, alert);
      const a = await newIndividual(t, { first_name: 'Kofi', last_name: 'Boateng' });
      const tron = await startTopup(t, a, '20.00', 'tron');
      expect(t.mails.filter((m) => m.to.split(',').includes(alert))).toHaveLength(0);
      const momo = await startTopup(t, a, '20.00', 'momo');
      const mails = t.mails.filter((m) => m.to.split(',').includes(alert));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`New Momo top-up ${momo.reference}: GHS ${momo.momo!.amount_to_send}`);
      expect(mails[0]!.text).toContain('Customer: Kofi Boateng');
      expect(mails[0]!.text).toContain(`Payment reference: ${momo.momo!.pay_reference}`);
      expect(mails[0]!.text).not.toContain(tron.reference);
    }),
  );

  it('needs at least 1.00', async () => {
    const a = await newIndividual(t);
    const low = await create(a.token, { wallet_id: a.id, amount: '0.99' });
    expect(low.status).toBe(422);
    expect(low.body.error.amount).toEqual(['The minimum top-up is USDT 1.00']);
    expect((await topupsOf(a.token, a.id)).total).toBe(0);
    expect((await create(a.token, { wallet_id: a.id, amount: '1.00' })).status).toBe(201);
    expect((await create(a.token, { wallet_id: a.id, amount: 1 })).status).toBe(201);
  });

  it.each([
    ['negative', '-5.00', 'The amount must be more than zero'],
    ['a negative number', -5, 'The amount must be more than zero'],
    ['zero', '0', 'The amount must be more than zero'],
    ['zero as a number', 0, 'The amount must be more than zero'],
    ['three decimals', '1.005', 'Use at most 2 decimal places'],
    ['three decimals as a number', 10.005, 'Use at most 2 decimal places'],
    ['text', 'ten', 'Enter an amount such as 25.00'],
    ['exponent notation', '1e30', 'Enter an amount such as 25.00'],
    ['a huge number', 1e30, 'Enter an amount such as 25.00'],
    ['more than the maximum', '99999999999999', 'The amount is too large'],
    ['empty', '', 'Amount is required'],
    ['null', null, 'Amount is required'],
    ['missing', undefined, 'Amount is required'],
  ])('refuses %s as an amount (422 error.amount) and creates nothing', async (_what, amount, message) => {
    const a = await newIndividual(t);
    const res = await create(a.token, topupBody(a, amount));
    expect(res.status).toBe(422);
    expect(res.body.error.amount).toEqual([message]);
    expect(res.body.message).toBe(message);
    expect((await topupsOf(a.token, a.id)).total).toBe(0);
  });

  it('refuses another account’s wallet (404) and a bad wallet id or method (422)', async () => {
    const a = await newIndividual(t);
    const other = await newIndividual(t);
    const company = await newCompany(t);
    for (const wallet of [other.id, company.companyId!, randomUUID()]) {
      const res = await create(a.token, { wallet_id: wallet, amount: '50.00' });
      expect(res.status).toBe(404);
    }
    expect((await topupsOf(other.token, other.id)).total).toBe(0);
    expect((await topupsOf(company.token, company.companyId!)).total).toBe(0);
    expect((await create(a.token, { wallet_id: 'abc', amount: '50.00' })).body.error.wallet_id).toEqual([
      'Enter a valid wallet id',
    ]);
    expect((await create(a.token, { amount: '50.00' })).body.error.wallet_id).toEqual(['Wallet is required']);
    const method = await create(a.token, { wallet_id: a.id, amount: '50.00', method: 'paypal' });
    expect(method.status).toBe(422);
    expect(method.body.error.method).toEqual(['Method must be tron or momo']);
    expect((await topupsOf(a.token, a.id)).total).toBe(0);
  });

  it('is for customers only: staff 403, no token 401', async () => {
    const staff = await newStaff(t);
    expect((await create(staff.token, { wallet_id: staff.id, amount: '50.00' })).status).toBe(403);
    expect(
      (await t.api('POST', '/wallet/topup-balance', { body: { wallet_id: randomUUID(), amount: '50.00' } })).status,
    ).toBe(401);
  });

  it('lets a Company-User top up the company wallet', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const top = await startTopup(t, member, '75.00');
    const row = await topupRow(t, admin, top.reference);
    expect(row).toMatchObject({ wallet_id: admin.companyId, name_type: 'Company', company: 'Volta Trading Ltd' });
    expect(row.loader).toMatchObject({ first_name: 'Esi', last_name: 'Badu', role: 'Company-User' });
  });
});

describe('POST /wallet/topup-confirm', () => {
  it('needs a Tron hash of 64 hexadecimal characters', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '100.00');
    for (const hash of [undefined, '', '   ']) {
      const res = await confirm(a.token, {
        reference: top.reference,
        ...(hash === undefined ? {} : { transaction_hash: hash }),
      });
      expect(res.status).toBe(422);
      expect(res.body.error.transaction_hash).toEqual(['Provide transaction hash']);
    }
    for (const hash of ['a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), `0x${'a'.repeat(63)}`, 'not a hash']) {
      const res = await confirm(a.token, { reference: top.reference, transaction_hash: hash });
      expect(res.status, hash).toBe(422);
      expect(res.body.error.transaction_hash).toEqual(['A Tron transaction hash is 64 hexadecimal characters']);
    }
    expect((await topupRow(t, a, top.reference)).state).toBe('Pending');
    const hash = tronHash();
    const ok = await confirm(a.token, { reference: top.reference, transaction_hash: `0x${hash.toUpperCase()}` });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ reference: top.reference, state: 'Hash-provided', transaction_hash: hash });
    expect(ok.body.data.message).toMatch(/Transaction hash received/);
    expect(await topupRow(t, a, top.reference)).toMatchObject({ state: 'Hash-provided', transaction_hash: hash });
  });

  it('refuses a hash already given for another top-up, whoever gave it (422)', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const hash = tronHash();
    const first = await startTopup(t, a, '100.00');
    expect((await confirm(a.token, { reference: first.reference, transaction_hash: hash })).status).toBe(200);
    for (const [who, spelled] of [
      [a, hash],
      [b, `0x${hash.toUpperCase()}`],
    ] as const) {
      const next = await startTopup(t, who, '100.00');
      const res = await confirm(who.token, { reference: next.reference, transaction_hash: spelled });
      expect(res.status).toBe(422);
      expect(res.body.error.transaction_hash).toEqual([
        'This transaction hash was already submitted for another top-up',
      ]);
      expect((await topupRow(t, who, next.reference)).state).toBe('Pending');
    }
  });

  it('accepts one hash for only one top-up, even when both are confirmed at the same moment', async () => {
    const [a, b] = [await newIndividual(t), await newIndividual(t)];
    for (let round = 0; round < 3; round++) {
      const hash = tronHash();
      const tops = await Promise.all(
        [a, a, b, b].map(async (who) => ({ who, top: await startTopup(t, who, '100.00') })),
      );
      const results = await Promise.all(
        tops.map(({ who, top }) => confirm(who.token, { reference: top.reference, transaction_hash: hash })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
      const states = await Promise.all(tops.map(({ who, top }) => topupRow(t, who, top.reference)));
      expect(states.filter((r) => r.transaction_hash === hash)).toHaveLength(1);
    }
  });

  it('confirms once: a second confirmation is 409', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '100.00');
    const hash = tronHash();
    expect((await confirm(a.token, { reference: top.reference, transaction_hash: hash })).status).toBe(200);
    const again = await confirm(a.token, { reference: top.reference, transaction_hash: tronHash() });
    expect(again.status).toBe(409);
    expect((await topupRow(t, a, top.reference)).transaction_hash).toBe(hash);
  });

  it('answers 404 for another customer’s or an unknown reference, 403 for staff', async () => {
    const a = await newIndividual(t);
    const other = await newIndividual(t);
    const top = await startTopup(t, a, '100.00');
    expect((await confirm(other.token, { reference: top.reference, transaction_hash: tronHash() })).status).toBe(404);
    expect((await t.api('GET', `/wallet/topup/${top.reference}`, { token: other.token })).status).toBe(404);
    expect((await confirm(a.token, { reference: 'TOP-NOSUCHREF0', transaction_hash: tronHash() })).status).toBe(404);
    expect((await confirm(a.token, { transaction_hash: tronHash() })).body.error.reference).toEqual([
      'Reference is required',
    ]);
    const staff = await newStaff(t);
    expect((await confirm(staff.token, { reference: top.reference, transaction_hash: tronHash() })).status).toBe(403);
    expect((await topupRow(t, a, top.reference)).state).toBe('Pending');
  });

  it('records a Momo "Paid" as {code}-{amount to send}; a wrong code is 422', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const a = await newIndividual(t);
      const top = await startTopup(t, a, '10.00', 'momo');
      const wrong = await confirm(a.token, {
        reference: top.reference,
        code: top.code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA',
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body.error.code).toEqual(['The code does not match this top-up']);
      const paid = await confirm(a.token, { reference: top.reference, code: top.code.toLowerCase() });
      expect(paid.status).toBe(200);
      expect(paid.body.data.transaction_hash).toBe(`${top.code}-${top.momo!.amount_to_send}`);
      expect(await topupRow(t, a, top.reference)).toMatchObject({
        state: 'Hash-provided',
        transaction_hash: top.momo!.pay_reference,
      });
      // "Paid" without the code works too
      const second = await startTopup(t, a, '10.00', 'momo');
      expect((await confirm(a.token, { reference: second.reference })).body.data.transaction_hash).toBe(
        second.momo!.pay_reference,
      );
    }),
  );
});

describe('POST /wallet/momo-confirm', () => {
  it('is for momo agents only; others get 403 and nothing changes', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const a = await newIndividual(t);
      const agent = await newIndividual(t);
      await makeMomoAgent(t, agent);
      const top = await startTopup(t, a, '10.00', 'momo');
      const { id } = await topupRow(t, a, top.reference);
      const company = await newCompany(t);
      for (const who of [a, company]) expect((await momoConfirm(who.token, id)).status).toBe(403);
      expect((await momoConfirm((await newStaff(t)).token, id)).status).toBe(403);
      expect((await t.api('POST', '/wallet/momo-confirm', { body: { topup_id: id } })).status).toBe(401);
      expect((await topupRow(t, a, top.reference)).state).toBe('Pending');

      // agents see the Momo top-ups; customers who are not agents do not
      const list = await t.api('GET', `/wallet/list-momo-topups?wallet=${a.id}`, { token: agent.token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
      expect((await t.api('GET', '/wallet/list-momo-topups', { token: a.token })).status).toBe(403);

      const ok = await momoConfirm(agent.token, id);
      expect(ok.status).toBe(200);
      expect(ok.body.data.state).toBe('MoMo processed');
      expect((await topupRow(t, a, top.reference)).state).toBe('MoMo processed');
    }),
  );

  it('confirms only Momo top-ups that are Pending or Hash-provided', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const a = await newIndividual(t);
      const agent = await newIndividual(t);
      const staff = await newStaff(t);
      await makeMomoAgent(t, agent);
      const pending = await topupRow(t, a, (await startTopup(t, a, '10.00', 'momo')).reference);
      const paid = await startTopup(t, a, '10.00', 'momo');
      await confirm(a.token, { reference: paid.reference });
      const paidRow = await topupRow(t, a, paid.reference);
      expect((await momoConfirm(agent.token, pending.id)).status).toBe(200);
      expect((await momoConfirm(agent.token, paidRow.id)).status).toBe(200);
      expect((await momoConfirm(agent.token, pending.id)).status).toBe(409);

      expect((await decide(t, staff, pending.id, 'approve')).status).toBe(200);
      expect((await momoConfirm(agent.token, pending.id)).status).toBe(409);
      const denied = await topupRow(t, a, (await startTopup(t, a, '10.00', 'momo')).reference);
      expect((await decide(t, staff, denied.id, 'deny', 'No payment arrived')).status).toBe(200);
      expect((await momoConfirm(agent.token, denied.id)).status).toBe(409);
      expect((await topupRow(t, a, denied.reference)).state).toBe('Denied');

      const tron = await topupRow(t, a, (await startTopup(t, a, '10.00', 'tron')).reference);
      expect((await momoConfirm(agent.token, tron.id)).status).toBe(404);
      expect((await momoConfirm(agent.token, randomUUID())).status).toBe(404);
      expect((await topupRow(t, a, tron.reference)).state).toBe('Pending');
    }),
  );
});
