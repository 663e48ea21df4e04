import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../server/db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../../server/db/schema';
import { PLATFORM, createWallet, findWallet } from '../../server/modules/ledger/accounts';
import { InsufficientFunds, type Leg, post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import { type TestApp, startTestApp } from './support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A fresh master wallet's ledger account (the owner id need not be a user for the ledger). */
async function newWallet() {
  const owner = crypto.randomUUID();
  await createWallet(t.ctx.db, owner);
  return (await findWallet(t.ctx.db, owner))!;
}

const postLegs = (legs: Leg[], kind = 'test') =>
  t.ctx.db.transaction((tx) => post(tx, { kind, reference: newReference('TST'), legs }));
const balance = async (id: string) =>
  (await t.ctx.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, id)))[0]!.balance;
const entriesOf = (transferId: string) =>
  t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.transferId, transferId));
const entriesOfAccount = (accountId: string) =>
  t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));

/** The database's message for a failed query (drizzle wraps the driver's error). */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return `${err.message} ${err.cause?.message ?? ''}`;
  }
  throw new Error('expected the query to fail');
}

describe('post', () => {
  it('writes one transfer whose entries sum to zero, with each balance before and after', async () => {
    const [a, b] = [await newWallet(), await newWallet()];
    const deposit = await postLegs([
      { accountId: PLATFORM.tronDeposits, amount: -10_000 },
      { accountId: a.id, amount: 9_950 },
      { accountId: PLATFORM.feeIncome, amount: 50 },
    ]);
    const moved = await postLegs([
      { accountId: a.id, amount: -2_500 },
      { accountId: b.id, amount: 2_500 },
    ]);
    expect(moved.balances.get(a.id)).toEqual({ before: 9_950, after: 7_450 });
    expect(moved.balances.get(b.id)).toEqual({ before: 0, after: 2_500 });

    for (const transferId of [deposit.transferId, moved.transferId]) {
      const entries = await entriesOf(transferId);
      expect(entries.reduce((s, e) => s + e.amount, 0)).toBe(0);
      for (const e of entries) expect(e.balanceAfter).toBe(e.balanceBefore + e.amount);
    }
    const aEntries = await entriesOfAccount(a.id);
    expect(aEntries.map((e) => [e.balanceBefore, e.amount, e.balanceAfter]).sort((x, y) => y[0]! - x[0]!)).toEqual([
      [9_950, -2_500, 7_450],
      [0, 9_950, 9_950],
    ]);
    expect(await balance(a.id)).toBe(7_450);
    expect(await balance(b.id)).toBe(2_500);
  });

  it('merges legs on the same account and keeps the transfer record', async () => {
    const [a, b] = [await newWallet(), await newWallet()];
    await postLegs([
      { accountId: PLATFORM.tronDeposits, amount: -1_000 },
      { accountId: a.id, amount: 1_000 },
    ]);
    const r = await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: 'transfer',
        reference: newReference('TST'),
        description: 'split',
        meta: { note: 'x' },
        legs: [
          { accountId: a.id, amount: -300 },
          { accountId: a.id, amount: -200 },
          { accountId: b.id, amount: 500 },
        ],
      }),
    );
    const entries = await entriesOf(r.transferId);
    expect(entries).toHaveLength(2);
    expect(entries.find((e) => e.accountId === a.id)).toMatchObject({
      amount: -500,
      balanceBefore: 1_000,
      balanceAfter: 500,
    });
    const [transfer] = await t.ctx.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, r.transferId));
    expect(transfer).toMatchObject({ kind: 'transfer', description: 'split', meta: { note: 'x' } });
  });

  it.each([
    [
      'unbalanced',
      (a: string, b: string) => [
        { accountId: a, amount: -100 },
        { accountId: b, amount: 99 },
      ],
      /does not balance/,
    ],
    [
      'a single account',
      (a: string) => [
        { accountId: a, amount: 100 },
        { accountId: a, amount: -100 },
      ],
      /needs two accounts/,
    ],
    ['one leg of zero', (a: string) => [{ accountId: a, amount: 0 }], /needs two accounts/],
    ['no legs', () => [], /needs two accounts/],
    [
      'a fraction of a cent',
      (a: string, b: string) => [
        { accountId: a, amount: -0.5 },
        { accountId: b, amount: 0.5 },
      ],
      /not an integer/,
    ],
    [
      'an unknown account',
      (a: string) => [
        { accountId: a, amount: 100 },
        { accountId: crypto.randomUUID(), amount: -100 },
      ],
      /unknown account/,
    ],
  ])('refuses %s and writes nothing', async (_what, legs, message) => {
    const [a, b] = [await newWallet(), await newWallet()];
    await expect(postLegs((legs as (a: string, b: string) => Leg[])(a.id, b.id))).rejects.toThrow(message);
    expect(await entriesOfAccount(a.id)).toHaveLength(0);
    expect(await balance(a.id)).toBe(0);
  });

  it('never takes a wallet below zero (InsufficientFunds), and undoes the whole transaction', async () => {
    const [a, b] = [await newWallet(), await newWallet()];
    await postLegs([
      { accountId: PLATFORM.momoDeposits, amount: -500 },
      { accountId: a.id, amount: 500 },
    ]);
    const attempt = t.ctx.db.transaction(async (tx: Tx) => {
      await post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: a.id, amount: -200 },
          { accountId: b.id, amount: 200 },
        ],
      });
      await post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: a.id, amount: -301 },
          { accountId: b.id, amount: 301 },
        ],
      });
    });
    const err = await attempt.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientFunds);
    expect((err as InsufficientFunds).accountId).toBe(a.id);
    expect((err as InsufficientFunds).status).toBe(422);
    // the first posting of the same transaction is gone too
    expect(await balance(a.id)).toBe(500);
    expect(await balance(b.id)).toBe(0);
    expect(await entriesOfAccount(b.id)).toHaveLength(0);
    // exactly the balance is fine
    await postLegs([
      { accountId: a.id, amount: -500 },
      { accountId: b.id, amount: 500 },
    ]);
    expect(await balance(a.id)).toBe(0);
  });

  it('lets the outside-world accounts go negative, but not fee income', async () => {
    const a = await newWallet();
    const r = await postLegs([
      { accountId: PLATFORM.tronDeposits, amount: -123_456 },
      { accountId: a.id, amount: 123_456 },
    ]);
    const tron = r.balances.get(PLATFORM.tronDeposits)!;
    expect(tron.after).toBe(tron.before - 123_456);
    const [tronRow] = await t.ctx.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, PLATFORM.tronDeposits));
    expect(tronRow).toMatchObject({ kind: 'tron_deposits', allowNegative: true });

    const drained = t.ctx.db.transaction(async (tx) => {
      const [fee] = await tx
        .select()
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.id, PLATFORM.feeIncome))
        .for('update');
      await post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: PLATFORM.feeIncome, amount: -(fee!.balance + 1) },
          { accountId: a.id, amount: fee!.balance + 1 },
        ],
      });
    });
    await expect(drained).rejects.toBeInstanceOf(InsufficientFunds);
    expect(await balance(a.id)).toBe(123_456);
  });
});

describe('the database itself', () => {
  it('refuses to change or delete ledger entries and transfers', async () => {
    const a = await newWallet();
    const r = await postLegs([
      { accountId: PLATFORM.tronDeposits, amount: -700 },
      { accountId: a.id, amount: 700 },
    ]);
    const db = t.ctx.db;
    expect(
      await failure(db.update(ledgerEntries).set({ amount: 70_000 }).where(eq(ledgerEntries.transferId, r.transferId))),
    ).toMatch(/ledger ledger_entries rows are immutable/);
    expect(await failure(db.delete(ledgerEntries).where(eq(ledgerEntries.transferId, r.transferId)))).toMatch(
      /ledger ledger_entries rows are immutable/,
    );
    expect(
      await failure(db.update(ledgerTransfers).set({ kind: 'gift' }).where(eq(ledgerTransfers.id, r.transferId))),
    ).toMatch(/ledger ledger_transfers rows are immutable/);
    expect(await failure(db.delete(ledgerTransfers).where(eq(ledgerTransfers.id, r.transferId)))).toMatch(
      /ledger ledger_transfers rows are immutable/,
    );
    expect(
      await failure(
        db.execute(sql`update ledger_entries set balance_after = balance_after where transfer_id = ${r.transferId}`),
      ),
    ).toMatch(/immutable/);
    const entries = await entriesOf(r.transferId);
    expect(entries.map((e) => e.amount).sort((x, y) => x - y)).toEqual([-700, 700]);
    expect(await balance(a.id)).toBe(700);
  });

  it('refuses a wallet balance below zero and an entry whose arithmetic is wrong', async () => {
    const a = await newWallet();
    expect(
      await failure(t.ctx.db.update(ledgerAccounts).set({ balance: -1 }).where(eq(ledgerAccounts.id, a.id))),
    ).toMatch(/ledger_accounts_non_negative/);
    // inside a transaction that fails, so no transfer without entries is left behind
    const entry = (amount: number, balanceAfter: number) =>
      t.ctx.db.transaction(async (tx) => {
        const transferId = crypto.randomUUID();
        await tx.insert(ledgerTransfers).values({ id: transferId, kind: 'test', reference: newReference('TST') });
        await tx
          .insert(ledgerEntries)
          .values({ id: crypto.randomUUID(), transferId, accountId: a.id, amount, balanceBefore: 0, balanceAfter });
      });
    expect(await failure(entry(100, 101))).toMatch(/ledger_entries_arithmetic/);
    expect(await failure(entry(0, 0))).toMatch(/ledger_entries_nonzero/);
    expect(await entriesOfAccount(a.id)).toHaveLength(0);
  });

  it('has one wallet per owner, and the platform accounts', async () => {
    const owner = crypto.randomUUID();
    await createWallet(t.ctx.db, owner);
    await createWallet(t.ctx.db, owner);
    expect(await t.ctx.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, owner))).toHaveLength(1);
    const platform = new Map(
      (await t.ctx.db.select().from(ledgerAccounts).where(sql`${ledgerAccounts.ownerId} is null`)).map((p) => [
        p.id,
        [p.kind, p.allowNegative],
      ]),
    );
    expect(platform.get(PLATFORM.feeIncome)).toEqual(['fee_income', false]);
    expect(platform.get(PLATFORM.tronDeposits)).toEqual(['tron_deposits', true]);
    expect(platform.get(PLATFORM.momoDeposits)).toEqual(['momo_deposits', true]);
    expect(platform.get(PLATFORM.cardIssuer)).toEqual(['card_issuer', true]);
    expect(platform.get(PLATFORM.forfeited)).toEqual(['forfeited', false]);
  });
});
