import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../server/db/schema';
import { tronAddressFromHex } from '../../server/chain/address';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  balanceOf,
  makeMomoAgent,
  startTopup,
  topupRow,
  tronTopupReady,
  walletOf,
  withMomoSettings,
} from './support/wallet';

let t: TestApp;
let staff: Actor;
beforeAll(async () => {
  t = await startTestApp();
  staff = await newStaff(t);
});
afterAll(() => t.close());

const approve = (who: Actor | null, topupId: string, extra: Record<string, unknown> = {}) =>
  t.api('POST', '/wallet/approve-topup', {
    token: who?.token,
    body: { topup_id: topupId, action: 'approve', ...extra },
  });
/** The staff's view of a top-up (its note included). */
const staffRow = async (a: Actor, id: string) =>
  (await t.api('GET', `/wallet/list-topups?wallet=${walletOf(a)}&per_page=100`, { token: staff.token })).body.data.find(
    (r: { id: string }) => r.id === id,
  );
const auditOf = (id: string) =>
  t.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.objectType, 'topup'), eq(auditLog.objectId, id)));
const chainSend = async (to: string, amount: string, confirmations?: number) => {
  const res = await t.api('POST', '/sandbox/chain/transfers', {
    token: staff.token,
    body: { to, amount, ...(confirmations ? { confirmations } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.data.hash as string;
};
const confirmHash = (a: Actor, reference: string, hash: string) =>
  t.api('POST', '/wallet/topup-confirm', { token: a.token, body: { reference, transaction_hash: hash } });

/** Nothing was decided: still waiting, nothing credited, nothing audited. */
async function expectUndecided(a: Actor, top: { id: string; reference: string }) {
  expect((await topupRow(t, a, top.reference)).state).toBe('Hash-provided');
  expect(await balanceOf(t, a)).toBe('0.00');
  expect(await auditOf(top.id)).toEqual([]);
}

describe('approving a Tron top-up the chain did not confirm', () => {
  it('without a note (or a blank one) is a 422 on note and changes nothing', async () => {
    const a = await newIndividual(t);
    const top = await tronTopupReady(t, a, '120.00');
    expect((await topupRow(t, a, top.reference)).chain_check).toMatchObject({ found: false });
    for (const extra of [{}, { note: '' }, { note: '   ' }]) {
      const res = await approve(staff, top.id, extra);
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.body.error).toEqual({ note: ['Say why you approve a payment the chain did not confirm'] });
    }
    const long = await approve(staff, top.id, { note: 'x'.repeat(501) });
    expect(long.status).toBe(422);
    expect(long.body.error.note).toEqual(['Note must be at most 500 characters']);
    await expectUndecided(a, top);
  });

  it('is refused the same when the hash pays another address', async () => {
    const a = await newIndividual(t);
    const top = await startTopup(t, a, '15.00');
    const away = await chainSend(tronAddressFromHex(randomBytes(20).toString('hex')), '15.00');
    expect((await confirmHash(a, top.reference, away)).body.data.chain_check).toMatchObject({
      found: true,
      matches: false,
    });
    const id = (await topupRow(t, a, top.reference)).id as string;
    const res = await approve(staff, id);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error)).toEqual(['note']);
    await expectUndecided(a, { id, reference: top.reference });
  });

  it('with a note credits the wallet, keeps the note for staff (not the customer) and writes it to the audit trail', async () => {
    const a = await newIndividual(t);
    const top = await tronTopupReady(t, a, '200.00');
    const note = 'Seen on Tronscan: 200 USDT to our address, block 61,234,567.';
    const res = await approve(staff, top.id, { note: `  ${note} ` });
    expect(res.status).toBe(200);
    expect(res.body.data.state).toBe('Approved');
    expect(await balanceOf(t, a)).toBe('199.00');
    expect(await staffRow(a, top.id)).toMatchObject({ state: 'Approved', note });
    expect((await topupRow(t, a, top.reference)).note).toBeNull();
    const [row, ...more] = await auditOf(top.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ action: 'topup.approve', actorId: staff.id, status: 200 });
    expect(row!.details).toMatchObject({ note, route: 'POST /wallet/approve-topup' });
  });
});

describe('approving a top-up the chain did confirm, or a Momo one', () => {
  it('needs no note; an optional one is kept', async () => {
    const a = await newIndividual(t);
    const plain = await startTopup(t, a, '33.00');
    // found and paying this wallet this amount, still confirming: the watcher has not credited it yet
    await confirmHash(a, plain.reference, await chainSend(plain.tron!.address!, '33.00', 1));
    const plainRow = await topupRow(t, a, plain.reference);
    expect(plainRow.chain_check).toMatchObject({ found: true, matches: true, settled: false });
    expect((await approve(staff, plainRow.id)).status).toBe(200);
    expect((await staffRow(a, plainRow.id)).note).toBeNull();

    const noted = await startTopup(t, a, '44.00');
    await confirmHash(a, noted.reference, await chainSend(noted.tron!.address!, '44.00', 1));
    const notedRow = await topupRow(t, a, noted.reference);
    expect((await approve(staff, notedRow.id, { note: 'Matches the invoice' })).status).toBe(200);
    expect((await staffRow(a, notedRow.id)).note).toBe('Matches the invoice');
  });

  it('a Momo top-up an agent confirmed is approved without a note', async () => {
    await withMomoSettings(async () => {
      const a = await newIndividual(t);
      const agent = await newIndividual(t);
      await makeMomoAgent(t, agent);
      const top = await startTopup(t, a, '25.00', 'momo');
      await t.api('POST', '/wallet/topup-confirm', {
        token: a.token,
        body: { reference: top.reference, code: top.code },
      });
      const row = await topupRow(t, a, top.reference);
      expect(
        (await t.api('POST', '/wallet/momo-confirm', { token: agent.token, body: { topup_id: row.id } })).status,
      ).toBe(200);
      expect((await approve(staff, row.id)).status).toBe(200);
      expect(await balanceOf(t, a)).toBe('25.00');
    });
  });
});

describe('who may approve', () => {
  it('Admins and Super-Admins; customers are 403 and no session 401, even with a note', async () => {
    const a = await newIndividual(t);
    const company = await newCompany(t);
    const note = 'Checked on a Tron explorer: paid.';
    const top = await tronTopupReady(t, a, '10.00');
    for (const who of [a, company, await newCompanyMember(t, company)]) {
      expect((await approve(who, top.id, { note })).status).toBe(403);
    }
    expect((await approve(null, top.id, { note })).status).toBe(401);
    await expectUndecided(a, top);

    expect((await approve(await newStaff(t, 'Admin'), top.id, { note })).status).toBe(200);
    const second = await tronTopupReady(t, a, '10.00');
    expect((await approve(await newStaff(t, 'Super-Admin'), second.id, { note })).status).toBe(200);
    expect(await balanceOf(t, a)).toBe('19.90');
  });
});
