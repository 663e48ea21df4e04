import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '@shared/contract';
import { PLATFORM, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import { sendDueMail } from '../../server/modules/notifications/mail';
import { type Actor, mailsTo, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { charge, expectLedgerConsistent, newCard, rows, verifyAccount } from './support/cards';
import { fundWallet } from './support/money';

/**
 * Balance alerts (issue 36): GET/POST/DELETE /balance-monitors for Super-Admins and Finance. A monitor alerts once
 * when a posting takes its account's balance below the threshold (a balance_low notification and its mail to every
 * Super-Admin and Finance member, a balance.low event in the audit trail), and arms again once the balance is back
 * at or above it. The decision is the ledger trigger's, under the monitor's row lock: on PostgreSQL the 100 postings
 * below really run at once (a pool of 10), and still exactly one alert per crossing.
 */

let t: TestApp;
const staff = {} as Record<StaffRole, Actor>;
let owner: Actor;
let payee: Actor;

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ['Super-Admin', 'Finance', 'Admin', 'Support', 'Auditor', 'Compliance'] as const)
    staff[role] = await newStaff(t, role);
  owner = await newIndividual(t);
  payee = await newIndividual(t);
  await verifyAccount(t, owner);
  await verifyAccount(t, payee);
});
afterAll(() => t.close());

const add = (body: unknown, as: Actor = staff.Finance) =>
  t.api('POST', '/balance-monitors', { token: as.token, body, idempotencyKey: randomUUID() });
const list = async () => (await t.api('GET', '/balance-monitors', { token: staff.Finance.token })).body.data as any[];
const monitor = async (id: string) => (await list()).find((m) => m.id === id);

/** Debits (or credits) the wallet straight through post(), one transaction each. */
const move = (walletAccount: string, cents: number) =>
  t.ctx.db.transaction((tx) =>
    post(tx, {
      kind: cents < 0 ? 'withdraw' : 'deposit',
      reference: newReference('TST'),
      meta: { fees_total: 0 },
      legs: [
        { accountId: walletAccount, amount: cents },
        { accountId: PLATFORM.tronDeposits, amount: -cents },
      ],
    }),
  );

const alertsOf = async (id: string, userId: string) =>
  rows(
    t,
    sql`select event_key, mail_state, title, body from notifications
         where user_id = ${userId}::uuid and type = 'balance_low' and event_key like ${`balance-monitor:${id}:%`}
         order by event_key`,
  );
const eventsOf = async (id: string) =>
  rows(t, sql`select details from audit_log where action = 'balance.low' and object_id = ${id} order by created_at`);

describe('who may use the balance alerts', () => {
  it('Super-Admins and Finance list, add and delete; every other role and customers are refused', async () => {
    for (const role of ['Super-Admin', 'Finance'] as const) {
      const a = staff[role];
      expect((await t.api('GET', '/balance-monitors', { token: a.token })).status).toBe(200);
      const m = await add({ account: 'master:tokencard', below: '10.00' }, a);
      expect(m.status).toBe(201);
      const del = await t.api('DELETE', `/balance-monitors/${m.body.data.id}`, { token: a.token });
      expect(del.status).toBe(200);
    }
    const ids = [await add({ account: 'fees', below: '1.00' })].map((r) => r.body.data.id);
    for (const a of [staff.Admin, staff.Support, staff.Auditor, staff.Compliance, owner]) {
      expect((await t.api('GET', '/balance-monitors', { token: a.token })).status).toBe(403);
      expect((await add({ account: 'master:general', below: '1.00' }, a)).status).toBe(403);
      expect((await t.api('DELETE', `/balance-monitors/${ids[0]}`, { token: a.token })).status).toBe(403);
    }
    expect((await t.api('DELETE', `/balance-monitors/${ids[0]}`, { token: staff.Finance.token })).status).toBe(200);
  });
});

describe('bad input', () => {
  it('names the field, for every field', async () => {
    const none = await add({});
    expect(none.status).toBe(422);
    expect(none.body.error).toEqual({ account: ['Account is required'], below: ['Threshold is required'] });
    for (const account of ['master:nope', 'wallet', 'x'.repeat(80), 42, '   ']) {
      const r = await add({ account, below: '5.00' });
      expect(r.status, String(account)).toBe(422);
      expect(Object.keys(r.body.error)).toEqual(['account']);
    }
    for (const [below, message] of [
      ['-5', 'The amount must be more than zero'],
      ['0', 'The amount must be more than zero'],
      ['abc', 'Enter an amount such as 25.00'],
      ['1.234', 'Use at most 2 decimal places'],
    ]) {
      const r = await add({ account: 'fees', below });
      expect(r.status, below).toBe(422);
      expect(r.body.error).toEqual({ below: [message] });
    }
    const stranger = await add({ account: randomUUID(), below: '5.00' });
    expect(stranger.status).toBe(422);
    expect(stranger.body.error).toEqual({ account: ['No wallet has this id'] });
    expect((await t.api('DELETE', `/balance-monitors/${randomUUID()}`, { token: staff.Finance.token })).status).toBe(
      404,
    );
  });

  it('takes one monitor per account', async () => {
    const first = await add({ account: payee.id, below: '5.00' });
    expect(first.status).toBe(201);
    expect((await add({ account: payee.id.toUpperCase(), below: '9.00' })).status).toBe(409);
    await t.api('DELETE', `/balance-monitors/${first.body.data.id}`, { token: staff.Finance.token });
  });
});

describe('alerting', () => {
  it('alerts exactly once per crossing under 100 concurrent postings, arms again above, alerts again', async () => {
    const wallet = (await findWallet(t.ctx.db, owner.id))!;
    await fundWallet(t, owner.id, 10_000);
    const created = await add({ account: owner.id, below: '50.00' });
    expect(created.status).toBe(201);
    const m = created.body.data;
    expect(m).toMatchObject({ account: owner.id, balance: '100.00', below: '50.00', state: 'armed', crossings: 0 });
    expect(m.label).toContain('The wallet of');

    // 100.00 → 0.00 in 100 postings at once: it crosses 50.00 once.
    await Promise.all(Array.from({ length: 100 }, () => move(wallet.id, -100)));
    expect(await monitor(m.id)).toMatchObject({ balance: '0.00', state: 'below', crossings: 1 });
    for (const who of [staff.Finance, staff['Super-Admin']]) {
      const got = await alertsOf(m.id, who.id);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ event_key: `balance-monitor:${m.id}:low:1`, mail_state: 'pending' });
      expect(String(got[0]!.body)).toMatch(/^The wallet of .* is at USDT \d+\.\d\d, below the alert at USDT 50\.00\./);
    }
    for (const who of [staff.Admin, staff.Support, staff.Auditor]) expect(await alertsOf(m.id, who.id)).toEqual([]);
    expect(await eventsOf(m.id)).toHaveLength(1);
    // the alert's mail
    await sendDueMail(t.ctx, { userIds: [staff.Finance.id] });
    expect(mailsTo(t, staff.Finance.email).some((x) => /below its alert/.test(x.subject))).toBe(true);

    // Below, more postings in and out below the threshold do not alert again.
    await move(wallet.id, 1_000);
    await Promise.all(Array.from({ length: 20 }, (_x, i) => move(wallet.id, i % 2 ? -100 : 100)));
    expect(await monitor(m.id)).toMatchObject({ balance: '10.00', crossings: 1 });

    // Back at the threshold: armed again, no alert.
    await move(wallet.id, 4_000);
    expect(await monitor(m.id)).toMatchObject({ balance: '50.00', state: 'armed', crossings: 1 });

    // Transfers through the batch path (cw_transfer_batch), 100 at once: the next crossing alerts once more.
    await move(wallet.id, 1_000);
    const sent = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.api('POST', '/wallet/transfer', {
          token: owner.token,
          body: { wallet_id: payee.id, amount: '0.25' },
          idempotencyKey: randomUUID(),
        }),
      ),
    );
    expect(sent.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    const after = await monitor(m.id);
    expect(after).toMatchObject({ state: 'below', crossings: 2 });
    expect(await alertsOf(m.id, staff.Finance.id)).toHaveLength(2);
    expect(await eventsOf(m.id)).toHaveLength(2);
    const [{ balance }] = (await rows(t, sql`select balance from ledger_accounts where id = ${wallet.id}::uuid`)) as [
      { balance: string },
    ];
    expect(after.balance).toBe((Number(balance) / 100).toFixed(2));
    await expectLedgerConsistent(t, expect);
  });

  it('watches a master balance: every card of the purpose, the card payment path included', async () => {
    const holder = await newIndividual(t);
    await verifyAccount(t, holder);
    await fundWallet(t, holder.id, 100_000);
    const card = (await newCard(t, holder, { purpose: 'general', card_amount: '100.00' })).card;
    const created = await add({ account: 'master:general', below: '1.00' });
    expect(created.status).toBe(201);
    const m = created.body.data;
    expect(m).toMatchObject({ currency: 'USD', label: 'The Mastercard master balance (general)' });
    // The threshold just under the total: a payment of 2.00 on our card crosses it (the one-call approval path).
    const total = Math.round(Number(m.balance) * 100);
    await t.ctx.db.execute(sql`update balance_monitors set below = ${total - 100} where id = ${m.id}::uuid`);
    const paid = await charge(t, staff['Super-Admin'], card.id, '2.00');
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.approved).toBe(true);
    expect(await monitor(m.id)).toMatchObject({ state: 'below' });
    expect((await monitor(m.id)).crossings).toBeGreaterThanOrEqual(1);
    // A card created after the monitor is watched too, and the kept total is the cards' sum in one snapshot.
    await newCard(t, holder, { purpose: 'general', card_amount: '10.00' });
    const [check] = (await t.ctx.db.transaction(
      async (tx) =>
        (
          (await tx.execute(sql`select m.balance::text as kept,
                (select coalesce(sum(a.balance), 0) from ledger_accounts a join cards c on c.id = a.owner_id
                  where a.kind = 'card' and c.purpose = 'general')::text as summed,
                (select bool_and(a.monitored) from ledger_accounts a join cards c on c.id = a.owner_id
                  where a.kind = 'card' and c.purpose = 'general') as all_marked
              from balance_monitors m where m.id = ${m.id}::uuid`)) as unknown as { rows: unknown[] }
        ).rows,
      { isolationLevel: 'repeatable read' },
    )) as [{ kept: string; summed: string; all_marked: boolean }];
    expect(check.kept).toBe(check.summed);
    expect(check.all_marked).toBe(true);
    // Deleted: its accounts are no longer marked.
    expect((await t.api('DELETE', `/balance-monitors/${m.id}`, { token: staff.Finance.token })).status).toBe(200);
    const marked = await rows(
      t,
      sql`select a.id from ledger_accounts a join cards c on c.id = a.owner_id
           where a.kind = 'card' and c.purpose = 'general' and a.monitored`,
    );
    expect(marked).toEqual([]);
  });

  it('starts as below without alerting when the account already is; the fee account too', async () => {
    const created = await add({ account: 'fees', below: '99999999.00' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      state: 'below',
      crossings: 0,
      label: 'The fee account',
      currency: 'USDT',
    });
    expect(await eventsOf(created.body.data.id)).toEqual([]);
    await t.api('DELETE', `/balance-monitors/${created.body.data.id}`, { token: staff.Finance.token });
  });
});
