/**
 * Benchmark: what the metrics cost the authenticated read (issue 34: at most 10% of its throughput).
 *
 *   node --import tsx bench/metrics.ts            (10 s per run; BENCH_SECONDS to change, --quick for 3 s)
 *   TEST_DATABASE_URL=postgres://… node --import tsx bench/metrics.ts   (PostgreSQL instead of PGlite)
 *
 * The read of bench/read.ts (`GET /api/v1/wallet/account-balance/{id}`, a customer's session token, 50
 * connections from autocannon in a child process) against two apps in this process on one database: one
 * as production runs it (METRICS=on: the request histogram, /metrics scraped every second, far more
 * often than Prometheus's 15 s), one with METRICS=off. Both log and trace alike. Runs alternate
 * off, on, off, on, … (BENCH_ROUNDS pairs, 3 by default) so that drift of the machine weighs on both;
 * prints each run, the mean req/s and p99 of each side, and the ratio. Exits 1 when an answer is
 * wrong, not when the goal is missed.
 */
import { Writable } from 'node:stream';
import { formatMoney } from '@shared/money';
import { ledgerAccounts } from '../server/db/schema';
import { metrics } from '../server/lib/metrics';
import { findWallet } from '../server/modules/ledger/accounts';
import { post } from '../server/modules/ledger/post';
import { memoryMailer, serveApp } from '../tests/integration/support/http';
import { newIndividual } from '../tests/integration/support/actors';
import { Problems, QUICK, describeRun, fixed, goal, header, loadAverage, runSeconds, settle } from './compare';
import { type LoadResult, load } from './load';
import { envInt, startBenchApp } from './support';

const CONNECTIONS = 50;
const SECONDS = runSeconds();
const ROUNDS = QUICK ? 1 : envInt('BENCH_ROUNDS', 3);
const BALANCE_CENTS = 12_345_678;

async function main() {
  header(`Metrics' cost on the authenticated read, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds`);
  const problems = new Problems();
  const t = await startBenchApp();
  const off = await serveApp({
    config: { ...t.ctx.config, observability: { ...t.ctx.config.observability, metrics: false } },
    database: t.database,
    mailer: memoryMailer([]),
    logStream: new Writable({ write: (_chunk, _enc, cb) => cb() }),
  });
  let scraper: NodeJS.Timeout | undefined;
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const customer = await newIndividual(t);
    const wallet = (await findWallet(t.ctx.db, customer.id))!;
    const source = crypto.randomUUID();
    await t.ctx.db.insert(ledgerAccounts).values({
      id: source,
      kind: 'bench_source',
      ownerId: crypto.randomUUID(),
      currency: 'USDT',
      allowNegative: true,
    });
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: 'deposit',
        reference: `BENCH-METRICS-${Date.now()}`,
        legs: [
          { accountId: source, amount: -BALANCE_CENTS },
          { accountId: wallet.id, amount: BALANCE_CENTS },
        ],
      }),
    );
    const expected = JSON.stringify({ data: formatMoney(BALANCE_CENTS) });
    const path = `/api/v1/wallet/account-balance/${customer.id}`;
    const sides = {
      off: { url: off.url, path, token: customer.token },
      on: { url: t.url, path, token: customer.token },
    };
    for (const [name, target] of Object.entries(sides)) {
      const res = await fetch(`${target.url}${path}`, { headers: { authorization: `Bearer ${customer.token}` } });
      const body = await res.text();
      if (res.status !== 200 || body !== expected) problems.add(`${name} answered ${res.status} ${body}`);
    }
    const metricsOn = await fetch(`${t.url}/metrics`);
    if (metricsOn.status !== 200) problems.add(`/metrics answered ${metricsOn.status} with METRICS=on`);
    if ((await fetch(`${off.url}/metrics`)).status === 200) problems.add('/metrics answered 200 with METRICS=off');
    if (problems.any) throw new Error('the two apps do not answer as they should');

    const scrapes = { n: 0, bytes: 0 };
    const scrape = async () => {
      const text = await (await fetch(`${t.url}/metrics`)).text();
      scrapes.n++;
      scrapes.bytes = text.length;
    };
    const results: Record<'off' | 'on', LoadResult[]> = { off: [], on: [] };
    /** CPU of this process (server and, on PGlite, the database) per answered request, by side. */
    const cpu: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const run = async (name: 'off' | 'on', seconds: number, record: boolean) => {
      if (name === 'on') scraper = setInterval(() => void scrape().catch(() => undefined), 1000);
      const before = loadAverage();
      const used = process.cpuUsage();
      const r = await load({ kind: 'get', ...sides[name], connections: CONNECTIONS, seconds });
      const spent = process.cpuUsage(used);
      clearInterval(scraper);
      if (!record) return;
      cpu[name].push((spent.user + spent.system) / Math.max(1, r.ok));
      process.stdout.write(`  metrics ${name.padEnd(3)} ${describeRun(r, before)}\n`);
      if (r.non2xx > 0) problems.add(`${name}: ${r.non2xx} answers were not 2xx`);
      if (r.errors - r.timeouts > 0) problems.add(`${name}: ${r.errors - r.timeouts} connection errors`);
      results[name].push(r);
      await settle();
    };
    await run('off', QUICK ? 1 : 2, false);
    await run('on', QUICK ? 1 : 2, false);
    await settle();
    for (let i = 0; i < ROUNDS; i++) {
      await run('off', SECONDS, true);
      await run('on', SECONDS, true);
    }

    const mean = (rs: LoadResult[], k: 'rps' | 'p99') => rs.reduce((s, r) => s + r[k], 0) / rs.length;
    const ratio = mean(results.on, 'rps') / mean(results.off, 'rps');
    process.stdout.write(
      `  mean: off ${fixed(mean(results.off, 'rps'))} req/s (p99 ${fixed(mean(results.off, 'p99'), 1)} ms), ` +
        `on ${fixed(mean(results.on, 'rps'))} req/s (p99 ${fixed(mean(results.on, 'p99'), 1)} ms); ` +
        `ratio on / off ${fixed(ratio, 3)}; ${scrapes.n} scrapes of ${fixed(scrapes.bytes / 1024, 1)} KiB meanwhile\n`,
    );
    // Throughput on a shared, loaded machine swings more than the metrics can cost, so the cost is also measured as
    // CPU, which waiting does not inflate: requests one at a time through inject() (no sockets, no load generator),
    // in alternating blocks on the two apps, the median block of each; and the CPU of a scrape, shared out over the
    // requests of Prometheus's 15 s interval at the throughput measured above.
    const inject = { method: 'GET' as const, url: path, headers: { authorization: `Bearer ${customer.token}` } };
    const blocks: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const block = QUICK ? 200 : 1000;
    for (let i = 0; i < (QUICK ? 4 : 12); i++)
      for (const [name, app] of [
        ['off', off.app],
        ['on', t.app],
      ] as const) {
        const used = process.cpuUsage();
        for (let j = 0; j < block; j++)
          if ((await app.inject(inject)).statusCode !== 200) problems.add('inject failed');
        const d = process.cpuUsage(used);
        blocks[name].push((d.user + d.system) / block);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const used = process.cpuUsage();
    for (let i = 0; i < 20; i++) await t.app.inject({ method: 'GET', url: '/metrics' });
    const scrapeUs = ((u) => (u.user + u.system) / 20)(process.cpuUsage(used));
    const perScrapeShare = scrapeUs / (mean(results.on, 'rps') * 15);
    const [cpuOff, cpuOn] = [median(blocks.off), median(blocks.on)];
    const cost = (cpuOn - cpuOff + perScrapeShare) / cpuOff;
    process.stdout.write(
      `  CPU per request, one at a time (median of ${blocks.off.length} blocks of ${block}): off ${fixed(cpuOff, 1)} µs, ` +
        `on ${fixed(cpuOn, 1)} µs; a scrape ${fixed(scrapeUs / 1000, 1)} ms of CPU = ${fixed(perScrapeShare, 2)} µs per request ` +
        `at 15 s; the histogram's record alone ${fixed(observeCost(), 2)} µs\n`,
    );
    goal(`metrics cost at most 10% of a read's CPU (${fixed(cost * 100, 1)}%)`, cost <= 0.1);
    goal(`metrics cost at most 10% of the read's throughput (${fixed((1 - ratio) * 100, 1)}%)`, ratio >= 0.9);
  } finally {
    clearInterval(scraper);
    await off.app.close();
    await t.close();
  }
  process.exit(problems.any ? 1 : 0);
}

/** Microseconds per observation of the request histogram, on a series that exists (as in production). */
function observeCost(): number {
  const n = QUICK ? 100_000 : 1_000_000;
  const record = metrics.httpRoute('GET', '/bench/observe-cost');
  for (let i = 0; i < 10_000; i++) record(200, 0.002);
  const started = performance.now();
  for (let i = 0; i < n; i++) record(200, (i % 100) / 10_000);
  return ((performance.now() - started) * 1000) / n;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
