/**
 * The bulk path of bench/dataset.ts for the ledger (ten million transfers load in minutes, not
 * hours): on one connection with `session_replication_role = replica`, so no row guard, foreign-key
 * check or statement trigger runs per batch; the secondary indexes of the ledger's tables dropped
 * during the load and built again after it (one sort each instead of millions of random inserts);
 * each account's running balance carried in a temporary table rather than looked up from its last
 * entry. What the triggers would have written (wallet_entries, wallet_account_totals,
 * wallet_movement_totals) is then derived from the loaded ledger in one statement each, exactly as
 * migration 0049 derives wallet_account_totals; bench/dataset-compare.ts proves both paths leave
 * the same tables. The tables stay logged: the benchmark reads real tables.
 */
import pg from 'pg';
import type { Database } from '../server/db/client';
import { clientOf } from './support';

export type Exec = (text: string) => Promise<unknown>;

/**
 * Runs `fn` on one connection (a pooled one held throughout, or PGlite's only one), so that
 * session settings and temporary tables last from one statement to the next; resets them after.
 */
export async function onOneConnection<T>(database: Database, fn: (exec: Exec) => Promise<T>): Promise<T> {
  const client = clientOf(database) as unknown;
  if (client instanceof pg.Pool) {
    const c = await client.connect();
    try {
      return await fn((text) => c.query(text));
    } finally {
      await c.query('reset all').catch(() => undefined);
      await c.query('discard temp').catch(() => undefined);
      c.release();
    }
  }
  const one = client as { query(text: string): Promise<unknown> };
  try {
    return await fn((text) => one.query(text));
  } finally {
    await one.query('reset all');
    await one.query('discard temp');
  }
}

/**
 * The non-unique, non-constraint indexes of `tables` dropped while `fn` runs and built again after
 * (from their own definitions, so the schema ends as it began, even when `fn` fails).
 */
export async function withoutSecondaryIndexes<T>(exec: Exec, tables: string[], fn: () => Promise<T>): Promise<T> {
  const list = tables.map((t) => `'${t}'`).join(', ');
  const res = (await exec(`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i where i.indrelid::regclass::text in (${list}) and not i.indisunique
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`)) as {
    rows: Array<{ name: string; def: string }>;
  };
  for (const r of res.rows) await exec(`drop index ${r.name}`);
  try {
    return await fn();
  } finally {
    await exec(`set maintenance_work_mem = '1GB'`);
    for (const r of res.rows) await exec(r.def);
  }
}

/** The per-account running balances of the bulk path: every account starts at zero. */
export const BALANCES = 'bench_balances';

export async function createBalances(exec: Exec): Promise<void> {
  await exec(`create temporary table ${BALANCES} (id uuid primary key, balance bigint not null)`);
}

/**
 * The entries of a batch of transfers (`rows` has i and at; `legs` names (account, amount) per
 * row b), each balance carried on from the temporary table, which the same statement moves on.
 * Ids and order as in the trigger path (postEntries in bench/dataset.ts).
 */
export async function postEntriesBulk(exec: Exec, rows: string, legs: string, entryId: string, transferId: string) {
  await exec(`
    with b as (${rows}),
    legs as materialized (
      select b.i, b.at, l.n, l.acc, l.amount from b cross join lateral ${legs} as l(acc, amount, n)
      where l.amount <> 0
    ),
    moved as (
      insert into ${BALANCES} (id, balance) select acc, sum(amount) from legs group by acc
      on conflict (id) do update set balance = ${BALANCES}.balance + excluded.balance
    )
    insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
    select ${entryId}, ${transferId}, acc, amount, coalesce(c.balance, 0) + run - amount, coalesce(c.balance, 0) + run, at
    from (select legs.*, sum(amount) over (partition by acc order by i) as run from legs) r
    left join ${BALANCES} c on c.id = r.acc
    order by r.i, r.n`);
}

/** Each account's balance at its last entry, from the carried balances. */
export async function settleBalances(exec: Exec): Promise<void> {
  await exec(
    `update ledger_accounts a set balance = b.balance from ${BALANCES} b where b.id = a.id and a.balance <> b.balance`,
  );
}

/**
 * What cw_wallet_movement_totals (server/db/sql/counts.sql) writes per posting statement, for the
 * whole loaded ledger at once: each wallet entry in wallet_entries (in the order of the entries),
 * the per-wallet totals per UTC day and kind, and the all-wallets totals per day and kind (one
 * row per day and kind, as housekeeping compacts the per-statement rows).
 */
export async function deriveWalletTables(exec: Exec): Promise<void> {
  await exec(`set work_mem = '256MB'`);
  await exec(`
    create temporary table bench_wallet_moves as
    select e.seq, e.id, e.transfer_id, e.account_id, e.created_at, e.amount, t.kind, (t.meta->>'fees_total')::bigint as fees
    from ledger_entries e
    join ledger_accounts a on a.id = e.account_id and a.kind = 'wallet'
    join ledger_transfers t on t.id = e.transfer_id`);
  await withoutSecondaryIndexes(exec, ['wallet_entries'], () =>
    exec(`
      insert into wallet_entries (entry_id, transfer_id, account_id, kind, debit, created_at)
      select id, transfer_id, account_id, kind, amount < 0, created_at from bench_wallet_moves order by seq`),
  );
  await exec(`
    insert into wallet_account_totals (account_id, day, kind, entries, amount, fees)
    select account_id, (created_at at time zone 'UTC')::date, kind, count(*), sum(abs(amount)), coalesce(sum(fees), 0)
    from bench_wallet_moves group by 1, 2, 3 order by 1, 2, 3`);
  await exec(`
    insert into wallet_movement_totals (day, kind, entries, amount, fees, debits)
    select (created_at at time zone 'UTC')::date, kind, count(*), sum(abs(amount)), coalesce(sum(fees), 0),
           count(*) filter (where amount < 0)
    from bench_wallet_moves group by 1, 2 order by 1, 2`);
  await exec('drop table bench_wallet_moves');
  await exec('reset work_mem');
}
