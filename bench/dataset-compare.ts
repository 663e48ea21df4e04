/**
 * Proof that the bulk loader (bench/dataset-bulk.ts) leaves the database as the trigger path does:
 * loads the lists benchmark's dataset at BENCH_ROWS (default 20,000) both ways, each into a fresh
 * database (PostgreSQL with BENCH_DATABASE_URL / TEST_DATABASE_URL, else PGlite), and compares a
 * digest of every table the load writes or the triggers derive. Kept totals written per statement
 * (all-wallets totals per day, the per-backend slots of the counts) are compared summed per key:
 * the trigger path writes a row per statement and backend where the bulk path writes one.
 *
 *   BENCH_ROWS=20000 TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/dataset-compare.ts
 *
 * Exits 1 when a digest differs.
 */
import { type LoadMode, loadDataset } from './dataset';
import { listsSize } from './lists-size';
import { envInt, rowsOf, secs, startBenchApp } from './support';

const N = envInt('BENCH_ROWS', 20_000);
// Half of the wallet movements in wallet 1, and 'Mensah' every 20th owner: both paths' special cases at any N.
const SIZE = { ...listsSize(N, Math.floor(N / 10)), busyPerMille: 500, sharedNameEvery: 20 };

/** Each check: a query whose rows, in a stable order, are hashed. */
const CHECKS: Record<string, string> = {
  ledger_transfers: 'select id, kind, reference, meta, created_by, created_at from ledger_transfers order by id',
  ledger_entries:
    'select id, transfer_id, account_id, amount, balance_before, balance_after, created_at from ledger_entries order by id',
  'ledger_entries (order posted within each account)':
    'select account_id, id from ledger_entries order by account_id, seq',
  ledger_accounts: 'select id, kind, owner_id, balance, monitored from ledger_accounts order by id',
  wallet_entries:
    'select entry_id, transfer_id, account_id, kind, debit, created_at from wallet_entries order by entry_id',
  'wallet_entries (order written)': 'select account_id, entry_id from wallet_entries order by account_id, ctid',
  wallet_account_totals: 'select * from wallet_account_totals order by account_id, day, kind',
  'wallet_movement_totals (per day and kind)':
    'select day, kind, sum(entries), sum(amount), sum(fees), sum(debits) from wallet_movement_totals group by 1, 2 order by 1, 2',
  'card_count (per key)':
    'select owner_type, purpose, type, active, deleted, sum(rows) from card_count group by 1, 2, 3, 4, 5 having sum(rows) <> 0 order by 1, 2, 3, 4, 5',
  'topup_totals (per key)':
    'select method, owner_type, state, sum(rows), sum(amount) from topup_totals group by 1, 2, 3 order by 1, 2, 3',
  'audit_log_count (per key)': 'select action, object_type, sum(rows) from audit_log_count group by 1, 2 order by 1, 2',
  balance_monitors: 'select account, balance, fired, crossings from balance_monitors order by account',
  notifications: "select count(*) from notifications where type = 'balance_low'",
};

async function digests(mode: LoadMode): Promise<Record<string, string>> {
  const t = await startBenchApp();
  try {
    const started = performance.now();
    await loadDataset(t, SIZE, 5_000, mode);
    process.stdout.write(`  ${mode}: loaded in ${secs(performance.now() - started)} (${t.label})\n`);
    const out: Record<string, string> = {};
    for (const [name, q] of Object.entries(CHECKS)) {
      const r = await rowsOf<{ d: string; n: string }>(
        t.database,
        `select md5(coalesce(string_agg(x::text, '|'), '')) as d, count(*)::text as n from (${q}) x`,
      );
      out[name] = `${r[0]!.n} rows ${r[0]!.d}`;
    }
    return out;
  } finally {
    await t.close();
  }
}

async function main() {
  process.stdout.write(`Bulk loader against the trigger path at ${N} ledger transfers\n`);
  const before = await digests('triggers');
  const after = await digests('bulk');
  let differ = 0;
  for (const name of Object.keys(CHECKS)) {
    const same = before[name] === after[name];
    if (!same) differ++;
    process.stdout.write(
      `  ${same ? 'same' : 'DIFFERS'}  ${name.padEnd(48)} ${before[name]}${same ? '' : `  vs  ${after[name]}`}\n`,
    );
  }
  process.stdout.write(differ ? `  ${differ} tables differ\n` : '  every table the same\n');
  process.exit(differ ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
