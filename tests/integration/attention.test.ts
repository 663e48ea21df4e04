import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainDeposits, reconciliationRuns, verifications } from '../../server/db/schema';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { charge, newCard } from './support/cards';
import { fundWallet } from './support/money';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { startTopup, tronTopupReady } from './support/wallet';

/**
 * GET /admin/attention: the staff dashboard's counts of what waits, each equal to the total of the list its tile
 * opens with the same filter. The file has a database of its own, so the counts are exact.
 */

let t: TestApp;
let own: PrivateDatabase | null;
let admin: Actor;
let superAdmin: Actor;
beforeAll(async () => {
  own = await privatePostgres();
  t = await startTestApp({}, { postgresUrl: own?.url, ownPglite: true });
  [admin, superAdmin] = await Promise.all([newStaff(t, 'Admin'), newStaff(t, 'Super-Admin')]);
});
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

const attention = async (a: Actor) => {
  const res = await t.api('GET', '/admin/attention', { token: a.token });
  expect(res.status).toBe(200);
  return res.body.data as Record<string, number>;
};
const total = async (a: Actor, path: string) => {
  const res = await t.api('GET', path, { token: a.token });
  expect(res.status, path).toBe(200);
  return res.body.total as number;
};

async function pendingVerification(accountType: 'individual' | 'company', accountId: string, submittedBy: string) {
  await t.ctx.db
    .insert(verifications)
    .values({ id: randomUUID(), accountType, accountId, submittedBy, data: {}, documents: {} });
}

async function chainDeposit(status: string) {
  await t.ctx.db.insert(chainDeposits).values({
    id: randomUUID(),
    hash: randomBytes(32).toString('hex'),
    logIndex: 0,
    toAddress: 'TAddress',
    fromAddress: 'TSender',
    amountMicro: 5_000_000,
    amount: 500,
    blockNumber: 1,
    blockTime: new Date(),
    status,
    reason: status === 'Unassigned' ? 'no-wallet' : null,
  });
}

describe('GET /admin/attention', () => {
  it('is for staff only: 401 without a session, 403 for customers', async () => {
    expect((await t.api('GET', '/admin/attention')).status).toBe(401);
    const customer = await newIndividual(t);
    const res = await t.api('GET', '/admin/attention', { token: customer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });

  it('answers zeros on a quiet day, every count to both staff roles', async () => {
    const zeros = {
      verifications_individuals: 0,
      verifications_companies: 0,
      topups_to_decide: 0,
      chain_deposits_unassigned: 0,
      flagged_cards: 0,
      reconciliation_drift: 0,
      approvals_pending: 0,
      disputes_to_send: 0,
    };
    expect(await attention(admin)).toEqual(zeros);
    expect(await attention(superAdmin)).toEqual(zeros);
  });

  it('counts what waits, and nothing decided, each as its filtered list totals it', async () => {
    const ind = await newIndividual(t);
    const ind2 = await newIndividual(t);
    const company = await newCompany(t);

    // verifications: two individuals and a company waiting, one individual decided
    await pendingVerification('individual', ind.id, ind.id);
    await pendingVerification('individual', ind2.id, ind2.id);
    await pendingVerification('company', company.companyId!, company.id);
    await t.ctx.db.insert(verifications).values({
      id: randomUUID(),
      accountType: 'individual',
      accountId: ind.id,
      submittedBy: ind.id,
      data: {},
      documents: {},
      state: 'rejected',
    });

    // top-ups: two Tron with a hash, one momo confirmed by an agent; a Tron without hash and a momo not yet paid do not count
    await tronTopupReady(t, ind, '10.00');
    await tronTopupReady(t, company, '20.00');
    await startTopup(t, ind, '30.00', 'tron');
    const momo = await startTopup(t, ind2, '40.00', 'momo');
    await startTopup(t, ind2, '50.00', 'momo');
    await t.ctx.db.execute(sql`update topups set state = 'MoMo processed' where reference = ${momo.reference}`);

    // chain deposits: two unassigned, one assigned
    await chainDeposit('Unassigned');
    await chainDeposit('Unassigned');
    await chainDeposit('Assigned');

    // cards: two flagged (one of them then deleted: the Flagged Cards list shows it too), one not flagged
    await fundWallet(t, ind.id, 100_000);
    const [c1, c2, c3] = [(await newCard(t, ind)).card, (await newCard(t, ind)).card, (await newCard(t, ind)).card];
    for (const c of [c1, c2])
      expect(
        (await t.api('POST', `/cards/flag/${c.id}`, { token: admin.token, body: { reason: 'Review' } })).status,
      ).toBe(200);
    await t.ctx.db.execute(sql`update cards set deleted_at = now() where id = ${c2.id}`);

    // disputes: one opened, one already sent to the issuer
    const disputed = async () => {
      const auth = (await charge(t, admin, c3!.id, '5.00')).body.data.transaction;
      expect((await t.api('POST', `/sandbox/authorizations/${auth.id}/settle`, { token: admin.token })).status).toBe(
        200,
      );
      const body = { reason: 'not_received', amount: '5.00', explanation: 'Never came.' };
      const d = await t.api('POST', `/card-transactions/${auth.id}/disputes`, { token: ind.token, body });
      expect(d.status).toBe(201);
      return d.body.data.id as string;
    };
    await disputed();
    const sent = await disputed();
    expect((await t.api('POST', `/disputes/${sent}/submit`, { token: admin.token, body: {} })).status).toBe(200);

    // reconciliation: an older run with drift, the last with two drifting cards
    const drift = (n: number) =>
      Array.from({ length: n }, () => ({
        card_id: randomUUID(),
        ledger: '1.00',
        issuer: '2.00',
        reason: 'unexplained',
      }));
    await t.ctx.db.insert(reconciliationRuns).values([
      { id: randomUUID(), runAt: new Date(Date.now() - 86_400_000), checked: 5, drift: drift(4), trigger: 'job' },
      { id: randomUUID(), runAt: new Date(), checked: 5, drift: drift(2), trigger: 'job' },
    ]);

    const counts = await attention(admin);
    expect(counts).toEqual({
      verifications_individuals: 2,
      verifications_companies: 1,
      topups_to_decide: 3,
      chain_deposits_unassigned: 2,
      flagged_cards: 2,
      reconciliation_drift: 2,
      approvals_pending: 0,
      disputes_to_send: 1,
    });
    expect(await attention(superAdmin)).toEqual(counts);

    // the lists the tiles open, with their filters
    expect(await total(admin, '/verification/get-individuals?state=pending')).toBe(2);
    expect(await total(admin, '/verification/get-companies?state=pending')).toBe(1);
    expect(await total(admin, '/wallet/list-topups?ready=true')).toBe(3);
    expect(await total(admin, '/wallet/chain-deposits?status=Unassigned')).toBe(2);
    expect(await total(admin, '/cards?flagged_only=true')).toBe(2);
    expect(await total(admin, '/disputes?state=submitted')).toBe(1);
    const recon = await t.api('GET', '/reconciliation', { token: admin.token });
    expect(recon.body.data.drift).toHaveLength(2);
  });

  it('follows a decision: an approved top-up is no longer waiting', async () => {
    const before = (await attention(admin)).topups_to_decide!;
    const ind = await newIndividual(t);
    const ready = await tronTopupReady(t, ind, '12.00');
    expect((await attention(admin)).topups_to_decide).toBe(before + 1);
    const res = await t.api('POST', '/wallet/approve-topup', {
      token: admin.token,
      body: { topup_id: ready.id, action: 'deny', reason: 'No such transfer' },
    });
    expect(res.status).toBe(200);
    expect((await attention(admin)).topups_to_decide).toBe(before);
  });
});

describe('GET /wallet/list-topups?ready=', () => {
  it('refuses a value other than true or false on its field', async () => {
    const res = await t.api('GET', '/wallet/list-topups?ready=maybe', { token: admin.token });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error)).toEqual(['ready']);
  });

  it('lists only top-ups staff can decide now', async () => {
    const res = await t.api('GET', '/wallet/list-topups?ready=true&per_page=100', { token: admin.token });
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const row of res.body.data as Array<{ method: string; state: string }>)
      expect([`${row.method}/${row.state}`]).toSatisfy(([x]: string[]) =>
        ['Tron/Hash-provided', 'Momo/MoMo processed'].includes(x!),
      );
  });
});
