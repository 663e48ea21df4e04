import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWalletTotals } from '../../server/modules/reports/totals';
import { type TestApp, startTestApp } from './support/app';
import { fundWallet } from './support/money';
import { newCompany, newIndividual, newStaff } from './support/actors';
import { walletOf } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * The staff's wallet lists over all wallets take their totals line from the per-day totals the
 * ledger trigger keeps (migration 0018); they must say what counting the movements says.
 */
describe('totals of the staff wallet lists', () => {
  it('equal a count of the wallet movements, before and after housekeeping folds them', async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    const b = await newCompany(t);
    await fundWallet(t, a.id, 500_00);
    await fundWallet(t, walletOf(b), 200_00);
    for (const amount of ['12.34', '1.00']) {
      const res = await t.api('POST', '/wallet/transfer', {
        token: a.token,
        body: { wallet_id: walletOf(b), amount, reference: 'rent' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const counted = async (kind?: string) => {
      const res = await t.ctx.db.execute(sql`
        select count(*)::text as n, coalesce(sum(abs(e.amount)), 0)::text as amount, (count(*) filter (where e.amount < 0))::text as debits
        from ledger_entries e join ledger_accounts a on a.id = e.account_id and a.kind = 'wallet' join ledger_transfers tr on tr.id = e.transfer_id
        where ${kind ? sql`tr.kind = ${kind}` : sql`true`}`);
      // node-postgres and PGlite both answer with { rows }
      return (res as unknown as { rows: Array<{ n: string; amount: string; debits: string }> }).rows[0]!;
    };
    // On PostgreSQL other test files post to the same database meanwhile; the ledger only grows,
    // so a figure must lie between a count just before and one just after (equal on PGlite).
    const between = (got: number, lo: number, hi: number) => {
      if (lo === hi) expect(got).toBe(lo);
      else expect(got >= lo && got <= hi, `${got} in [${lo}, ${hi}]`).toBe(true);
    };
    const check = async () => {
      const [a0, t0] = [await counted(), await counted('transfer')];
      const list = (await t.api('GET', '/reports/view-wallet-transactions', { token: staff.token })).body;
      const moves = (await t.api('GET', '/reports/view-wallet-transactions?type=transfer', { token: staff.token }))
        .body;
      const transfers = (await t.api('GET', '/reports/view-wallet-transfers', { token: staff.token })).body;
      const [a1, t1] = [await counted(), await counted('transfer')];
      between(list.total, Number(a0.n), Number(a1.n));
      between(Math.round(Number(list.totals.amount) * 100), Number(a0.amount), Number(a1.amount));
      between(moves.total, Number(t0.n), Number(t1.n));
      between(transfers.total, Number(t0.debits), Number(t1.debits));
      expect(transfers.total).toBeGreaterThanOrEqual(2);
    };
    await check();
    await compactWalletTotals(t.ctx.db);
    await check();
  });
});
