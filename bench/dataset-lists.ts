/**
 * The rows of the lists issue 35 names that bench/dataset.ts does not load: chain deposits (N/20), card disputes
 * (N/100, each of its own payment) and notifications (N/10, a tenth of them the busiest individual's, wallet 1).
 */
import { sql } from 'drizzle-orm';
import { BASE_MS, type DatasetSize, ownerOf, stepOf, uuidOf } from './dataset';
import { type BenchApp, inBatches } from './support';

export interface ListRows {
  chainDeposits: number;
  disputes: number;
  notifications: number;
}

export const listRowsOf = (n: number): ListRows => ({
  chainDeposits: Math.max(10, Math.floor(n / 20)),
  disputes: Math.max(10, Math.floor(n / 100)),
  notifications: Math.max(10, Math.floor(n / 10)),
});

const atOf = (i: string, n: number) =>
  `'${new Date(BASE_MS).toISOString()}'::timestamptz + (${i}) * interval '${stepOf(n)} milliseconds'`;

export async function loadListRows(t: BenchApp, s: DatasetSize, rows: ListRows, batch: number): Promise<void> {
  const exec = (text: string) => t.ctx.db.execute(sql.raw(text));
  const W = s.wallets;
  // Deposits to wallets' addresses, nearly all credited; one in twenty unassigned, for staff to decide.
  await inBatches(rows.chainDeposits, batch, 'chain deposits', async (from, to) => {
    await exec(`
      insert into chain_deposits (id, hash, log_index, to_address, from_address, amount_micro, amount, block_number, block_time,
                                  status, reason, wallet_id, created_at, updated_at)
      select ${uuidOf('chain-deposit', 'i')}, md5('bench-hash-' || i), 0, 'TBenchTo' || (i % ${W}), 'TBenchFrom' || i,
             (1000 + i % 90000) * 10000, 1000 + i % 90000, 50000000 + i, at,
             (array['Credited', 'Credited', 'Credited', 'Credited', 'Credited', 'Credited', 'Credited', 'Credited',
                    'Credited', 'Credited', 'Credited', 'Credited', 'Credited', 'Credited', 'Credited', 'Credited',
                    'Credited', 'Assigned', 'Returned', 'Unassigned'])[1 + i % 20],
             case when i % 20 = 19 then 'no-wallet' end, case when i % 20 < 18 then ${ownerOf(`i % ${W}`)} end, at, at
      from (select i, ${atOf('i', rows.chainDeposits)} as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
  });
  // Disputes of card payments (payment 20 d, on card 20 d % cards), in every state and for every reason.
  await inBatches(rows.disputes, batch, 'card disputes', async (from, to) => {
    await exec(`
      insert into card_disputes (id, card_id, transaction_id, wallet_id, reason, amount, explanation, state, created_by,
                                 created_at, updated_at)
      select ${uuidOf('dispute', 'd')}, ${uuidOf('card', `(d * 20) % ${s.cards}`)}, ${uuidOf('card-tx', 'd * 20')},
             ${ownerOf(`((d * 20) % ${s.cards}) % ${W}`)},
             (array['fraudulent', 'not_received', 'duplicate', 'canceled', 'not_as_described', 'incorrect_amount', 'other'])[1 + d % 7],
             100 + d % 5000, 'Bench dispute', (array['submitted', 'under_review', 'won', 'lost', 'withdrawn'])[1 + d % 5],
             ${uuidOf('user', `((d * 20) % ${s.cards}) % ${W}`)}, at, at
      from (select d, ${atOf('d', rows.disputes)} as at from generate_series(${from - 1}, ${to - 1}) as g(d)) s
      where d * 20 < ${s.cardTransactions}`);
  });
  // Notifications: every tenth the busiest individual's (wallet 1), the rest spread over the users; about half read.
  await inBatches(rows.notifications, batch, 'notifications', async (from, to) => {
    await exec(`
      insert into notifications (id, user_id, type, title, body, link, event_key, read_at, created_at)
      select ${uuidOf('notification', 'i')}, case when i % 10 = 0 then ${uuidOf('user', '1')} else ${uuidOf('user', `i % ${W}`)} end,
             'transfer_received', 'Bench notification ' || i, 'Bench body', '/portal', 'bench-' || i,
             case when (i / 10) % 2 = 0 then at end, at
      from (select i, ${atOf('i', rows.notifications)} as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
  });
}
