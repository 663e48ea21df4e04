/**
 * Benchmark: a customer's wallet-transactions report as CSV, BENCH_ROWS movements (default
 * 1,000,000) streamed over real HTTP from the app running in this process.
 *
 *   node --import tsx bench/csv-export.ts            (npm run bench runs it with bench/statistics.ts)
 *   BENCH_ROWS=20000 node --import tsx bench/csv-export.ts   (BENCH_BATCH: rows per insert, 50,000)
 *
 * The movements are written straight into the database in batches (as
 * tests/integration/csv-export.test.ts does, with the running balances carried from batch to
 * batch), then GET /reports/view-wallet-transactions?format=csv is read as a client would while
 * process memory is sampled every 100 ms. Prints rows, bytes, seconds, rows/s and the peak
 * RSS/heap growth during the export; exits 1 when the rows are not all there.
 */
import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import { ledgerAccounts } from '../server/db/schema';
import { findWallet } from '../server/modules/ledger/accounts';
import { newIndividual } from '../tests/integration/support/actors';
import { envInt, inBatches, int, mib, rowsOf, sampleMemory, secs, startBenchApp, withoutLedgerGuards } from './support';

const N = envInt('BENCH_ROWS', 1_000_000);
const BATCH = envInt('BENCH_BATCH', 50_000);
const BASE = '2010-01-01T00:00:00.000Z';
const HEADER =
  'Reference,Transaction Type,Direction,Amount,Total Fees,Associated Card,Description,Balance Before,Balance After,Date';

/** Movement i's amount in cents, as the SQL below computes it: 1.00 to 100.72. */
const amountOf = (i: number) => 100 + ((i * 37) % 9973);

async function main() {
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
    globalThis.gc?.(); // with node --expose-gc
    const memory = await sampleMemory(100);
    const started = performance.now();
    const result = await new Promise<{
      status: number;
      type: string;
      bytes: number;
      lines: number;
      header: string;
      first: string;
      last: string;
      ttfb: number;
    }>((resolve, reject) => {
      const req = request(
        `${t.url}/api/v1/reports/view-wallet-transactions?wallet=${customer.id}&format=csv`,
        { headers: { authorization: `Bearer ${customer.token}` } },
        (res) => {
          const ttfb = performance.now() - started;
          let bytes = 0;
          let lines = 0;
          let head = '';
          let tail = Buffer.alloc(0);
          // Progress every 5 s: a rate that falls as the export goes on means each batch costs more than the last.
          let mark = { at: performance.now(), lines: 0 };
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            memory.tick();
            for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
            const now = performance.now();
            if (now - mark.at >= 5000) {
              process.stdout.write(
                `    ${secs(now - started).padStart(9)}: ${int(lines - 1)} rows, ${int(((lines - mark.lines) / (now - mark.at)) * 1000)} rows/s over the last ${secs(now - mark.at)}\n`,
              );
              mark = { at: now, lines };
            }
            if (head.split('\r\n').length < 3) head += chunk.toString('utf8', 0, Math.min(chunk.length, 4096));
            tail = Buffer.concat([tail, chunk]).subarray(-4096);
          });
          res.on('end', () => {
            const tailLines = tail.toString('utf8').split('\r\n');
            const [header = '', first = ''] = head.split('\r\n');
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers['content-type']),
              bytes,
              lines,
              header: header.replace(/^\uFEFF/, ''),
              first,
              last: tailLines[tailLines.length - 2] ?? '',
              ttfb,
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const ms = performance.now() - started;
    const mem = await memory.stop();
    const rows = result.lines - 1; // the header line

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
        `  export: ${int(rows)} rows, ${int(result.bytes)} bytes (${mib(result.bytes)}) in ${secs(ms)}`,
        `  throughput: ${int((rows / ms) * 1000)} rows/s, ${mib((result.bytes / ms) * 1000)}/s; first byte after ${int(result.ttfb)} ms`,
        `  memory (RSS: ${mem.rssSamples} samples, heap: ${mem.heapSamples}): RSS ${mib(mem.baseline.rss)} -> peak ${mib(mem.peak.rss)} (+${mib(mem.peak.rss - mem.baseline.rss)}),` +
          ` heap ${mib(mem.baseline.heapUsed)} -> peak ${mib(mem.peak.heapUsed)} (+${mib(mem.peak.heapUsed - mem.baseline.heapUsed)}),` +
          ` external+buffers peak +${mib(mem.peak.external - mem.baseline.external)}`,
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

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
