/**
 * Benchmark: a customer's wallet-transactions report as CSV, BENCH_ROWS movements (default
 * 1,000,000) streamed over real HTTP from the app running in this process.
 *
 *   node --import tsx bench/csv-export.ts            (npm run bench runs it with bench/statistics.ts)
 *   BENCH_ROWS=20000 node --import tsx bench/csv-export.ts   (BENCH_BATCH: rows per insert, 50,000)
 *   BENCH_ROWS=2000000 BENCH_BUSY=1000000 …: the busiest wallet of the shared history instead (bench/csv-busy.ts)
 *
 * The movements are written straight into the database in batches (as
 * tests/integration/csv-export.test.ts does, with the running balances carried from batch to
 * batch), then GET /reports/view-wallet-transactions?format=csv is read as a client would while
 * process memory is sampled every 100 ms. Prints rows, bytes, seconds, rows/s and the peak
 * RSS/heap growth during the export; exits 1 when the rows are not all there.
 */
import { sql } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import { ledgerAccounts } from '../server/db/schema';
import { findWallet } from '../server/modules/ledger/accounts';
import { newIndividual } from '../tests/integration/support/actors';
import { busyWalletCsv } from './csv-busy';
import { describeCsv, readCsv } from './csv-read';
import { envInt, inBatches, int, rowsOf, secs, startBenchApp, withoutLedgerGuards } from './support';

const N = envInt('BENCH_ROWS', 1_000_000);
const BATCH = envInt('BENCH_BATCH', 50_000);
/** BENCH_BUSY: wallet 1's movements in the shared history of N transfers instead (bench/csv-busy.ts). */
const BUSY = envInt('BENCH_BUSY', 0);
const BASE = '2010-01-01T00:00:00.000Z';
const HEADER =
  'Reference,Transaction Type,Direction,Amount,Total Fees,Associated Card,Description,Balance Before,Balance After,Date';

/** Movement i's amount in cents, as the SQL below computes it: 1.00 to 100.72. */
const amountOf = (i: number) => 100 + ((i * 37) % 9973);

async function main() {
  if (BUSY) return busyMain();
  process.stdout.write(`CSV export benchmark: ${int(N)} wallet movements\n`);
  const t = await startBenchApp();
  let failed = false;
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const customer = await newIndividual(t);
    const wallet = (await findWallet(t.ctx.db, customer.id))!;
    // An account of the benchmark's own standing for money from outside (may go negative).
    const source = crypto.randomUUID();
    await t.ctx.db.insert(ledgerAccounts).values({
      id: source,
      kind: 'bench_source',
      ownerId: crypto.randomUUID(),
      currency: 'USDT',
      allowNegative: true,
    });
    const prefix = `BENCH${Date.now().toString(36).toUpperCase()}-`;

    let total = 0n;
    for (let i = 1; i <= N; i++) total += BigInt(amountOf(i));
    const exec = (text: string) => t.ctx.db.execute(sql.raw(text));
    const loadMs = await withoutLedgerGuards(exec, async () => {
      const ms = await inBatches(N, BATCH, 'movements', async (from, to) => {
        await t.ctx.db.execute(sql`
          insert into ledger_transfers (id, kind, reference, description, meta, created_at)
          select md5(${prefix} || i)::uuid, case when i % 3 = 0 then 'refund' else 'deposit' end, ${prefix} || lpad(i::text, 7, '0'),
                 'CSV benchmark', jsonb_build_object('fees_total', i % 5), ${BASE}::timestamptz + i * interval '30 seconds'
          from generate_series(${from}::int, ${to}::int) as g(i)`);
        // Each leg's balance continues from its account's last entry before this batch.
        await t.ctx.db.execute(sql`
          with carried as materialized (
            select a.id, coalesce((select e.balance_after from ledger_entries e where e.account_id = a.id order by e.created_at desc, e.id desc limit 1), 0) as balance
            from ledger_accounts a where a.id in (${wallet.id}::uuid, ${source}::uuid)
          ), legs as (
            select i, acc, sign * amount as amount, sum(sign * amount) over (partition by acc order by i) as run
            from (select i, (100 + (i * 37) % 9973)::bigint as amount from generate_series(${from}::int, ${to}::int) as g(i)) m
            cross join (values (${wallet.id}::uuid, 1), (${source}::uuid, -1)) as l(acc, sign)
          )
          insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
          select gen_random_uuid(), md5(${prefix} || i)::uuid, acc, amount, c.balance + run - amount, c.balance + run, ${BASE}::timestamptz + i * interval '30 seconds'
          from legs join carried c on c.id = legs.acc`);
      });
      let total = 0n;
      for (let i = 1; i <= N; i++) total += BigInt(amountOf(i));
      await t.ctx.db.execute(sql`update ledger_accounts set balance = ${total} where id = ${wallet.id}`);
      await t.ctx.db.execute(sql`update ledger_accounts set balance = ${-total} where id = ${source}`);
      return ms;
    });
    const analyzeStarted = performance.now();
    await t.ctx.db.execute(sql`analyze ledger_transfers, ledger_entries, ledger_accounts`);
    process.stdout.write(`  analyze: ${secs(performance.now() - analyzeStarted)}\n`);
    const [size] = await rowsOf<{ size: string }>(
      t.database,
      `select pg_size_pretty(pg_database_size(current_database())) as size`,
    );
    process.stdout.write(`  database size: ${size?.size}\n`);

    // The export, read as a client would: counting lines and bytes, keeping the first and the last row.
    const result = await readCsv(
      `${t.url}/api/v1/reports/view-wallet-transactions?wallet=${customer.id}&format=csv`,
      customer.token,
    );
    const rows = result.rows;

    const checks: string[] = [];
    if (result.status !== 200) checks.push(`status ${result.status}`);
    if (!result.type.startsWith('text/csv')) checks.push(`content-type ${result.type}`);
    if (result.header !== HEADER) checks.push(`header ${result.header}`);
    if (rows !== N) checks.push(`${int(rows)} rows, expected ${int(N)}`);
    // Newest first: the first row ends at the wallet's balance, the last starts from zero.
    const first = result.first.split(',');
    const last = result.last.split(',');
    if (first[8] !== formatMoney(Number(total)))
      checks.push(`first row's balance after is ${first[8]}, expected ${formatMoney(Number(total))}`);
    if (last[7] !== '0.00' || last[0] !== `${prefix}0000001`) checks.push(`last row is ${result.last}`);

    process.stdout.write(
      [
        `  load: ${int(N)} transfers + ${int(2 * N)} entries in ${secs(loadMs)}`,
        ...describeCsv(result),
        checks.length ? `  FAILED: ${checks.join('; ')}` : '  checks: row count, header, first and last balances OK',
        '',
      ].join('\n'),
    );
    failed = checks.length > 0;
  } finally {
    await t.close();
  }
  process.exit(failed ? 1 : 0);
}

async function busyMain() {
  process.stdout.write(`CSV export benchmark: the busiest wallet's ${int(BUSY)} movements among ${int(N)} transfers\n`);
  const t = await startBenchApp();
  let failed: string[] = [];
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    failed = await busyWalletCsv(t, N, BUSY, BATCH);
  } finally {
    await t.close();
  }
  process.exit(failed.length ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
