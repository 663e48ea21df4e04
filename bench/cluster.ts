/**
 * Benchmark: one and two instances on one PostgreSQL, side by side (issue 34), with metrics on and off.
 *
 *   TEST_DATABASE_URL=postgres://… node --import tsx bench/cluster.ts     (10 s per run; --quick: 3 s)
 *
 * PostgreSQL only (several processes on one database); on PGlite it says so and exits 0. The instances are real
 * server processes (`scripts/start.mjs`, NODE_ENV=production, no jobs, DATABASE_POOL_SIZE=8, LOG_LEVEL=warn) on a
 * scratch database `cw_bench_*`. Two workloads: the authenticated read of bench/read.ts
 * (`GET /api/v1/wallet/account-balance/{id}`, 50 connections) and the transfer of bench/transfer.ts
 * (`POST /api/v1/wallet/transfer` with an Idempotency-Key, 0.01 USDT between 200 wallets, 20 connections). With
 * two instances the connections are split between them, each instance driven by its own autocannon process (what
 * a load balancer would do, without one in the way); the figure is the sum. Each workload runs with every
 * instance at METRICS=on and at METRICS=off, twice, in the order on, off, off, on (fresh processes each time).
 * Prints each run with the load average before it, then a table of the means. Afterwards the ledger is checked (every transfer answered 2xx is in it once, entries sum to zero, cached
 * balances equal their entries). Exits 1 when an answer or the ledger is wrong, not for a figure.
 *
 * On a machine with fewer cores than instances plus load generators plus PostgreSQL, a second instance adds
 * processes, not capacity: read the figures with the machine's size and load average beside them.
 */
import os from 'node:os';
import { formatMoney } from '@shared/money';
import { ledgerAccounts, users } from '../server/db/schema';
import { createSession } from '../server/modules/account/sessions';
import { createWallet, findWallet } from '../server/modules/ledger/accounts';
import { post } from '../server/modules/ledger/post';
import { newIndividual } from '../tests/integration/support/actors';
import { type ServerProcess, startServer } from '../tests/integration/support/process';
import { Problems, QUICK, describeRun, fixed, header, loadAverage, runSeconds, settle } from './compare';
import { type LoadResult, load } from './load';
import { type BenchApp, rowsOf, scratchServer, startBenchApp } from './support';

const SECONDS = runSeconds();
const READ_CONNECTIONS = 50;
const TRANSFER_CONNECTIONS = 20;
const WALLETS = 200;
const FUNDS_CENTS = 1_000_000;
const BALANCE_CENTS = 12_345_678;

type Workload = 'read' | 'transfer';
interface Row {
  workload: Workload;
  metrics: 'on' | 'off';
  instances: 1 | 2;
  rps: number;
  p99: number;
  load: string;
}

async function main() {
  header(`One and two instances on one PostgreSQL, metrics on and off, ${SECONDS} s per run`);
  if (!scratchServer()) {
    process.stdout.write('  needs PostgreSQL (TEST_DATABASE_URL or BENCH_DATABASE_URL): skipped\n');
    process.exit(0);
  }
  process.stdout.write(`  cores: ${os.cpus().length}\n`);
  const problems = new Problems();
  const t = await startBenchApp();
  const servers: ServerProcess[] = [];
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const f = await fixtures(t);
    const rows: Row[] = [];
    const answered: string[] = [];
    let unanswered = 0;
    // A-B-B-A: a drift over the run (warming caches, a neighbour's load) weighs on both sides alike.
    for (const metrics of ['on', 'off', 'off', 'on'] as const) {
      const started = await Promise.all([0, 1].map(() => startServer(env(t.databaseUrl!, metrics))));
      servers.push(...started);
      for (const workload of ['read', 'transfer'] as const)
        for (const instances of [1, 2] as const) {
          const targets = started.slice(0, instances);
          const connections = workload === 'read' ? READ_CONNECTIONS : TRANSFER_CONNECTIONS;
          const plan = (s: ServerProcess, seconds: number, i: number) =>
            workload === 'read'
              ? load({
                  kind: 'get',
                  url: s.base,
                  path: f.readPath,
                  token: f.reader,
                  connections: connections / instances,
                  seconds,
                })
              : load({
                  kind: 'transfer',
                  url: s.base,
                  tokens: f.tokens,
                  wallets: f.wallets,
                  amount: '0.01',
                  tag: `CL-${metrics}-${instances}-${i}-${Date.now().toString(36)}`,
                  connections: connections / instances,
                  seconds,
                });
          // autocannon ends a run with up to one request per connection unanswered (maybe committed), as bench/transfer.ts counts
          const cutOff = (r: LoadResult) =>
            workload === 'transfer' ? connections / instances + r.timeouts + r.non2xx : 0;
          for (const w of await Promise.all(targets.map((s, i) => plan(s, QUICK ? 1 : 2, i)))) {
            answered.push(...w.references);
            unanswered += cutOff(w);
          }
          await settle();
          const before = loadAverage();
          const results = await Promise.all(targets.map((s, i) => plan(s, SECONDS, i + 10)));
          const r = sum(results);
          for (const x of results) {
            answered.push(...x.references);
            unanswered += cutOff(x);
          }
          process.stdout.write(
            `  ${workload.padEnd(8)} ${instances} instance${instances > 1 ? 's' : ' '} metrics ${metrics.padEnd(3)} ${describeRun(r, before)}\n`,
          );
          if (r.non2xx > 0)
            problems.add(`${workload} on ${instances}: ${r.non2xx} answers were not 2xx (${r.samples[0] ?? ''})`);
          if (r.errors - r.timeouts > 0)
            problems.add(`${workload} on ${instances}: ${r.errors - r.timeouts} connection errors`);
          rows.push({ workload, metrics, instances, rps: r.rps, p99: r.p99, load: before });
          await settle();
        }
      await Promise.all(started.map((s) => s.stop()));
    }
    table(rows);
    await checkLedger(t, answered, f.funded, unanswered, problems);
  } finally {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await t.close();
  }
  process.exit(problems.any ? 1 : 0);
}

const env = (url: string, metrics: 'on' | 'off') => ({
  NODE_ENV: 'production',
  DATABASE_URL: url,
  DATABASE_POOL_SIZE: '8',
  ENCRYPTION_KEY: '07'.repeat(32),
  CHAIN: 'trongrid',
  TRON_XPUB:
    'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd',
  SEED: 'none',
  RUN_JOBS: 'false',
  CHAIN_WATCH: 'false',
  METRICS: metrics,
  SHUTDOWN_DRAIN_SECONDS: '0',
});

/** Several load generators' results as one: answers and rates add up, the slowest p50/p99 stands for all. */
function sum(rs: LoadResult[]): LoadResult {
  const statuses: Record<string, number> = {};
  for (const r of rs) for (const [k, n] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  const add = (k: 'ok' | 'rps' | 'non2xx' | 'errors' | 'timeouts') => rs.reduce((s, r) => s + r[k], 0);
  return {
    ok: add('ok'),
    rps: add('rps'),
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    statuses,
    non2xx: add('non2xx'),
    errors: add('errors'),
    timeouts: add('timeouts'),
    seconds: rs[0]!.seconds,
    samples: rs.flatMap((r) => r.samples),
    references: rs.flatMap((r) => r.references),
  };
}

function table(rows: Row[]) {
  const get = (w: Workload, m: 'on' | 'off', n: 1 | 2) => {
    const runs = rows.filter((r) => r.workload === w && r.metrics === m && r.instances === n);
    const mean = (f: (r: Row) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
    return { rps: mean((r) => r.rps), p99: mean((r) => r.p99) };
  };
  process.stdout.write(
    '\n  means of the two runs of each (A-B-B-A)\n  | workload | metrics | 1 instance req/s (p99) | 2 instances req/s (p99) | 2 / 1 |\n  | --- | --- | --- | --- | --- |\n',
  );
  for (const w of ['read', 'transfer'] as const)
    for (const m of ['on', 'off'] as const) {
      const [a, b] = [get(w, m, 1), get(w, m, 2)];
      process.stdout.write(
        `  | ${w} | ${m} | ${fixed(a.rps)} (${fixed(a.p99, 1)} ms) | ${fixed(b.rps)} (${fixed(b.p99, 1)} ms) | ${fixed(b.rps / a.rps, 2)} |\n`,
      );
    }
  for (const w of ['read', 'transfer'] as const)
    for (const n of [1, 2] as const)
      process.stdout.write(
        `  metrics' cost, ${w}, ${n} instance${n > 1 ? 's' : ''}: ${fixed((1 - get(w, 'on', n).rps / get(w, 'off', n).rps) * 100, 1)}% of the throughput\n`,
      );
}

/** A reader with a known balance, and WALLETS funded wallets with a session each (as bench/transfer.ts makes them). */
async function fixtures(t: BenchApp) {
  const reader = await newIndividual(t);
  const source = crypto.randomUUID();
  await t.ctx.db
    .insert(ledgerAccounts)
    .values({ id: source, kind: 'bench_source', ownerId: crypto.randomUUID(), currency: 'USDT', allowNegative: true });
  const readerAccount = (await findWallet(t.ctx.db, reader.id))!.id;
  const people = await Promise.all(Array.from({ length: WALLETS }, () => newCustomer(t)));
  const accounts = await Promise.all(people.map(async (p) => (await findWallet(t.ctx.db, p.id))!.id));
  const funded = accounts.length * FUNDS_CENTS + BALANCE_CENTS;
  await t.ctx.db.transaction((tx) =>
    post(tx, {
      kind: 'deposit',
      reference: `BENCH-CLUSTER-${Date.now()}`,
      legs: [
        { accountId: source, amount: -funded },
        { accountId: readerAccount, amount: BALANCE_CENTS },
        ...accounts.map((accountId) => ({ accountId, amount: FUNDS_CENTS })),
      ],
    }),
  );
  const check = await fetch(`${t.url}/api/v1/wallet/account-balance/${reader.id}`, {
    headers: { authorization: `Bearer ${reader.token}` },
  });
  if ((await check.text()) !== JSON.stringify({ data: formatMoney(BALANCE_CENTS) }))
    throw new Error('the reader’s balance is wrong');
  return {
    reader: reader.token,
    readPath: `/api/v1/wallet/account-balance/${reader.id}`,
    tokens: people.map((p) => p.token),
    wallets: people.map((p) => p.id),
    funded,
  };
}

let seq = 0;
async function newCustomer(t: BenchApp) {
  const id = crypto.randomUUID();
  const now = t.ctx.now();
  await t.ctx.db.insert(users).values({
    id,
    email: `cluster.${Date.now().toString(36)}.${seq++}@example.com`,
    firstName: 'Bench',
    lastName: 'Customer',
    role: 'Individual',
    emailVerifiedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  await createWallet(t.ctx.db, id);
  const { token } = await createSession(t.ctx, t.ctx.db, id, { ip: '127.0.0.1', userAgent: 'bench' });
  return { id, token };
}

async function checkLedger(t: BenchApp, answered: string[], funded: number, unanswered: number, problems: Problems) {
  const count = async (what: string, text: string, params: unknown[] = []) => {
    const [row] = await rowsOf<{ n: string | number }>(t.database, `select count(*) as n from (${text}) x`, params);
    const n = Number(row?.n ?? 0);
    process.stdout.write(`  check: ${what}: ${n === 0 ? 'OK' : `${n} violations`}\n`);
    if (n > 0) problems.add(`${what}: ${n} violations`);
  };
  await count(
    'every transfer has entries, and they sum to zero',
    'select t.id from ledger_transfers t left join ledger_entries e on e.transfer_id = t.id group by t.id having count(e.id) < 2 or sum(e.amount) <> 0',
  );
  await count(
    "every cached balance equals the sum of its account's entries",
    `select a.id from ledger_accounts a left join (select account_id, sum(amount) s from ledger_entries group by account_id) e
       on e.account_id = a.id where a.balance <> coalesce(e.s, 0)`,
  );
  await count(
    "the customers' money is conserved",
    `select 1 from (select coalesce(sum(balance), 0) s from ledger_accounts where kind = 'wallet') w where w.s <> $1`,
    [funded],
  );
  await count(
    'every transfer answered 2xx is in the ledger exactly once',
    `select r.ref from unnest($1::text[]) r(ref) left join ledger_transfers t on t.kind = 'transfer' and t.description = r.ref
       group by r.ref having count(t.id) <> 1`,
    [answered],
  );
  const [row] = await rowsOf<{ n: string | number }>(
    t.database,
    `select count(*) as n from ledger_transfers where kind = 'transfer'`,
  );
  const extra = Number(row?.n ?? 0) - answered.length;
  process.stdout.write(`  check: transfers beyond those answered 2xx: ${extra} (at most ${unanswered} unanswered)\n`);
  if (extra < 0 || extra > unanswered) problems.add(`${extra} transfers beyond those answered`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
