/**
 * Benchmark: an authenticated read against the floor of the same stack.
 *
 *   node --import tsx bench/read.ts            (10 s per run; BENCH_SECONDS to change, --quick for 3 s)
 *   TEST_DATABASE_URL=postgres://… node --import tsx bench/read.ts   (PostgreSQL instead of PGlite)
 *
 * Product: `GET /api/v1/wallet/account-balance/{id}` with the session token of a customer who
 * registered, verified their email and logged in with TOTP, on the real app (production mode, no
 * jobs). Baseline, in the same process and run: a bare Fastify 5 route doing one primary-key
 * SELECT of the same wallet through the same driver (the app's own pg Pool, or its PGlite
 * in-process). Both under 50 connections from autocannon in a child process. Prints req/s,
 * p50/p99, errors and timeouts of each and the ratios, and the goals (product ≥ 50% of the
 * baseline's req/s, p99 within 2× of its p99, 0 errors and timeouts). Exits 1 when an answer is
 * wrong (a non-2xx, a connection error, a body other than the balance), not when a goal is missed.
 */
import Fastify from 'fastify';
import { formatMoney } from '@shared/money';
import { ledgerAccounts } from '../server/db/schema';
import { findWallet } from '../server/modules/ledger/accounts';
import { post } from '../server/modules/ledger/post';
import { newIndividual } from '../tests/integration/support/actors';
import { Problems, QUICK, describeRun, fixed, goal, header, loadAverage, runSeconds, settle } from './compare';
import { type LoadResult, load } from './load';
import { clientOf, startBenchApp } from './support';

const CONNECTIONS = 50;
const SECONDS = runSeconds();
const WARMUP_SECONDS = QUICK ? 1 : 2;
const BALANCE_CENTS = 12_345_678;

async function main() {
  header(
    `Authenticated read vs bare Fastify + one primary-key SELECT, ${CONNECTIONS} connections, ${SECONDS} s per run`,
  );
  const problems = new Problems();
  const t = await startBenchApp();
  const bare = Fastify({ logger: false });
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const customer = await newIndividual(t);
    const wallet = (await findWallet(t.ctx.db, customer.id))!;
    // A balance that is not the default, so a wrong row would show.
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
        reference: `BENCH-READ-${Date.now()}`,
        legs: [
          { accountId: source, amount: -BALANCE_CENTS },
          { accountId: wallet.id, amount: BALANCE_CENTS },
        ],
      }),
    );
    const expected = JSON.stringify({ data: formatMoney(BALANCE_CENTS) });

    const client = clientOf(t.database);
    bare.get<{ Params: { id: string } }>('/wallet/:id', async (req) => {
      const { rows } = await client.query('select balance from ledger_accounts where id = $1', [req.params.id]);
      return { data: formatMoney(Number(rows[0]!.balance)) };
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const address = bare.server.address();
    const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const product = { url: t.url, path: `/api/v1/wallet/account-balance/${customer.id}`, token: customer.token };
    const baseline = { url: bareUrl, path: `/wallet/${wallet.id}` };
    for (const [name, target] of [
      ['product', product],
      ['baseline', baseline],
    ] as const) {
      const res = await fetch(`${target.url}${target.path}`, {
        headers: 'token' in target ? { authorization: `Bearer ${target.token}` } : {},
      });
      const body = await res.text();
      if (res.status !== 200 || body !== expected)
        problems.add(`${name} answered ${res.status} ${body}, expected 200 ${expected}`);
    }
    if (problems.any) throw new Error('the two routes do not answer the same balance');

    const measure = async (
      name: string,
      target: { url: string; path: string; token?: string },
    ): Promise<LoadResult> => {
      await load({ kind: 'get', ...target, connections: CONNECTIONS, seconds: WARMUP_SECONDS });
      await settle();
      const before = loadAverage();
      const r = await load({ kind: 'get', ...target, connections: CONNECTIONS, seconds: SECONDS });
      process.stdout.write(`  ${name.padEnd(9)} ${describeRun(r, before)}\n`);
      for (const s of r.samples) process.stdout.write(`            e.g. ${s}\n`);
      if (r.non2xx > 0) problems.add(`${name}: ${r.non2xx} answers were not 2xx`);
      if (r.errors - r.timeouts > 0) problems.add(`${name}: ${r.errors - r.timeouts} connection errors`);
      await settle();
      return r;
    };
    const b = await measure('baseline', baseline);
    const p = await measure('product', product);

    const throughput = p.rps / b.rps;
    const tail = p.p99 / b.p99;
    process.stdout.write(
      `  ratio: req/s ${fixed(throughput, 2)} (product / baseline), p99 ${fixed(tail, 2)}× the baseline's\n`,
    );
    goal(`product req/s ≥ 50% of the baseline's (${fixed(throughput * 100, 0)}%)`, throughput >= 0.5);
    goal(`product p99 ≤ 2× the baseline's (${fixed(p.p99, 1)} ms vs ${fixed(b.p99, 1)} ms)`, tail <= 2);
    goal(
      `0 errors and 0 timeouts at ${CONNECTIONS} connections (${p.errors - p.timeouts} errors, ${p.timeouts} timeouts)`,
      p.errors === 0 && p.timeouts === 0,
    );
  } finally {
    await bare.close();
    await t.close();
  }
  process.exit(problems.any ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
