/**
 * Benchmark: every staff and customer list (bench/lists-cases.ts) through real HTTP, at
 * BENCH_ROWS ledger transfers (default 1,000,000; quick mode 20,000; issue 35's size 10,000,000)
 * with N/10 cards, N/10 top-ups, N/15 wallets (N/20 individuals, every fourth wallet a company's),
 * N/5 card transactions, N/20 wallet-to-wallet transfers, N/10 audit rows and N/50 webhook events.
 * The busiest wallet (wallet 1, the individual's whose own lists are timed) holds BENCH_BUSY of the
 * wallet movements (N/10 by default, at most N/5); 'Mensah' is a last name a few dozen people share.
 *
 *   node --import tsx bench/lists.ts
 *   npm run bench -- --quick lists
 *   BENCH_RUNS=20  BENCH_LISTS_SAVE=/tmp/a.json  BENCH_LISTS_COMPARE=/tmp/a.json
 *   BENCH_KEEP_DATABASE=1, then BENCH_REUSE_DATABASE=<its url>: the cases again without loading
 *   (BENCH_LOAD_LIST_ROWS=1 with it: add the chain deposits, disputes and notifications to a database kept before)
 *   BENCH_LISTS_EXPLAIN=busiest: also every plan of the cases of the lists so named
 *
 * Each case is requested BENCH_RUNS times (20; 5 when its first run takes over a second) and
 * its p50 and p95 printed, PASS when p95 < 50 ms. Then the slowest cases' SQL, captured at the
 * driver, under EXPLAIN (ANALYZE, BUFFERS), and the plan of the heaviest query in full.
 * SAVE writes a digest of each answer; COMPARE checks that a later run (e.g. after an
 * optimisation) answers every case the same. Exits 1 on a failed request or a changed answer.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { createSession } from '../server/modules/account/sessions';
import { newStaff } from '../tests/integration/support/actors';
import { loadDataset, uuidOf } from './dataset';
import { listRowsOf, loadListRows } from './dataset-lists';
import { type CaseIds, type ListCase, listCases } from './lists-cases';
import { listsSize } from './lists-size';
import { type BenchApp, clientOf, envInt, int, rowsOf, secs, startBenchApp } from './support';

const N = envInt('BENCH_ROWS', 1_000_000);
const BATCH = envInt('BENCH_BATCH', 50_000);
const RUNS = envInt('BENCH_RUNS', 20);
const GOAL_MS = 50;
/** wallet movements of the busiest wallet (wallet 1, an individual's): a tenth of N by default, at most a fifth */
const BUSY = envInt('BENCH_BUSY', Math.floor(N / 10));
const SIZE = listsSize(N, BUSY);
const WALLETS = SIZE.wallets;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const one = async (t: BenchApp, text: string) => (await rowsOf<{ v: string }>(t.database, text))[0]?.v;

async function main() {
  const counts = `${int(N)} ledger transfers, ${int(SIZE.cards)} cards, ${int(SIZE.topups)} top-ups, ${int(Math.ceil((WALLETS * 3) / 4))} individuals, ${int(Math.ceil(WALLETS / 4))} companies`;
  process.stdout.write(
    `Lists benchmark: ${counts}, ${int(SIZE.extras.audit)} audit rows\n  machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, load average ${load()}\n`,
  );
  const t = await startBenchApp();
  let failed = false;
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const started = performance.now();
    const reused = !!process.env.BENCH_REUSE_DATABASE?.trim();
    if (!reused) await loadDataset(t, SIZE, BATCH);
    const listRows = !reused || process.env.BENCH_LOAD_LIST_ROWS === '1';
    if (listRows) await loadListRows(t, SIZE, listRowsOf(N), BATCH);
    // As autovacuum leaves a table: visibility map set (index-only scans) and statistics taken.
    if (listRows) await t.ctx.db.execute(sql.raw('vacuum analyze'));
    process.stdout.write(
      `  load: ${secs(performance.now() - started)} (with vacuum analyze); database size ${await one(t, 'select pg_size_pretty(pg_database_size(current_database())) as v')}\n`,
    );
    const entries = await one(t, 'select count(*)::text as v from ledger_entries');
    const busy = await one(
      t,
      `select count(*)::text as v from ledger_entries where account_id = ${uuidOf('wallet', '1')}`,
    );
    process.stdout.write(`  ledger entries: ${int(Number(entries))}; the busiest wallet's: ${int(Number(busy))}\n`);

    const ids = {
      individual: await one(t, `select ${uuidOf('user', '1')}::text as v`),
      // wallet 40: a verified company with API credentials and webhook events, its admin not deactivated
      company: await one(t, `select ${uuidOf('company', '40')}::text as v`),
      card: await one(t, `select ${uuidOf('card', '1')}::text as v`),
      from: '2021-07-01',
      to: '2021-07-07',
      // the busiest wallet's movements are in the year's last third (each wallet's first block is its own)
      months: { from: '2021-09-01', to: '2021-12-31' },
    } as CaseIds;
    // Staff signed in after the load: a session left idle through a long load (49 min at 10,000,000) has ended.
    const admin = await newStaff(t, 'Admin');
    const superAdmin = await newStaff(t, 'Super-Admin');
    const session = async (userId: string) =>
      (await createSession(t.ctx, t.ctx.db, userId, { ip: '127.0.0.1', userAgent: 'bench' })).token;
    const tokens = {
      admin: admin.token,
      super: superAdmin.token,
      individual: await session(ids.individual),
      company: await session((await one(t, `select ${uuidOf('user', '40')}::text as v`)) as string),
    };

    const results: Array<
      ListCase & { url: string; p50: number; p95: number; runs: number; total: unknown; digest: string }
    > = [];
    process.stdout.write(
      `  ${RUNS} runs per case (5 when the first takes over 1 s); load average before the runs: ${load()}\n`,
    );
    for (const c of listCases(ids)) {
      let url = c.path;
      if (c.deep) {
        const first = await t.api<{ last_page?: number }>('GET', c.path, { token: tokens[c.who] });
        const last = first.body.last_page ?? 1;
        const deep = c.deep === 'last' ? last : Math.min(200, last);
        url = `${c.path}${c.path.includes('?') ? '&' : '?'}page=${deep}`;
      }
      const times: number[] = [];
      let body: unknown;
      for (let run = 0; run < RUNS && !(run >= 5 && times[0]! > 1000); run++) {
        const s = performance.now();
        const res = await t.api('GET', url, { token: tokens[c.who] });
        times.push(performance.now() - s);
        if (res.status !== 200) {
          process.stdout.write(`  FAILED: GET ${url} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}\n`);
          failed = true;
          break;
        }
        body = res.body;
      }
      const b = body as { total?: number; totals?: unknown; data?: unknown[] } | undefined;
      const total = b?.total ?? (Array.isArray(b?.data) ? `${b.data.length} rows` : '');
      const r = {
        ...c,
        url,
        p50: pct(times, 50),
        p95: pct(times, 95),
        runs: times.length,
        total,
        digest: createHash('sha256')
          .update(JSON.stringify(body ?? null))
          .digest('hex')
          .slice(0, 16),
      };
      results.push(r);
      const mark = r.p95 < GOAL_MS ? 'PASS' : 'FAIL';
      process.stdout.write(
        `  ${mark}  ${`${c.list} (${c.who})`.padEnd(34)} ${(c.deep ? `${c.name} (${url.match(/page=(\d+)/)?.[1]})` : c.name).padEnd(22)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms  total ${String(total)}${b?.totals ? ` ${JSON.stringify(b.totals)}` : ''}\n`,
      );
    }
    const passed = results.filter((r) => r.p95 < GOAL_MS).length;
    process.stdout.write(
      `  ${passed} of ${results.length} cases pass (p95 < ${GOAL_MS} ms); load average after the runs: ${load()}\n`,
    );

    failed = compareAnswers(results) || failed;
    await explainWorst(t, results, tokens);
  } finally {
    await t.close();
  }
  process.exit(failed ? 1 : 0);
}

/** SAVE / COMPARE: the same answer for each case as in an earlier run (same BENCH_ROWS). */
function compareAnswers(results: Array<{ list: string; name: string; who: string; digest: string }>): boolean {
  const key = (r: { list: string; name: string; who: string }) => `${r.list} (${r.who}) ${r.name}`;
  const save = process.env.BENCH_LISTS_SAVE?.trim();
  if (save)
    writeFileSync(
      save,
      JSON.stringify({ rows: N, answers: Object.fromEntries(results.map((r) => [key(r), r.digest])) }, null, 1),
    );
  const compare = process.env.BENCH_LISTS_COMPARE?.trim();
  if (!compare || !existsSync(compare)) return false;
  const before = JSON.parse(readFileSync(compare, 'utf8')) as { rows: number; answers: Record<string, string> };
  if (before.rows !== N) {
    process.stdout.write(`  answers not compared: ${compare} was taken at ${before.rows} rows\n`);
    return false;
  }
  // Staff accounts (made per run) and the fee schedule (stamped at migration) differ every run.
  const stable = results.filter((r) => r.list !== 'administrators' && r.list !== 'fees');
  const changed = stable.filter((r) => before.answers[key(r)] && before.answers[key(r)] !== r.digest).map(key);
  process.stdout.write(
    changed.length
      ? `  CHANGED ANSWERS: ${changed.join('; ')}\n`
      : `  answers: all ${stable.length} (but administrators and fees, new each run) the same as in ${compare}\n`,
  );
  return changed.length > 0;
}

/** The three slowest cases: each of their queries under EXPLAIN ANALYZE; the heaviest plan in full. */
async function explainWorst(
  t: BenchApp,
  results: Array<{ list: string; url: string; who: string; p95: number }>,
  tokens: Record<string, string>,
) {
  const client = clientOf(t.database);
  const original = client.query;
  let heaviest: { url: string; ms: number; plan: string } | null = null;
  // BENCH_LISTS_EXPLAIN=<text>: also every case whose list names it, each plan in full (e.g. "busiest").
  const also = process.env.BENCH_LISTS_EXPLAIN?.trim();
  const worst = [...results].sort((a, b) => b.p95 - a.p95).slice(0, 3);
  const named = also ? results.filter((r) => r.list.includes(also) && !worst.includes(r)) : [];
  for (const r of [...worst, ...named]) {
    const captured: Array<{ text: string; params: unknown[] }> = [];
    client.query = function (this: unknown, text: unknown, params?: unknown[], ...rest: unknown[]) {
      const s = typeof text === 'string' ? text : (text as { text: string }).text;
      captured.push({
        text: s,
        params: (Array.isArray(params) ? params : undefined) ?? (text as { values?: unknown[] }).values ?? [],
      });
      return (original as (...a: unknown[]) => ReturnType<typeof original>).call(this, text, params, ...rest);
    } as typeof original;
    try {
      await t.api('GET', r.url, { token: tokens[r.who] });
    } finally {
      client.query = original;
    }
    process.stdout.write(`  GET ${r.url} (p95 ${r.p95.toFixed(0)} ms), its queries under EXPLAIN ANALYZE:\n`);
    for (const c of captured.filter((c) => /^\s*(select|with)\b/i.test(c.text) && !/from "?sessions"?/i.test(c.text))) {
      const rows = await rowsOf<Record<string, string>>(t.database, `explain (analyze, buffers) ${c.text}`, c.params);
      const plan = rows.map((x) => Object.values(x)[0]).join('\n');
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
      process.stdout.write(`    ${ms.toFixed(1).padStart(9)} ms  ${c.text.replace(/\s+/g, ' ').slice(0, 140)}…\n`);
      if (named.includes(r)) process.stdout.write(`${c.text}\n${plan.replace(/^/gm, '      ')}\n`);
      if (!heaviest || ms > heaviest.ms) heaviest = { url: r.url, ms, plan: `${c.text}\n${plan}` };
    }
  }
  if (heaviest)
    process.stdout.write(
      `  heaviest query (${heaviest.url}, ${heaviest.ms.toFixed(1)} ms):\n${heaviest.plan.replace(/^/gm, '    ')}\n`,
    );
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
