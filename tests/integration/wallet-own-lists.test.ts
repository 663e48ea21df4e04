import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import { type TestApp, startTestApp } from './support/app';
import { newIndividual } from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const START = Date.parse('2024-03-10T00:00:00.000Z');

/**
 * One wallet's own lists take their totals line and a page's starting day from the per-wallet totals per day that
 * the ledger trigger keeps (migration 0049): every page, filter and total must be what reading the entries says.
 */
describe("one wallet's own lists", () => {
  it('page, filter and total as the ledger says, on every page and at the edges of days', async () => {
    const a = await newIndividual(t);
    const wallet = (await findWallet(t.ctx.db, a.id))!;
    // 31 movements over 7 days (some at midnight and the last millisecond of a day), of three kinds.
    const kinds = ['deposit', 'deposit', 'issuance', 'topup', 'deposit'];
    for (let i = 0; i < 31; i++) {
      const kind = kinds[i % kinds.length]!;
      const offsets = [0, DAY - 1, 3_600_000, 12 * 3_600_000];
      const at = new Date(START + Math.floor(i / 5) * DAY + offsets[i % offsets.length]!);
      const amount = kind === 'deposit' ? 50_00 + i : -(1_00 + i);
      const other = kind === 'deposit' ? PLATFORM.tronDeposits : PLATFORM.feeIncome;
      await t.ctx.db.transaction((tx) =>
        post(tx, {
          kind,
          reference: newReference('TST'),
          description: 'Own lists test',
          meta: { fees_total: i % 3 },
          at,
          legs: [
            { accountId: other, amount: -amount },
            { accountId: wallet.id, amount },
          ],
        }),
      );
    }
    const expected = async (where: ReturnType<typeof sql>) => {
      const res = await t.ctx.db.execute(sql`
        select e.id, abs(e.amount)::text as amount, coalesce((tr.meta->>'fees_total')::bigint, 0)::text as fees
        from ledger_entries e join ledger_transfers tr on tr.id = e.transfer_id
        where e.account_id = ${wallet.id} and ${where}
        order by e.created_at desc, e.id desc`);
      return (res as unknown as { rows: Array<{ id: string; amount: string; fees: string }> }).rows;
    };
    const cents = (s: string) => Math.round(Number(s) * 100);
    const cases: Array<[string, ReturnType<typeof sql>]> = [
      ['', sql`true`],
      ['&start_date=2024-03-11&end_date=2024-03-13', sql`e.created_at >= '2024-03-11' and e.created_at < '2024-03-14'`],
      ['&type=deposit', sql`tr.kind = 'deposit'`],
      // a range that cannot end at midnight (the last instant the database holds): counted, paged by offset
      ['&start_date=2024-03-12&end_date=9999-12-31', sql`e.created_at >= '2024-03-12'`],
      ['&card_only=true', sql`tr.kind in ('issuance', 'topup', 'withdraw', 'refund')`],
      [
        '&card_only=true&start_date=2024-03-12&end_date=2024-03-16',
        sql`tr.kind in ('issuance', 'topup', 'withdraw', 'refund') and e.created_at >= '2024-03-12' and e.created_at < '2024-03-17'`,
      ],
    ];
    for (const [query, where] of cases) {
      const want = await expected(where);
      const got: string[] = [];
      for (let page = 1; page <= Math.ceil(want.length / 4) + 1; page++) {
        const res = await t.api(
          'GET',
          `/reports/view-wallet-transactions?wallet=${a.id}&per_page=4&page=${page}${query}`,
          {
            token: a.token,
          },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.total, query).toBe(want.length);
        expect(cents(res.body.totals.amount), query).toBe(want.reduce((s, r) => s + Number(r.amount), 0));
        expect(cents(res.body.totals.fees), query).toBe(want.reduce((s, r) => s + Number(r.fees), 0));
        got.push(...res.body.data.map((r: { id: string }) => r.id));
      }
      expect(got, query).toEqual(want.map((r) => r.id));
    }
    // The wallet-to-wallet list of the wallet: none here, on any page.
    const transfers = await t.api('GET', `/reports/view-wallet-transfers?wallet=${a.id}&page=3`, { token: a.token });
    expect(transfers.status).toBe(200);
    expect(transfers.body.total).toBe(0);
    expect(transfers.body.data).toEqual([]);
  });
});
