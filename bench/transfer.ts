/**
 * Benchmark: wallet transfers against pgbench's TPC-B-like script on the same PostgreSQL.
 *
 *   TEST_DATABASE_URL=postgres://… node --import tsx bench/transfer.ts   (10 s per run; --quick: 3 s)
 *   node --import tsx bench/transfer.ts     (PGlite: the product's figures only; pgbench needs a server)
 *
 * Product: `POST /api/v1/wallet/transfer` with an Idempotency-Key, 0.01 USDT from a random wallet
 * to another, between two hot wallets (customers who registered and logged in with TOTP) and
 * spread over 1,000 wallets (customers written straight into the database, each with a session
 * made by the same function a login uses; before each run, each was last seen at a random moment of the minute
 * before, and the app has seen a request of each), at 10 and 50 connections. Baseline, in the same run:
 * `pgbench -c N -j 2 -T S` (built-in TPC-B-like script) on a scratch database `cw_bench_*` of the
 * same server, initialised with `pgbench -i -s BENCH_PGBENCH_SCALE` (10; 1 in quick mode). The two take
 * turns: each case's run is cut into BENCH_TRANSFER_SLICES slices (3; 1 in quick mode), pgbench then the
 * product in each, and the ratio is of all each did over all its time (each slice's ratio is printed too).
 * Beside it, what the database alone allows the product: pgbench running the transfer's own
 * database function (cw_transfer, with an idempotency key, as a request calls it, one call per
 * transaction) between the same wallets at the same concurrency, with no HTTP and no Node.
 *
 * Afterwards the ledger is checked in SQL (every transfer has entries summing to zero; every
 * cached balance equals the sum of its account's entries and the end of its chain of
 * balance_before → balance_after; no balance of an account that may not go negative is below
 * zero; the customers' money is conserved; every transfer answered 2xx is in the ledger exactly
 * once), and pgbench's own tables after each of its runs (accounts, tellers, branches and history
 * move by the same sum). Exits 1 when any of that is wrong, or an answer is not 2xx, not when a goal is missed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { inArray, sql } from 'drizzle-orm';
import { ledgerAccounts, sessions, users } from '../server/db/schema';
import { hashToken } from '../server/lib/crypto';
import { createSession } from '../server/modules/account/sessions';
import { createWallet, findWallet } from '../server/modules/ledger/accounts';
import { post } from '../server/modules/ledger/post';
import { newIndividual } from '../tests/integration/support/actors';
import { Problems, QUICK, describeRun, fixed, goal, header, loadAverage, runSeconds, settle } from './compare';
import { type LoadResult, load } from './load';
import { type BenchApp, envInt, int, rowsOf, scratchPostgres, scratchServer, secs, startBenchApp } from './support';

const run = promisify(execFile);
const SECONDS = runSeconds();
/** The baseline and the product take turns in this many slices of each case's run (BENCH_TRANSFER_SLICES). */
const SLICES = envInt('BENCH_TRANSFER_SLICES', QUICK ? 1 : 3);
/**
 * Transfers before a case's first slice (BENCH_TRANSFER_WARM_UP): after 2 s the product was still 15-25% slower in
 * that slice than in the next two (docs/history/benchmarks-to-2026-11-28.md, seventh round).
 */
const WARM_UP_SECONDS = envInt('BENCH_TRANSFER_WARM_UP', 5);
const SLICE_SECONDS = Math.max(1, Math.round(SECONDS / SLICES));
/** Transactions per second over several runs: all they did over all their time. */
const rate = (runs: [perSecond: number, seconds: number][]) =>
  runs.reduce((n, [r, s]) => n + r * s, 0) / runs.reduce((n, [, s]) => n + s, 0);
const CONCURRENCY = [10, 50];
/** BENCH_TRANSFER_CASES=10:spread,50:hot runs only those cases (for profiling one of them). */
const CASES =
  process.env.BENCH_TRANSFER_CASES?.split(',')
    .map((c) => c.trim())
    .filter(Boolean) ?? null;
const wanted = (c: number, w: Wallets) =>
  !CASES || CASES.includes(`${c}:${w.name.startsWith('two hot') ? 'hot' : 'spread'}`);
const SPREAD = 1000;
const FUNDS_CENTS = 100_000_000; // 1,000,000.00 USDT per wallet: never runs out
const AMOUNT = '0.01';
const SCALE = envInt('BENCH_PGBENCH_SCALE', QUICK ? 1 : 10);

interface Wallets {
  name: string;
  tokens: string[];
  wallets: string[];
}

async function main() {
  header(
    `Wallet transfer vs pgbench TPC-B-like, ${CONCURRENCY.join(' and ')} connections, ${SLICES} × ${SLICE_SECONDS} s per run, the baseline and the product taking turns`,
  );
  const problems = new Problems();
  const server = scratchServer();
  const t = await startBenchApp();
  const pgbench = server ? await scratchPostgres(server) : null;
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const started = performance.now();
    const { hot, spread, funded } = await fixtures(t);
    process.stdout.write(
      `  wallets: 2 hot (real logins), ${int(SPREAD)} spread (sessions made directly), ${int(funded / 100)} USDT in all, set up in ${secs(performance.now() - started)}\n`,
    );
    if (pgbench) {
      const initStarted = performance.now();
      await run('pgbench', ['-i', '-q', '-s', String(SCALE), pgbench.url]);
      process.stdout.write(
        `  pgbench: initialised scale ${SCALE} (${int(SCALE * 100_000)} accounts) in ${secs(performance.now() - initStarted)}, on ${pgbench.version}\n`,
      );
    } else {
      process.stdout.write(
        '  pgbench: not run (it needs a PostgreSQL server: set BENCH_DATABASE_URL or TEST_DATABASE_URL)\n',
      );
    }

    const answered: string[] = [];
    // autocannon ends each run with up to one request per connection unanswered, and gives up on
    // a request after its timeout; those may have committed without an answer seen.
    let unanswered = 0;
    const transfer = async (w: Wallets, connections: number, seconds: number, tag: string): Promise<LoadResult> => {
      const r = await load({
        kind: 'transfer',
        url: t.url,
        tokens: w.tokens,
        wallets: w.wallets,
        amount: AMOUNT,
        tag,
        connections,
        seconds,
      });
      unanswered += connections + r.timeouts;
      answered.push(...r.references);
      if (r.references.length !== r.ok)
        problems.add(`the load generator saw ${r.ok} 2xx answers but kept ${r.references.length} references`);
      for (const s of r.samples) process.stdout.write(`      e.g. ${s}\n`);
      if (r.non2xx > 0)
        problems.add(`transfers (${w.name}, ${connections} connections): ${r.non2xx} answers were not 2xx`);
      if (r.errors - r.timeouts > 0)
        problems.add(`transfers (${w.name}, ${connections} connections): ${r.errors - r.timeouts} connection errors`);
      return r;
    };

    const scripts = t.databaseUrl ? await functionScripts(t.databaseUrl, { hot, spread }) : null;
    // Each run starts with the mail of the runs before it sent (each transfer's receiver gets one, sent after the
    // answer): measured left over, it went on through the next run and weighed on its figure, not its own.
    const quiet = async () => {
      const started = performance.now();
      await t.ctx.background.settled();
      const took = performance.now() - started;
      if (took > 500) process.stdout.write(`  (the earlier runs' mail was still going out: sent in ${secs(took)})\n`);
      await settle();
    };
    const rows: string[] = [];
    for (const c of CONCURRENCY) {
      const cases = [hot, spread].filter((w) => wanted(c, w));
      if (!cases.length) continue;
      // The baseline and the product take turns, slice by slice, so that both meet the same moments of a shared
      // machine: run one after the other, minutes apart, their ratio moved as much as any change to the product did.
      const base: { tps: number; seconds: number }[] = [];
      const product = new Map<Wallets, LoadResult[]>(cases.map((w) => [w, []]));
      const alone = new Map<Wallets, { tps: number } | null>();
      for (let slice = 0; slice < SLICES; slice++) {
        await quiet();
        if (pgbench)
          base.push({ ...(await runPgbench(pgbench.url, c, SLICE_SECONDS, problems)), seconds: SLICE_SECONDS });
        for (const w of cases) {
          if (slice === 0) {
            await quiet();
            alone.set(w, scripts ? await runFunction(t.databaseUrl!, scripts.of(w), w.name, c, problems) : null);
            // Warm-up right before the first slice (its transfers are checked with the others): the customers'
            // sessions are then as fresh as an active customer's (each is checked against the database once a
            // minute), not all due at once after the minute the baselines took.
            await active(t, w);
            await transfer(w, 10, QUICK ? 1 : WARM_UP_SECONDS, `W${c}${w.name[0]}`);
          }
          await quiet();
          const before = loadAverage();
          const r = await transfer(w, c, SLICE_SECONDS, `R${c}${w.name[0]}${slice}`);
          process.stdout.write(
            `  product, ${w.name}, ${c} connections, slice ${slice + 1}: ${describeRun(r, before)}\n`,
          );
          product.get(w)!.push(r);
        }
      }
      const baseTps = base.length ? rate(base.map((b) => [b.tps, b.seconds])) : NaN;
      for (const w of cases) {
        const runs = product.get(w)!;
        const tps = rate(runs.map((r) => [r.rps, r.seconds]));
        const p99 = Math.max(...runs.map((r) => r.p99));
        const ok = runs.every((r) => r.ok > 0);
        const ratio = tps / baseTps;
        const slices = base.length ? runs.map((r, i) => fixed(r.rps / base[i]!.tps, 2)).join(', ') : '';
        const a = alone.get(w);
        rows.push(
          `  ${String(c).padStart(2)} connections, ${w.name.padEnd(16)} product ${fixed(tps, 0).padStart(5)} tps, p99 ${(ok ? `${fixed(p99, 0)} ms` : '—').padStart(8)} | ` +
            (base.length
              ? `pgbench ${fixed(baseTps, 0).padStart(5)} tps | ratio ${fixed(ratio, 2)}${SLICES > 1 ? ` (slices ${slices})` : ''}`
              : 'pgbench not run') +
            (a
              ? ` | cw_transfer alone ${fixed(a.tps, 0).padStart(5)} tps (product ${fixed(tps / a.tps, 2)} of it)`
              : ''),
        );
        if (base.length)
          goal(
            `transfers (${w.name}, ${c} connections) ≥ 50% of pgbench's tps (${fixed(ratio * 100, 0)}%)`,
            ratio >= 0.5,
          );
      }
    }
    process.stdout.write(`  summary:\n${rows.join('\n')}\n`);
    scripts?.remove();

    await settle(3000); // the requests cut off at the end of the last run finish meanwhile
    const violations = await checkLedger(t, answered, funded, unanswered, problems);
    goal(
      `0 invariant violations after ${int(answered.length)} transfers answered 2xx (${violations})`,
      violations === 0,
    );
  } finally {
    try {
      await t.close();
    } finally {
      await pgbench?.drop();
    }
  }
  process.exit(problems.any ? 1 : 0);
}

/**
 * The customers as active ones are at any moment: each last seen at a random moment of the last minute, and known
 * to the app from a request of theirs. Their sessions' once-a-minute check against the database then comes due
 * spread over the run, as it does for a crowd of customers, not for all 1,000 in the same second (sessions made
 * together and checked together lapse together).
 */
async function active(t: BenchApp, w: Wallets) {
  await t.ctx.db
    .update(sessions)
    .set({ lastSeenAt: sql`now() - random() * interval '60 seconds'` })
    .where(inArray(sessions.userId, w.wallets));
  for (const token of w.tokens) t.ctx.sessions.drop(hashToken(token));
  for (let i = 0; i < w.tokens.length; i += 50)
    await Promise.all(
      w.tokens.slice(i, i + 50).map(async (token, k) => {
        const res = await fetch(`${t.url}/api/v1/wallet/account-balance/${w.wallets[i + k]}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`a customer's balance answered ${res.status}`);
      }),
    );
}

/** Two customers who log in for real, 1,000 more written directly, every wallet funded from outside. */
async function fixtures(t: BenchApp) {
  const a = await newIndividual(t);
  const b = await newIndividual(t);
  const hot: Wallets = { name: 'two hot wallets', tokens: [a.token, b.token], wallets: [a.id, b.id] };
  const tag = Date.now().toString(36);
  const ids = Array.from({ length: SPREAD }, () => crypto.randomUUID());
  const now = t.ctx.now();
  for (let i = 0; i < SPREAD; i += 250) {
    await t.ctx.db.insert(users).values(
      ids.slice(i, i + 250).map((id, k) => ({
        id,
        email: `bench.${tag}.${i + k}@example.com`,
        firstName: 'Bench',
        lastName: `Customer ${i + k}`,
        role: 'Individual',
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  const tokens: string[] = [];
  for (let i = 0; i < SPREAD; i += 50) {
    const chunk = ids.slice(i, i + 50);
    await Promise.all(chunk.map((id) => createWallet(t.ctx.db, id)));
    const sessions = await Promise.all(
      chunk.map((id) => createSession(t.ctx, t.ctx.db, id, { ip: '127.0.0.1', userAgent: 'bench' })),
    );
    tokens.push(...sessions.map((s) => s.token));
  }
  const spread: Wallets = { name: `${SPREAD} wallets`, tokens, wallets: ids };

  const source = crypto.randomUUID();
  await t.ctx.db
    .insert(ledgerAccounts)
    .values({ id: source, kind: 'bench_source', ownerId: crypto.randomUUID(), currency: 'USDT', allowNegative: true });
  const accounts = await Promise.all([...hot.wallets, ...ids].map(async (id) => (await findWallet(t.ctx.db, id))!.id));
  const funded = accounts.length * FUNDS_CENTS;
  await t.ctx.db.transaction((tx) =>
    post(tx, {
      kind: 'deposit',
      reference: `BENCH-FUND-${tag}`,
      legs: [
        { accountId: source, amount: -funded },
        ...accounts.map((accountId) => ({ accountId, amount: FUNDS_CENTS })),
      ],
    }),
  );
  return { hot, spread, funded };
}

async function runPgbench(url: string, clients: number, seconds: number, problems: Problems): Promise<{ tps: number }> {
  const before = await pgbenchSums(url);
  const load = loadAverage();
  const { stdout } = await run('pgbench', ['-c', String(clients), '-j', '2', '-T', String(seconds), url]);
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  const latency = /latency average = ([\d.]+ ms)/.exec(stdout)?.[1] ?? '?';
  process.stdout.write(
    `  pgbench TPC-B-like, ${clients} connections: ${fixed(tps, 0)} tps, latency average ${latency}, ${failed} failed [load ${load}]\n`,
  );
  if (!Number.isFinite(tps)) problems.add(`pgbench printed no tps:\n${stdout}`);
  if (failed > 0) problems.add(`pgbench: ${failed} failed transactions`);
  // TPC-B moves the same delta into an account, its teller and its branch, and logs it in the
  // history (which pgbench empties before each run).
  const after = await pgbenchSums(url);
  const moved = [after.a - before.a, after.t - before.t, after.b - before.b, after.h];
  if (new Set(moved.map(String)).size !== 1)
    problems.add(`pgbench's tables disagree: accounts, tellers, branches and history moved ${moved.join(', ')}`);
  return { tps };
}

/**
 * pgbench scripts that call cw_transfer as a request does (fresh ids, an idempotency key, the
 * answer to store) from a random wallet of a set to another; the wallets are numbered in a table
 * of the scratch database. Their transfers are told apart by the description 'pgbench …'.
 */
async function functionScripts(url: string, sets: Record<string, Wallets>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create table cw_bench_wallets (set_name text, n int, owner uuid, primary key (set_name, n))');
    for (const [name, w] of Object.entries(sets))
      await client.query(
        'insert into cw_bench_wallets select $1, n::int, owner from unnest($2::uuid[]) with ordinality as x(owner, n)',
        [name, w.wallets],
      );
  } finally {
    await client.end();
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cw-pgbench-'));
  const files = new Map<Wallets, string>();
  for (const [name, w] of Object.entries(sets)) {
    const n = w.wallets.length;
    const file = path.join(dir, `${name}.sql`);
    writeFileSync(
      file,
      `\\set a random(1, ${n})\n\\set b random(1, ${n - 1})\n` +
        `select outcome from cw_bench_wallets f, cw_bench_wallets t, cw_transfer(f.owner, t.owner, 1, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), ` +
        `'PGB-' || gen_random_uuid(), 'pgbench ' || gen_random_uuid(), '{"reference":null}'::jsonb, f.owner, now(), 'pgbench', gen_random_uuid()::text, 'hash', ` +
        `'{"message":"Transfer completed.","to_name":"__cw_to_name__","balance_before":"__cw_balance_before__","balance_after":"__cw_balance_after__"}') ` +
        `where f.set_name = '${name}' and f.n = :a and t.set_name = '${name}' and t.n = ((:a + :b - 1) % ${n}) + 1;\n`,
    );
    files.set(w, file);
  }
  return { of: (w: Wallets) => files.get(w)!, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function runFunction(url: string, script: string, name: string, clients: number, problems: Problems) {
  const before = loadAverage();
  const { stdout } = await run('pgbench', [
    '-n',
    '-c',
    String(clients),
    '-j',
    '2',
    '-T',
    String(Math.round(SECONDS)),
    '-f',
    script,
    url,
  ]);
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
  process.stdout.write(
    `  cw_transfer alone (pgbench -f), ${name}, ${clients} connections: ${fixed(tps, 0)} tps, ${failed} failed [load ${before}]\n`,
  );
  if (!Number.isFinite(tps)) problems.add(`pgbench (cw_transfer) printed no tps:\n${stdout}`);
  if (failed > 0) problems.add(`pgbench (cw_transfer): ${failed} failed transactions`);
  return { tps };
}

async function pgbenchSums(url: string): Promise<{ a: bigint; t: bigint; b: bigint; h: bigint }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ a: string; t: string; b: string; h: string }>(
      `select (select coalesce(sum(abalance), 0) from pgbench_accounts) a, (select coalesce(sum(tbalance), 0) from pgbench_tellers) t,
              (select coalesce(sum(bbalance), 0) from pgbench_branches) b, (select coalesce(sum(delta), 0) from pgbench_history) h`,
    );
    const s = rows[0]!;
    return { a: BigInt(s.a), t: BigInt(s.t), b: BigInt(s.b), h: BigInt(s.h) };
  } finally {
    await c.end();
  }
}

/** The ledger's invariants, in SQL; returns the number of violations found. */
async function checkLedger(
  t: BenchApp,
  answered: string[],
  funded: number,
  unanswered: number,
  problems: Problems,
): Promise<number> {
  const count = async (what: string, text: string, params: unknown[] = []) => {
    const [row] = await rowsOf<{ n: string | number }>(t.database, `select count(*) as n from (${text}) x`, params);
    const n = Number(row?.n ?? 0);
    process.stdout.write(`  check: ${what}: ${n === 0 ? 'OK' : `${n} violations`}\n`);
    if (n > 0) problems.add(`${what}: ${n} violations`);
    return n;
  };
  let v = 0;
  v += await count(
    'every transfer has entries, and they sum to zero',
    `select t.id from ledger_transfers t left join ledger_entries e on e.transfer_id = t.id group by t.id having count(e.id) < 2 or sum(e.amount) <> 0`,
  );
  v += await count(
    "every cached balance equals the sum of its account's entries",
    `select a.id from ledger_accounts a left join (select account_id, sum(amount) s from ledger_entries group by account_id) e on e.account_id = a.id
     where a.balance <> coalesce(e.s, 0)`,
  );
  // Each entry continues from another's balance_after (or from 0) and the chain ends at the
  // cached balance: as multisets, befores + {cached} = afters + {0}. Timestamps cannot order
  // the entries (a transfer's time is taken before it waits for its locks).
  v += await count(
    'every cached balance is the last balance_after of its chain of entries',
    `select account_id, v from (
       select account_id, balance_before v, 1 c from ledger_entries
       union all select account_id, balance_after, -1 from ledger_entries
       union all select id, balance, 1 from ledger_accounts
       union all select id, 0, -1 from ledger_accounts
     ) m group by account_id, v having sum(c) <> 0`,
  );
  v += await count(
    'no account that may not go negative has a negative balance or entry',
    `select a.id from ledger_accounts a where not a.allow_negative and (a.balance < 0 or exists (select 1 from ledger_entries e where e.account_id = a.id and e.balance_after < 0))`,
  );
  v += await count(
    "the customers' money is conserved (wallet balances sum to what was funded)",
    `select 1 from (select coalesce(sum(balance), 0) s from ledger_accounts where kind = 'wallet') w where w.s <> $1`,
    [funded],
  );
  v += await count(
    'every transfer answered 2xx is in the ledger exactly once',
    `select r.ref from unnest($1::text[]) r(ref) left join ledger_transfers t on t.kind = 'transfer' and t.description = r.ref group by r.ref having count(t.id) <> 1`,
    [answered],
  );
  v += await count(
    'no client reference was posted twice',
    `select description from ledger_transfers where kind = 'transfer' and description not like 'pgbench %' group by description having count(*) > 1`,
  );
  const [row] = await rowsOf<{ n: string | number }>(
    t.database,
    `select count(*) as n from ledger_transfers where kind = 'transfer' and description not like 'pgbench %'`,
  );
  const extra = Number(row?.n ?? 0) - answered.length;
  const ok = extra >= 0 && extra <= unanswered;
  process.stdout.write(
    `  check: transfers in the ledger beyond those answered 2xx: ${extra} (at most ${unanswered} were cut off at the end of a run or timed out): ${ok ? 'OK' : 'WRONG'}\n`,
  );
  if (!ok) {
    problems.add(
      `${extra} transfers in the ledger beyond the ${answered.length} answered 2xx (at most ${unanswered} may have been cut off)`,
    );
    v++;
  }
  return v;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
