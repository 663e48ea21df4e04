import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newIndividual } from './support/actors';
import { fundWallet } from './support/money';
import { balanceOf, walletOf } from './support/wallet';

/**
 * Transfers that reach one instance together are posted in one transaction (cw_transfer_batch),
 * each as if alone: what a caller sees is unchanged. (On PostgreSQL these requests form batches; on
 * PGlite, whose one connection serialises every request's queries, they mostly go alone. How batches
 * form is tests/unit/transfer-batch.test.ts.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const send = (from: Actor, to: string, amount: string) =>
  t.api('POST', '/wallet/transfer', { token: from.token, body: { wallet_id: to, amount } });

describe('transfers arriving together', () => {
  it('are each answered and posted as they would be alone', async () => {
    const from = await newIndividual(t);
    const to = [await newIndividual(t), await newCompany(t)];
    await fundWallet(t, from.id, 10_000);
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => send(from, walletOf(to[i % 2]!), '1.25')));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await balanceOf(t, from)).toBe('70.00');
    expect(await balanceOf(t, to[0]!)).toBe('15.00');
    expect(await balanceOf(t, to[1]!)).toBe('15.00');
    // Each answer names its own transfer and the balance it left, one step of 1.25 apart from the others.
    const after = results.map((r) => Number(r.body.data.balance_after)).sort((a, b) => b - a);
    expect(after).toEqual(Array.from({ length: 24 }, (_, i) => 100 - 1.25 * (i + 1)));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(24);
  });

  it('refuses only the transfers the balance cannot pay, and keeps the others of the same commit', async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    await fundWallet(t, from.id, 1_000);
    const results = await Promise.all(Array.from({ length: 12 }, () => send(from, to.id, '3.00')));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(r.body.error).toEqual({ amount: ['Insufficient balance in your master wallet'] });
    }
    expect(await balanceOf(t, from)).toBe('1.00');
    expect(await balanceOf(t, to)).toBe('9.00');
  });

  it('refuses a transfer to no wallet without touching the others sent with it', async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    await fundWallet(t, from.id, 5_000);
    const nowhere = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(from, i % 3 === 1 ? nowhere : to.id, '2.00')),
    );
    for (const [i, r] of results.entries()) {
      if (i % 3 === 1) {
        expect(r.status).toBe(422);
        expect(r.body.error).toEqual({ wallet_id: ['No master wallet has this id'] });
      } else expect(r.status).toBe(200);
    }
    expect(await balanceOf(t, from)).toBe('36.00');
    expect(await balanceOf(t, to)).toBe('14.00');
  });
});
