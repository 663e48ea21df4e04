import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ledgerEntries } from '../../server/db/schema';
import { findWallet } from '../../server/modules/ledger/accounts';
import { centsOf } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { fundWallet } from './support/money';
import { type Actor, newCompany, newIndividual } from './support/actors';
import { balanceOf, walletOf } from './support/wallet';

let t: TestApp;
/**
 * A second instance of the app on the same database: an instance posts one batch of transfers at a time,
 * so transactions meet on the same wallets in the database when two instances post at once.
 */
let t2: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  t2 = await startTestApp();
});
afterAll(async () => {
  await t2.close();
  await t.close();
});

const SLOW = 120_000;
const send = (from: Actor, to: string, amount: string, idempotencyKey?: string, via: TestApp = t) =>
  via.api('POST', '/wallet/transfer', { token: from.token, body: { wallet_id: to, amount }, idempotencyKey });
/** The i-th of many requests sent at once, through the two instances in turn. */
const either = (i: number) => (i % 2 ? t2 : t);
const cents = async (a: Actor) => centsOf(await balanceOf(t, a));

/**
 * Runs fn while watching PostgreSQL's activity: how many of this database's backends were in a
 * transaction at once, and whether any waited for a row lock. Proof that the requests really
 * reached the database concurrently. (PGlite has one connection: nothing to watch.)
 */
async function watchingDatabase<T>(fn: () => Promise<T>) {
  const url = inject('postgresUrl');
  if (!url) return { result: await fn(), maxOpen: null, lockWaits: null };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let done = false;
  let maxOpen = 0;
  let lockWaits = 0;
  const watcher = (async () => {
    while (!done) {
      const { rows } = await client.query(
        `select count(*)::int as open, count(*) filter (where wait_event_type = 'Lock')::int as waiting
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`,
      );
      maxOpen = Math.max(maxOpen, rows[0].open);
      lockWaits += rows[0].waiting;
    }
  })();
  try {
    const result = await fn();
    return { result, maxOpen, lockWaits };
  } finally {
    done = true;
    await watcher;
    await client.end();
  }
}

describe('concurrent transfers', () => {
  it('never overdraws: 200 transfers of 1.00 at once, through two instances, from a wallet holding 50.00', {
    timeout: SLOW,
  }, async () => {
    const from = await newIndividual(t);
    const to = [await newIndividual(t), await newIndividual(t), await newCompany(t), await newIndividual(t)];
    await fundWallet(t, from.id, 5_000);

    const {
      result: results,
      maxOpen,
      lockWaits,
    } = await watchingDatabase(() =>
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          send(from, walletOf(to[i % to.length]!), '1.00', undefined, either(i >> 2)),
        ),
      ),
    );
    if (maxOpen !== null) {
      expect(maxOpen).toBeGreaterThanOrEqual(2);
      expect(lockWaits).toBeGreaterThan(0);
    }

    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(r.body.error.amount).toEqual(['Insufficient balance in your master wallet']);
    }
    expect(await balanceOf(t, from)).toBe('0.00');
    const received = await Promise.all(to.map(cents));
    expect(received.reduce((s, c) => s + c, 0)).toBe(5_000);
    // each recipient got exactly the transfers answered 200 for it
    for (const [i, r] of to.entries()) {
      expect(received[i]).toBe(ok.filter((x) => x.body.data.wallet_to === walletOf(r)).length * 100);
    }

    // Every successful transfer saw a different balance: 50.00 → 49.00, …, 1.00 → 0.00.
    expect(ok.map((r) => r.body.data.balance_after).sort((x: string, y: string) => centsOf(x) - centsOf(y))).toEqual(
      Array.from({ length: 50 }, (_, i) => `${i}.00`),
    );
    const account = (await findWallet(t.ctx.db, from.id))!;
    const entries = await t.ctx.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.accountId, account.id))
      .orderBy(asc(ledgerEntries.balanceBefore));
    expect(entries).toHaveLength(51);
    const debits = entries.filter((e) => e.amount < 0).sort((x, y) => y.balanceBefore - x.balanceBefore);
    for (const [i, e] of debits.entries())
      expect([e.balanceBefore, e.balanceAfter]).toEqual([5_000 - i * 100, 4_900 - i * 100]);
  });

  it('does not deadlock when two wallets pay each other at the same moment through two instances, and conserves money', {
    timeout: SLOW,
  }, async () => {
    const a = await newIndividual(t);
    const b = await newCompany(t);
    await fundWallet(t, walletOf(a), 10_000);
    await fundWallet(t, walletOf(b), 10_000);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2
          ? send(a, walletOf(b), '3.00', undefined, either(i >> 1))
          : send(b, walletOf(a), '2.00', undefined, either(i >> 1)),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(await balanceOf(t, a)).toBe(`${100 - 30 * 3 + 30 * 2}.00`);
    expect(await balanceOf(t, b)).toBe(`${100 + 30 * 3 - 30 * 2}.00`);
  });

  it('moves money once for 50 identical requests with one Idempotency-Key', { timeout: SLOW }, async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    await fundWallet(t, from.id, 10_000);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 50 }, () => send(from, to.id, '7.00', key)));

    const done = results.filter((r) => r.status === 200);
    const original = done.filter((r) => r.headers.get('idempotent-replayed') !== 'true');
    expect(original).toHaveLength(1);
    for (const r of done) expect(r.body).toEqual(original[0]!.body);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('A request with this Idempotency-Key is still being processed.');
    }
    expect(await balanceOf(t, from)).toBe('93.00');
    expect(await balanceOf(t, to)).toBe('7.00');

    // A retry afterwards replays the same answer and still moves nothing.
    const retry = await send(from, to.id, '7.00', key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(original[0]!.body);
    expect(await balanceOf(t, from)).toBe('93.00');
  });
});
