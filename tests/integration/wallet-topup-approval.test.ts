import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, ledgerTransfers } from '../../server/db/schema';
import { PLATFORM, findWallet } from '../../server/modules/ledger/accounts';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, mailsTo, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  balanceOf,
  decide,
  makeMomoAgent,
  startTopup,
  topupRow,
  tronTopupReady,
  walletOf,
  withMomoSettings,
} from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOCKED = 90_000;

/** The ledger entries of the deposit for a top-up, by account: signed cents. */
async function depositEntries(reference: string) {
  const rows = await t.ctx.db
    .select({ accountId: ledgerEntries.accountId, amount: ledgerEntries.amount, kind: ledgerTransfers.kind })
    .from(ledgerEntries)
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
    .where(eq(ledgerTransfers.reference, reference));
  return rows;
}

async function walletAccountId(a: Actor) {
  return (await findWallet(t.ctx.db, walletOf(a)))!.id;
}

/** A Momo top-up an agent has confirmed: ready for approval. */
async function momoTopupReady(a: Actor, amount: string) {
  const agent = await newIndividual(t);
  await makeMomoAgent(t, agent);
  const top = await startTopup(t, a, amount, 'momo');
  await t.api('POST', '/wallet/topup-confirm', { token: a.token, body: { reference: top.reference, code: top.code } });
  const row = await topupRow(t, a, top.reference);
  const res = await t.api('POST', '/wallet/momo-confirm', { token: agent.token, body: { topup_id: row.id } });
  expect(res.status).toBe(200);
  return { id: row.id as string, reference: top.reference };
}

describe('POST /wallet/approve-topup', () => {
  it('is for staff only: customer tokens are 403, no token 401, and nothing is credited', async () => {
    const a = await newIndividual(t);
    const top = await tronTopupReady(t, a, '100.00');
    const company = await newCompany(t);
    for (const who of [a, company, await newCompanyMember(t, company)]) {
      expect((await decide(t, who, top.id, 'approve')).status).toBe(403);
    }
    expect(
      (await t.api('POST', '/wallet/approve-topup', { body: { topup_id: top.id, action: 'approve' } })).status,
    ).toBe(401);
    expect((await topupRow(t, a, top.reference)).state).toBe('Hash-provided');
    expect(await balanceOf(t, a)).toBe('0.00');
  });

  it('credits a Tron top-up less 0.5 %: 1000.00 → 995.00, the fee to fee income', async () => {
    const a = await newIndividual(t, { first_name: 'Yaa' });
    const staff = await newStaff(t);
    const top = await tronTopupReady(t, a, '1,000.00');
    const res = await decide(t, staff, top.id, 'approve');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ message: 'Top-up approved and the wallet credited.', state: 'Approved' });
    expect(await balanceOf(t, a)).toBe('995.00');

    const entries = await depositEntries(top.reference);
    expect(entries.every((e) => e.kind === 'deposit')).toBe(true);
    expect(new Map(entries.map((e) => [e.accountId, e.amount]))).toEqual(
      new Map([
        [PLATFORM.tronDeposits, -100_000],
        [await walletAccountId(a), 99_500],
        [PLATFORM.feeIncome, 500],
      ]),
    );
    expect(await topupRow(t, a, top.reference)).toMatchObject({
      state: 'Approved',
      amount: '1000.00',
      fee: '5.00',
      credited: '995.00',
      balance_before: '0.00',
      balance_after: '995.00',
      fees_meta: {
        for: 'wallet-topup',
        fees: { 'wallet-topup-tron': '5.00' },
        'sub-total': '1000.00',
        total: '5.00',
        old_balance: '0.00',
        new_balance: '995.00',
      },
    });
    const txs = (await t.api('GET', `/reports/view-wallet-transactions?wallet=${a.id}`, { token: a.token })).body;
    expect(txs.data).toHaveLength(1);
    expect(txs.data[0]).toMatchObject({
      trans_ref: top.reference,
      type: 'deposit',
      direction: 'credit',
      amount: '995.00',
      fees: '5.00',
      balance_before: '0.00',
      balance_after: '995.00',
    });

    await t.ctx.background.settled(); // the mail leaves after the commit, from the notification outbox
    const mail = mailsTo(t, a.email).find((m) => m.subject === `Your wallet top-up ${top.reference} was approved`);
    expect(mail?.text).toContain('Hello Yaa,');
    expect(mail?.text).toContain('USDT 995.00 was credited to your master wallet (fee USDT 5.00).');
  });

  it('credits a Momo top-up in full', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const a = await newIndividual(t);
      const staff = await newStaff(t);
      const top = await momoTopupReady(a, '250.00');
      expect((await decide(t, staff, top.id, 'approve')).status).toBe(200);
      expect(await balanceOf(t, a)).toBe('250.00');
      const entries = await depositEntries(top.reference);
      expect(new Map(entries.map((e) => [e.accountId, e.amount]))).toEqual(
        new Map([
          [PLATFORM.momoDeposits, -25_000],
          [await walletAccountId(a), 25_000],
        ]),
      );
      expect(await topupRow(t, a, top.reference)).toMatchObject({ state: 'Approved', fee: '0.00', credited: '250.00' });
      await t.ctx.background.settled(); // the mail leaves after the commit, from the notification outbox
      const mail = mailsTo(t, a.email).find((m) => m.subject === `Your wallet top-up ${top.reference} was approved`);
      expect(mail?.text).toContain('USDT 250.00 was credited to your master wallet.');
    }),
  );

  it('credits a company’s wallet and mails its users, the one who started the top-up among them', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const staff = await newStaff(t);
    const top = await tronTopupReady(t, member, '200.00');
    expect((await decide(t, staff, top.id, 'approve')).status).toBe(200);
    expect(await balanceOf(t, admin)).toBe('199.00');
    expect(await balanceOf(t, member)).toBe('199.00');
    await t.ctx.background.settled(); // the mail leaves after the commit, from the notification outbox
    expect(mailsTo(t, member.email).some((m) => m.subject.includes(`${top.reference} was approved`))).toBe(true);
    expect(mailsTo(t, admin.email).some((m) => m.subject.includes(`${top.reference} was approved`))).toBe(true);
  });

  it('refuses approval before the hash, or before a momo agent confirmed (409)', { timeout: LOCKED }, () =>
    withMomoSettings(async () => {
      const a = await newIndividual(t);
      const staff = await newStaff(t);
      const tron = await topupRow(t, a, (await startTopup(t, a, '100.00', 'tron')).reference);
      const early = await decide(t, staff, tron.id, 'approve');
      expect(early.status).toBe(409);
      expect(early.body.message).toBe(
        'A Tron top-up can be approved once the customer has provided the transaction hash.',
      );

      const momo = await startTopup(t, a, '100.00', 'momo');
      const momoRow = await topupRow(t, a, momo.reference);
      expect((await decide(t, staff, momoRow.id, 'approve')).status).toBe(409);
      await t.api('POST', '/wallet/topup-confirm', { token: a.token, body: { reference: momo.reference } });
      const paid = await decide(t, staff, momoRow.id, 'approve');
      expect(paid.status).toBe(409);
      expect(paid.body.message).toBe('A Momo top-up can be approved once a momo agent has confirmed the payment.');

      expect(await balanceOf(t, a)).toBe('0.00');
      expect((await topupRow(t, a, tron.reference)).state).toBe('Pending');
      expect((await topupRow(t, a, momo.reference)).state).toBe('Hash-provided');
    }),
  );

  it('denies only with a reason, which the customer sees and is mailed', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    const top = await tronTopupReady(t, a, '100.00');
    for (const reason of [undefined, '', '   ']) {
      const res = await decide(t, staff, top.id, 'deny', reason);
      expect(res.status).toBe(422);
      expect(res.body.error.reason).toEqual(['A reason is required to deny a top-up']);
    }
    expect((await topupRow(t, a, top.reference)).state).toBe('Hash-provided');
    const res = await decide(t, staff, top.id, 'deny', 'The hash belongs to a payment to another address');
    expect(res.status).toBe(200);
    expect(res.body.data.state).toBe('Denied');
    expect(await topupRow(t, a, top.reference)).toMatchObject({
      state: 'Denied',
      reason: 'The hash belongs to a payment to another address',
      credited: null,
    });
    expect(await balanceOf(t, a)).toBe('0.00');
    expect(await depositEntries(top.reference)).toHaveLength(0);
    await t.ctx.background.settled(); // the mail leaves after the commit, from the notification outbox
    const mail = mailsTo(t, a.email).find((m) => m.subject === `Your wallet top-up ${top.reference} was denied`);
    expect(mail?.text).toContain('Reason: The hash belongs to a payment to another address');
  });

  it('decides once: a denied top-up cannot be approved, an approved one cannot be denied or approved again', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    const denied = await tronTopupReady(t, a, '100.00');
    expect((await decide(t, staff, denied.id, 'deny', 'Wrong network')).status).toBe(200);
    expect((await decide(t, staff, denied.id, 'approve')).status).toBe(409);
    expect((await decide(t, staff, denied.id, 'deny', 'Again')).status).toBe(409);
    const approved = await tronTopupReady(t, a, '100.00');
    expect((await decide(t, staff, approved.id, 'approve')).status).toBe(200);
    expect((await decide(t, staff, approved.id, 'approve')).status).toBe(409);
    expect((await decide(t, staff, approved.id, 'deny', 'Changed my mind')).status).toBe(409);
    expect(await balanceOf(t, a)).toBe('99.50');
    expect(await topupRow(t, a, denied.reference)).toMatchObject({ state: 'Denied', reason: 'Wrong network' });
    expect(await topupRow(t, a, approved.reference)).toMatchObject({ state: 'Approved', reason: null });
  });

  it('credits once when the same top-up is approved at the same moment', async () => {
    const a = await newIndividual(t);
    const [s1, s2] = [await newStaff(t), await newStaff(t, 'Super-Admin')];
    const top = await tronTopupReady(t, a, '500.00');
    const results = await Promise.all([
      decide(t, s1, top.id, 'approve'),
      decide(t, s2, top.id, 'approve'),
      decide(t, s1, top.id, 'approve'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await balanceOf(t, a)).toBe('497.50');
    expect(await depositEntries(top.reference)).toHaveLength(3);
    await t.ctx.background.settled(); // the mail leaves after the commit, from the notification outbox
    expect(mailsTo(t, a.email).filter((m) => m.subject.includes(`${top.reference} was approved`))).toHaveLength(1);
  });

  it('lets one of an approval and a denial at the same moment win, never both', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    const top = await tronTopupReady(t, a, '100.00');
    const [approve, deny] = await Promise.all([
      decide(t, staff, top.id, 'approve'),
      decide(t, staff, top.id, 'deny', 'Duplicate'),
    ]);
    expect([approve.status, deny.status].sort()).toEqual([200, 409]);
    const row = await topupRow(t, a, top.reference);
    expect(await balanceOf(t, a)).toBe(row.state === 'Approved' ? '99.50' : '0.00');
    expect(await depositEntries(top.reference)).toHaveLength(row.state === 'Approved' ? 3 : 0);
  });

  it('answers 404 for an unknown top-up and 422 for a bad action', async () => {
    const staff = await newStaff(t);
    expect((await decide(t, staff, randomUUID(), 'approve')).status).toBe(404);
    const bad = await t.api('POST', '/wallet/approve-topup', {
      token: staff.token,
      body: { topup_id: randomUUID(), action: 'maybe' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.action).toEqual(['Action is required']);
    const noId = await t.api('POST', '/wallet/approve-topup', { token: staff.token, body: { action: 'approve' } });
    expect(noId.body.error.topup_id).toEqual(['Top-up is required']);
  });
});
