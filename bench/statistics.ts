/**
 * Benchmark: GET /reports/view-statistics and /reports/view-statistics-series (the staff Statistics
 * screen) over a 90-day range, with BENCH_ROWS ledger transfers and BENCH_ROWS card transactions
 * (default 200,000 each) spread over one year, plus BENCH_ROWS/100 cards, BENCH_ROWS/10 top-ups and
 * BENCH_ROWS/1000 wallets (every fourth a company's).
 *
 *   node --import tsx bench/statistics.ts
 *   BENCH_ROWS=20000 node --import tsx bench/statistics.ts   (BENCH_BATCH: rows per insert, 50,000)
 *   BENCH_ROWS=2000000 BENCH_BUSY=1000000 …: the CSV benchmark's history (bench/csv-busy.ts, wallet 1
 *     with that many movements) over the whole year; with BENCH_REUSE_DATABASE, the database it kept
 *   BENCH_STATS_RANGE=2021-01-01..2021-03-31: another range (UTC days, both inclusive)
 *   BENCH_STATS_RAW=1: also the figures computed from the rows (before migration 0055), timed,
 *     compared with the kept ones and explained
 *
 * Everything is written straight into the database in batches. Prints each of 5 timed requests
 * and their median, then EXPLAIN (ANALYZE, BUFFERS) of the report's heaviest query, found by
 * running each of the report's queries under EXPLAIN ANALYZE. Exits 1 when a figure the
 * benchmark can compute itself is wrong, or the computation from the rows answers otherwise.
 */
import { sql } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import { dayRange } from '../server/lib/dates';
import { intervalFor } from '../admin/pages/statistics/model';
import { series, statistics } from '../server/modules/statistics/queries';
import { newStaff } from '../tests/integration/support/actors';
import { busySize } from './csv-busy';
import { BASE_MS, type DatasetSize, loadDataset, stepOf } from './dataset';
import { rawSeries, rawStatistics } from '../tests/integration/support/statistics-raw';
import {
  type BenchApp,
  clientOf,
  envInt,
  int,
  median,
  mib,
  rowsOf,
  sampleMemory,
  secs,
  startBenchApp,
} from './support';

const N = envInt('BENCH_ROWS', 200_000);
const BATCH = envInt('BENCH_BATCH', 50_000);
const RUNS = 5;
/** BENCH_BUSY: the CSV benchmark's history instead (bench/csv-busy.ts), wallet 1 with this many movements, over a year */
const BUSY = envInt('BENCH_BUSY', 0);
const SIZE: DatasetSize = BUSY
  ? busySize(N, BUSY)
  : {
      wallets: Math.max(8, Math.floor(N / 1000)),
      cards: Math.max(10, Math.floor(N / 100)),
      transfers: N,
      cardTransactions: N,
      topups: Math.max(10, Math.floor(N / 10)),
    };
const { wallets: WALLETS, cards: CARDS, topups: TOPUPS, cardTransactions: CARD_TX } = SIZE;
// 90 days by default, the whole year with BENCH_BUSY; BENCH_STATS_RANGE=2021-01-01..2021-12-31 (both inclusive)
const [start, end] = (
  process.env.BENCH_STATS_RANGE ?? (BUSY ? '2021-01-01..2021-12-31' : '2021-04-01..2021-06-29')
).split('..');
const RANGE = { start: start!, end: end! };

async function main() {
  process.stdout.write(
    `Statistics benchmark: ${RANGE.start} to ${RANGE.end}; ${int(N)} ledger transfers, ${int(CARD_TX)} card transactions, ${int(CARDS)} cards, ${int(TOPUPS)} top-ups, ${int(WALLETS)} wallets\n`,
  );
  const booted = performance.now();
  const t = await startBenchApp();
  let failed = false;
  try {
    process.stdout.write(
      `  database: ${t.label}; started (migrations included) in ${secs(performance.now() - booted)}\n`,
    );
    const admin = await newStaff(t, 'Admin');
    const exec = (text: string) => t.ctx.db.execute(sql.raw(text));
    const loadStarted = performance.now();

    if (!process.env.BENCH_REUSE_DATABASE?.trim()) {
      await loadDataset(t, SIZE, BATCH);
      await exec('analyze');
    }
    process.stdout.write(`  load: ${secs(performance.now() - loadStarted)} in all (with analyze)\n`);
    const [size] = await rowsOf<{ size: string }>(
      t.database,
      `select pg_size_pretty(pg_database_size(current_database())) as size`,
    );
    process.stdout.write(`  database size: ${size?.size}\n`);

    // The request, 5 times.
    const q = `/reports/view-statistics?start_date=${RANGE.start}&end_date=${RANGE.end}`;
    const times: number[] = [];
    let body: Record<string, unknown> | null = null;
    const memory = await sampleMemory(100);
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const res = await t.api<{ data: Record<string, unknown> }>('GET', q, { token: admin.token });
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`GET ${q}: ${res.status} ${JSON.stringify(res.body)}`);
      body = res.body.data;
    }
    process.stdout.write(`  GET ${q}\n`);
    process.stdout.write(`    runs: ${times.map((ms) => `${int(ms)} ms`).join(', ')}\n`);
    const mem = await memory.stop();
    process.stdout.write(`    median of ${RUNS}: ${int(median(times))} ms\n`);
    process.stdout.write(
      `    memory during the runs: RSS ${mib(mem.baseline.rss)} -> peak ${mib(mem.peak.rss)} (+${mib(mem.peak.rss - mem.baseline.rss)}),` +
        ` heap ${mib(mem.baseline.heapUsed)} -> peak ${mib(mem.peak.heapUsed)} (+${mib(mem.peak.heapUsed - mem.baseline.heapUsed)})\n`,
    );

    // The screen's charts: the series for the range, at the period the screen picks for it (a year: per month).
    const interval = intervalFor(RANGE.start, RANGE.end);
    const sq = `/reports/view-statistics-series?start_date=${RANGE.start}&end_date=${RANGE.end}&interval=${interval}`;
    const seriesTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const res = await t.api('GET', sq, { token: admin.token });
      seriesTimes.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`GET ${sq}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    process.stdout.write(`  GET ${sq}\n`);
    process.stdout.write(`    runs: ${seriesTimes.map((ms) => `${int(ms)} ms`).join(', ')}\n`);
    process.stdout.write(`    median of ${RUNS}: ${int(median(seriesTimes))} ms\n`);

    // Figures this benchmark can compute from its own fixtures.
    const want = expected();
    const checks = Object.entries(want)
      .filter(([k, v]) => body?.[k] !== v)
      .map(([k, v]) => `${k} = ${JSON.stringify(body?.[k])}, expected ${JSON.stringify(v)}`);
    process.stdout.write(
      checks.length ? `  FAILED: ${checks.join('; ')}\n` : `  checks: ${Object.keys(want).join(', ')} OK\n`,
    );
    failed = checks.length > 0;

    const r = dayRange(RANGE.start, RANGE.end);
    await explainAll(t, 'the report and its series', async () => {
      await statistics(t.ctx.db, r);
      await series(t.ctx.db, r, interval);
    });
    // BENCH_STATS_RAW=1: the same figures computed from the rows, as the server did before migration 0055, timed in
    // this process (no HTTP), compared with the kept answers and explained.
    if (process.env.BENCH_STATS_RAW === '1') {
      const rawTimes: number[] = [];
      let raw: Awaited<ReturnType<typeof figuresOf>> | null = null;
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        raw = await figuresOf(
          () => rawStatistics(t.ctx.db, r),
          () => rawSeries(t.ctx.db, r, interval),
        );
        rawTimes.push(performance.now() - started);
      }
      const kept = await figuresOf(
        () => statistics(t.ctx.db, r),
        () => series(t.ctx.db, r, interval),
      );
      const differ = kept.filter((line) => !raw?.includes(line));
      const same = differ.length === 0 && kept.length === raw?.length;
      if (!same) process.stdout.write(`  kept, not from the rows: ${differ.slice(0, 10).join('; ')}\n`);
      process.stdout.write(
        `  from the rows (before 0055), report then series in this process: ${rawTimes.map((ms) => `${int(ms)} ms`).join(', ')}; median ${int(median(rawTimes))} ms; ${same ? 'the same answers as the kept totals' : 'ANSWERS DIFFER from the kept totals'}\n`,
      );
      if (!same) failed = true;
      await explainAll(t, 'from the rows', async () => {
        await rawStatistics(t.ctx.db, r);
        await rawSeries(t.ctx.db, r, interval);
      });
    }
    process.stdout.write(`  process RSS at the end: ${mib(process.memoryUsage().rss)}\n`);
  } finally {
    await t.close();
  }
  process.exit(failed ? 1 : 0);
}

/** The report's figures and its series' rows as sorted lines (the series' order within a period is not set). */
async function figuresOf(report: () => Promise<object>, chart: () => Promise<Record<string, unknown>>) {
  const lines = Object.entries(await report()).map(([k, v]) => `${k}=${v}`);
  for (const [k, v] of Object.entries(await chart()))
    if (Array.isArray(v)) for (const row of v) lines.push(`${k} ${JSON.stringify(row)}`);
  return lines.sort();
}

/** Each query `run` sends, under EXPLAIN (ANALYZE, BUFFERS), by execution time; the heaviest one's plan in full. */
async function explainAll(t: BenchApp, title: string, run: () => Promise<void>) {
  const client = clientOf(t.database);
  const captured: Array<{ text: string; params: unknown[] }> = [];
  const original = client.query;
  client.query = function (this: unknown, text: unknown, params?: unknown[], ...rest: unknown[]) {
    const s = typeof text === 'string' ? text : (text as { text: string }).text;
    captured.push({ text: s, params: params ?? (text as { values?: unknown[] }).values ?? [] });
    return (original as (...a: unknown[]) => ReturnType<typeof original>).call(this, text, params, ...rest);
  } as typeof original;
  try {
    await run();
  } finally {
    client.query = original;
  }
  const plans: Array<{ text: string; ms: number; plan: string }> = [];
  for (const c of captured.filter((c) => /^\s*select\b/i.test(c.text))) {
    const rows = await rowsOf<Record<string, string>>(t.database, `explain (analyze, buffers) ${c.text}`, c.params);
    const plan = rows.map((r) => Object.values(r)[0]).join('\n');
    const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
    plans.push({ text: c.text, ms, plan });
  }
  plans.sort((a, b) => b.ms - a.ms);
  process.stdout.write(`  ${title}: ${plans.length} queries, by execution time under EXPLAIN ANALYZE:\n`);
  for (const p of plans)
    process.stdout.write(`    ${p.ms.toFixed(1).padStart(9)} ms  ${p.text.replace(/\s+/g, ' ').slice(0, 110)}…\n`);
  if (plans[0]) process.stdout.write(`  heaviest query's plan:\n${plans[0].plan.replace(/^/gm, '    ')}\n`);
}

/** What the report must say about the range, computed here from the fixtures' formulas. */
function expected() {
  const from = Date.parse(`${RANGE.start}T00:00:00.000Z`);
  const to = Date.parse(`${RANGE.end}T00:00:00.000Z`) + 86_400_000;
  const inRange = (i: number, n: number) => {
    const at = BASE_MS + i * stepOf(n);
    return at >= from && at < to;
  };
  const FEES = [100, 35, 100, 0, 25, 57, 200, 100, 50, 0];
  let cardFees = 0;
  let depositFees = 0;
  let maintenance = 0;
  for (let i = 0; i < N; i++) {
    if (!inRange(i, N)) continue;
    const k = i % 10;
    if (k === 0 || k === 6 || k === 8) depositFees += FEES[k]!;
    else cardFees += FEES[k]!;
    if (k === 2 || k === 7) maintenance++;
  }
  let payments = 0;
  let paymentsAmount = 0;
  for (let i = 0; i < CARD_TX; i++) {
    if (i % 10 < 7 && i % 4 < 2 && inRange(i, CARD_TX)) {
      payments++;
      paymentsAmount += 100 + (i % 5000);
    }
  }
  let topups = 0;
  let topupsAmount = 0;
  for (let i = 0; i < TOPUPS; i++) {
    if (i % 5 < 3 && inRange(i, TOPUPS)) {
      topups++;
      topupsAmount += 1000 + (i % 90000);
    }
  }
  let cards = 0;
  for (let c = 0; c < CARDS; c++) if (inRange(c, CARDS)) cards++;
  return {
    total_fees_amount: formatMoney(cardFees),
    total_topups_fees: formatMoney(depositFees),
    total_maintenance: maintenance,
    total_maintenance_amount: formatMoney(maintenance * 100),
    total_transactions: payments,
    total_transactions_amount: formatMoney(paymentsAmount),
    total_topups: topups,
    total_topups_amount: formatMoney(topupsAmount),
    total_cards: cards,
  };
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
