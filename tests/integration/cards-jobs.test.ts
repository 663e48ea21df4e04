import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cardTransactions, ledgerEntries, ledgerTransfers } from '../../server/db/schema';
import { cardMaintenance } from '../../server/jobs/card-jobs';
import { runJob } from '../../server/jobs/runner';
import { PLATFORM } from '../../server/modules/ledger/accounts';
import { type TestApp, startTestApp } from './support/app';
import { describeOnPostgres } from './support/postgres-only';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';
import {
  cardLedger,
  charge,
  issuerBalance,
  newCard,
  relogin,
  setClock,
  verifyAccount,
  walletCents,
} from './support/cards';
import { fundWallet } from './support/money';

/**
 * The jobs act on every card of the database, and on PostgreSQL all test files share one. This
 * file lives in 2025 (its cards are the only ones created before the periods it charges), and
 * each test uses periods no other test uses.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  setClock(t, '2025-02-10T12:00:00Z');
});
afterAll(() => t.close());

const SLOW = 120_000;

async function history(who: Actor, cardId: string) {
  const res = await t.api('GET', `/reports/view-cards-transactions?card=${cardId}`, { token: who.token });
  expect(res.status).toBe(200);
  return res.body.data as { kind: string; status: string; amount: string; description: string }[];
}

/** The legs of the ledger transfer behind a card movement, by account. */
async function legsOf(cardId: string, kind: string) {
  const [mv] = await t.ctx.db
    .select()
    .from(cardTransactions)
    .where(and(eq(cardTransactions.cardId, cardId), eq(cardTransactions.kind, kind)));
  const entries = await t.ctx.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.transferId, mv!.ledgerTransferId!));
  return Object.fromEntries(entries.map((e) => [e.accountId, e.amount]));
}

const maintenanceTransfers = (period: string, cardId: string) =>
  t.ctx.db
    .select()
    .from(ledgerTransfers)
    .where(eq(ledgerTransfers.reference, `MNT-${period}-${cardId}`));

describe('card-maintenance', () => {
  it('charges 2.00 a month to each Active card created before the month, once; never below zero', {
    timeout: SLOW,
  }, async () => {
    const a = await newIndividual(t);
    await verifyAccount(t, a); // seven cards
    await fundWallet(t, a.id, 100_000);
    const make = async (over: Record<string, unknown>) =>
      (await newCard(t, a, { purpose: 'general', card_amount: '50.00', ...over })).card;
    const active = await make({});
    const basic = await make({ type: 'basic', card_amount: '10.00' });
    const frozen = await make({});
    const deleted = await make({});
    const low = await make({ card_amount: '3.00' });
    const empty = await make({ card_amount: '3.00' });
    expect(
      (await t.api('POST', `/cards/change-status/${frozen.id}`, { token: a.token, body: { status: 'deactivate' } }))
        .status,
    ).toBe(202);
    expect((await t.api('DELETE', `/cards/${deleted.id}`, { token: a.token })).status).toBe(202);
    expect(
      (await t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card: low.id, amount: '1.48' } })).status,
    ).toBe(200);
    expect(
      (await t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card: empty.id, amount: '3.00' } }))
        .status,
    ).toBe(200);
    expect(await cardLedger(t, low.id)).toEqual({ available: 152, held: 0 });

    setClock(t, '2025-03-02T01:00:00Z');
    await relogin(t, a);
    const fresh = await make({ nickname: 'Made in March' });
    const wallet = await walletCents(t, a);

    const first = await runJob(t.ctx, cardMaintenance, '2025-03');
    expect(first.ran).toBe(true);
    const expected: [{ id: string }, number][] = [
      [active, 4_800],
      [basic, 800],
      [frozen, 5_000],
      [deleted, 0],
      [low, 0],
      [empty, 0],
      [fresh, 5_000],
    ];
    const check = async () => {
      for (const [card, cents] of expected) {
        expect((await cardLedger(t, card.id)).available, card.id).toBe(cents);
        expect(await issuerBalance(t, card.id), card.id).toBe(cents);
      }
    };
    await check();
    expect(await walletCents(t, a)).toBe(wallet); // paid from the cards, not the wallet
    for (const card of [frozen, deleted, empty, fresh])
      expect(await maintenanceTransfers('2025-03', card.id), card.id).toHaveLength(0);

    // the same period again: by the runner, or the job's own work repeated after a crash
    expect(await runJob(t.ctx, cardMaintenance, '2025-03')).toMatchObject({ ran: false });
    await cardMaintenance.run(t.ctx, '2025-03');
    await check();
    expect(await maintenanceTransfers('2025-03', active.id)).toHaveLength(1);

    // the card's history and the back-office sums show it; the fee goes to fee income
    expect((await history(a, active.id))[0]).toMatchObject({
      kind: 'maintenance',
      status: 'completed',
      amount: '2.00',
    });
    expect((await history(a, low.id))[0]).toMatchObject({ kind: 'maintenance', amount: '1.52' });
    expect(await legsOf(active.id, 'maintenance')).toMatchObject({ [PLATFORM.feeIncome]: 200 });
    const staff = await newStaff(t);
    const sums = (await t.api('GET', `/cards/${active.id}`, { token: staff.token })).body.data.additional_data;
    // fees: 5.00 issuance + 0.75 load + 0.50 flat, then 2.00 maintenance
    expect(sums).toMatchObject({ total_maintenance: '2.00', available: '48.00', total_fees: '8.25' });
  });

  it('charges once when two runs start at the same time', async () => {
    setClock(t, '2025-03-20T12:00:00Z');
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 10_000);
    const { card } = await newCard(t, a, { card_amount: '20.00' });
    setClock(t, '2025-04-01T00:05:00Z');
    const runs = await Promise.all([
      runJob(t.ctx, cardMaintenance, '2025-04'),
      runJob(t.ctx, cardMaintenance, '2025-04'),
    ]);
    expect(runs.map((r) => r.ran).sort()).toEqual([false, true]);
    expect(await cardLedger(t, card.id)).toEqual({ available: 1_800, held: 0 });
    expect(await issuerBalance(t, card.id)).toBe(1_800);
    expect(await maintenanceTransfers('2025-04', card.id)).toHaveLength(1);
  });

  it("charges a company's own maintenance fee, and nothing while that fee is inactive", async () => {
    setClock(t, '2025-04-10T12:00:00Z');
    const sa = await newStaff(t, 'Super-Admin');
    const [free, dear, person] = [await newCompany(t), await newCompany(t), await newIndividual(t)];
    const base = (
      (await t.api('GET', '/fees?for=default&per_page=100', { token: sa.token })).body.data as {
        id: string;
        name: string;
      }[]
    ).find((f) => f.name === 'card-maintenance')!;
    expect(
      (
        await t.api('PUT', `/fees/${base.id}`, {
          token: sa.token,
          body: { value: '2.00', status: 0, for: 'company', for_id: free.companyId },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.api('PUT', `/fees/${base.id}`, {
          token: sa.token,
          body: { value: '3.00', for: 'company', for_id: dear.companyId },
        })
      ).status,
    ).toBe(200);
    const cards: string[] = [];
    for (const who of [free, dear, person]) {
      await fundWallet(t, who.companyId ?? who.id, 10_000);
      cards.push((await newCard(t, who, { card_amount: '20.00' })).card.id);
    }
    setClock(t, '2025-05-01T00:05:00Z');
    expect((await runJob(t.ctx, cardMaintenance, '2025-05')).ran).toBe(true);
    const after = await Promise.all(cards.map(async (id) => (await cardLedger(t, id)).available));
    expect(after).toEqual([2_000, 1_700, 1_800]);
  });
});

const postgresUrl = inject('postgresUrl');

/** Runs the operator CLI against the test database, as an operator would. */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        DATABASE_URL: postgresUrl,
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cw-cli-')),
        ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('hex'),
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describeOnPostgres('the CLI (the embedded database belongs to the test process)', () => {
  it('runs card-maintenance for a period once, and simulates a payment', { timeout: SLOW }, async () => {
    setClock(t, '2025-12-15T12:00:00Z');
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 10_000);
    const { card: december } = await newCard(t, a, { card_amount: '20.00' });

    const run = await cli(['run-job', 'card-maintenance', '--period', '2026-01']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    // The database is shared with other files, whose cards may be out of step with the issuer on
    // purpose (reconciliation tests): the job logs those and goes on; its summary is the last line.
    expect(run.out).toMatch(/^card-maintenance 2026-01: \{.*"charged":\d+/m);
    expect(await cardLedger(t, december.id)).toEqual({ available: 1_800, held: 0 });
    expect(await issuerBalance(t, december.id)).toBe(1_800);
    const again = await cli(['run-job', 'card-maintenance', '--period', '2026-01']);
    expect(again.out).toContain('not run');
    expect(await cardLedger(t, december.id)).toEqual({ available: 1_800, held: 0 });

    // The CLI pays with the real clock: a card of today, not one from the past.
    setClock(t, new Date(Date.now()));
    await relogin(t, a);
    await relogin(t, staff);
    setClock(t, new Date(Date.now()));
    const { card } = await newCard(t, a, { card_amount: '20.00' });
    const pay = await cli(['simulate-transaction', '--card', card.id, '--amount', '5', '--merchant', 'Test']);
    expect(pay.code).toBe(0);
    expect(pay.out).toMatch(/^Approved: 5 USD at Test \(transaction [0-9a-f-]{36}\)/);
    expect(await cardLedger(t, card.id)).toEqual({ available: 1_500, held: 500 });
    const settled = await cli([
      'simulate-transaction',
      '--card',
      card.id,
      '--amount',
      '2.50',
      '--merchant',
      'Test',
      '--then',
      'settle',
    ]);
    expect(settled.out).toContain('then settled');
    const declined = await cli(['simulate-transaction', '--card', card.id, '--amount', '100', '--merchant', 'Test']);
    expect(declined.out).toContain('Declined: Insufficient funds on the card.');
    expect(await cardLedger(t, card.id)).toEqual({ available: 1_250, held: 500 });
    const rows = (await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: a.token })).body.data;
    // Newest first: the decline, the clearing (a row of its own since issue 32), the payment it settled, the one held.
    expect(
      rows.slice(0, 4).map((r: { kind: string; status: string; merchant: string }) => [r.kind, r.status, r.merchant]),
    ).toEqual([
      ['authorization', 'declined', 'Test'],
      ['clearing', 'completed', 'Test'],
      ['authorization', 'settled', 'Test'],
      ['authorization', 'approved', 'Test'],
    ]);
    const bad = await cli(['simulate-transaction', '--card', 'nope', '--amount', '5']);
    expect(bad.code).toBe(2);
    expect((await charge(t, staff, card.id, '1.00')).body.data.approved).toBe(true);
  });
});
