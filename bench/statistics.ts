/**
 * Benchmark: GET /reports/view-statistics (the staff Statistics screen) over a 90-day range,
 * with BENCH_ROWS ledger transfers and BENCH_ROWS card transactions (default 200,000 each)
 * spread over one year, plus BENCH_ROWS/100 cards, BENCH_ROWS/10 top-ups and BENCH_ROWS/1000
 * wallets (every fourth a company's).
 *
 *   node --import tsx bench/statistics.ts
 *   BENCH_ROWS=20000 node --import tsx bench/statistics.ts   (BENCH_BATCH: rows per insert, 50,000)
 *
 * Everything is written straight into the database in batches. Prints each of 5 timed requests
 * and their median, then EXPLAIN (ANALYZE, BUFFERS) of the report's heaviest query, found by
 * running each of the report's queries under EXPLAIN ANALYZE. Exits 1 when a figure the
 * benchmark can compute itself is wrong.
 */
import { sql } from 'drizzle-orm';
import { formatMoney } from '../shared/money';
import { dayRange } from '../server/lib/dates';
import { PLATFORM } from '../server/modules/ledger/accounts';
import { statistics } from '../server/modules/statistics/queries';
import { newStaff } from '../tests/integration/support/actors';
import { clientOf, envInt, inBatches, int, median, mib, rowsOf, sampleMemory, secs, startBenchApp, withoutLedgerGuards } from './support';

const N = envInt('BENCH_ROWS', 200_000);
const BATCH = envInt('BENCH_BATCH', 50_000);
const RUNS = 5;
const WALLETS = Math.max(8, Math.floor(N / 1000));
const CARDS = Math.max(10, Math.floor(N / 100));
const TOPUPS = Math.max(10, Math.floor(N / 10));
const BASE_MS = Date.parse('2021-01-01T00:00:00.000Z');
const YEAR_MS = 365 * 86_400_000;
/** Row i of a table of n rows is at BASE + i × (one year / n), whole milliseconds. */
const stepOf = (n: number) => Math.floor(YEAR_MS / n);
const RANGE = { start: '2021-04-01', end: '2021-06-29' }; // 90 days, both inclusive
const BASE = new Date(BASE_MS).toISOString();

/**
 * Transfer i is leg set i % 10 of block i / 10, on wallet (i / 10) % WALLETS and card
 * (i / 10) % CARDS: each block credits the wallet before debiting it and funds the card before
 * charging it, so no balance ever goes below zero. Amounts in cents: [kind, fee, legs].
 */
const LEGS = `
  (values
    (0, 'deposit',            100, -10000::bigint, 9900::bigint,    0::bigint,   0::bigint, 100::bigint),
    (1, 'issuance',            35,      0,        -1035,         1000,           0,          35),
    (2, 'maintenance',        100,      0,            0,         -100,           0,         100),
    (3, 'card_authorization',   0,      0,            0,         -200,         200,           0),
    (4, 'topup',               25,      0,         -525,          500,           0,          25),
    (5, 'withdraw',            57,      0,          100,         -157,           0,          57),
    (6, 'deposit',            200, -20000,        19800,            0,           0,         200),
    (7, 'maintenance',        100,      0,            0,         -100,           0,         100),
    (8, 'deposit',             50,  -5000,         4950,            0,           0,          50),
    (9, 'card_authorization',   0,      0,            0,         -300,         300,           0)
  ) as k(k, kind, fee, tron, wallet, card, hold, income)`;

const uuidOf = (tag: string, expr: string) => `md5('bench-${tag}-' || (${expr}))::uuid`;

async function main() {
  process.stdout.write(`Statistics benchmark: ${int(N)} ledger transfers, ${int(N)} card transactions, ${int(CARDS)} cards, ${int(TOPUPS)} top-ups, ${int(WALLETS)} wallets\n`);
  const t = await startBenchApp();
  let failed = false;
  try {
    process.stdout.write(`  database: ${t.label}\n`);
    const admin = await newStaff(t, 'Admin');
    const exec = (text: string) => t.ctx.db.execute(sql.raw(text));
    const loadStarted = performance.now();

    // Owners and their wallets: every fourth wallet a company's, with its Company-Admin.
    await exec(`
      insert into companies (id, company_name, company_website, company_email, company_phone, state, created_at)
      select ${uuidOf('company', 'w')}, 'Bench Co ' || w, 'https://bench.example.com', 'co' || w || '@bench.example.com', '+233302000000', 'Verified', '${BASE}'
      from generate_series(0, ${WALLETS - 1}) as g(w) where w % 4 = 0`);
    await exec(`
      insert into users (id, email, first_name, last_name, role, company_id, state, email_verified_at, created_at)
      select ${uuidOf('user', 'w')}, 'user' || w || '@bench.example.com', 'Bench', 'User ' || w,
             case when w % 4 = 0 then 'Company-Admin' else 'Individual' end, case when w % 4 = 0 then ${uuidOf('company', 'w')} end,
             'Verified', '${BASE}', '${BASE}'
      from generate_series(0, ${WALLETS - 1}) as g(w)`);
    const ownerOf = (w: string) => `case when (${w}) % 4 = 0 then ${uuidOf('company', w)} else ${uuidOf('user', w)} end`;
    await exec(`
      insert into ledger_accounts (id, kind, owner_id, currency)
      select ${uuidOf('wallet', 'w')}, 'wallet', ${ownerOf('w')}, 'USDT' from generate_series(0, ${WALLETS - 1}) as g(w)`);

    // Cards of every purpose, type and state, created through the year, with their two accounts.
    await inBatches(CARDS, BATCH, 'cards', async (from, to) => {
      await exec(`
        insert into cards (id, wallet_id, created_by, first_name, last_name, nickname, purpose, type, issuer_token, last4, masked_number, exp_month, exp_year, billing, state, deleted_at, created_at, updated_at)
        select ${uuidOf('card', 'c')}, ${ownerOf('c % ' + WALLETS)}, ${uuidOf('user', 'c % ' + WALLETS)}, 'Bench', 'Card', 'bench-' || c,
               (array['general', 'media', 'tokencard'])[1 + c % 3], case when c % 2 = 0 then 'basic' else 'premium' end,
               'bench-' || c, '4242', '4242 **** **** 4242', 12, 2030, '{}'::jsonb,
               case when c % 5 = 0 then 'Deactivated' else 'Active' end,
               case when c % 11 = 0 then at end, at, at
        from (select c, '${BASE}'::timestamptz + c * interval '${stepOf(CARDS)} milliseconds' as at from generate_series(${from - 1}, ${to - 1}) as g(c)) s`);
      await exec(`
        insert into ledger_accounts (id, kind, owner_id, currency)
        select ${uuidOf('card-account', 'c')}, 'card', ${uuidOf('card', 'c')}, 'USD' from generate_series(${from - 1}, ${to - 1}) as g(c)
        union all
        select ${uuidOf('hold-account', 'c')}, 'card_hold', ${uuidOf('card', 'c')}, 'USD' from generate_series(${from - 1}, ${to - 1}) as g(c)`);
    });

    // Ledger transfers and their entries, each leg's balance continuing from its account's last entry.
    await withoutLedgerGuards(exec, async () => {
      await inBatches(N, BATCH, 'ledger transfers', async (from, to) => {
        const batch = `
          select i, k.*, ${uuidOf('wallet', `(i / 10) % ${WALLETS}`)} as wallet_acc, ${uuidOf('card-account', `(i / 10) % ${CARDS}`)} as card_acc,
                 ${uuidOf('hold-account', `(i / 10) % ${CARDS}`)} as hold_acc, '${BASE}'::timestamptz + i * interval '${stepOf(N)} milliseconds' as at
          from generate_series(${from - 1}, ${to - 1}) as g(i) join ${LEGS} on k.k = i % 10`;
        await exec(`
          insert into ledger_transfers (id, kind, reference, description, meta, created_at)
          select ${uuidOf('transfer', 'i')}, kind, 'BENCH-' || lpad(i::text, 8, '0'), 'Statistics benchmark', jsonb_build_object('fees_total', fee), at
          from (${batch}) b`);
        await exec(`
          with b as (${batch}),
          legs as (
            select b.i, b.at, l.acc, l.amount from b
            cross join lateral (values ('${PLATFORM.tronDeposits}'::uuid, b.tron), (b.wallet_acc, b.wallet), (b.card_acc, b.card), (b.hold_acc, b.hold), ('${PLATFORM.feeIncome}'::uuid, b.income)) as l(acc, amount)
            where l.amount <> 0
          ),
          carried as materialized (
            select a.id, coalesce((select e.balance_after from ledger_entries e where e.account_id = a.id order by e.created_at desc, e.id desc limit 1), 0) as balance
            from ledger_accounts a where a.id in (select distinct acc from legs)
          )
          insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
          select gen_random_uuid(), ${uuidOf('transfer', 'i')}, acc, amount, c.balance + run - amount, c.balance + run, at
          from (select legs.*, sum(amount) over (partition by acc order by i) as run from legs) r join carried c on c.id = r.acc`);
    });
    await exec(`
      update ledger_accounts a set balance = last.balance_after
      from (select distinct on (account_id) account_id, balance_after from ledger_entries order by account_id, created_at desc, id desc) last
      where last.account_id = a.id`);
    });

    // Card transactions: authorisations of every outcome, settlements and reversals.
    await inBatches(N, BATCH, 'card transactions', async (from, to) => {
      await exec(`
        insert into card_transactions (id, card_id, kind, status, amount, merchant, country, description, created_at, updated_at)
        select ${uuidOf('card-tx', 'i')}, ${uuidOf('card', `i % ${CARDS}`)},
               case when i % 10 < 7 then 'authorization' when i % 10 < 9 then 'settlement' else 'reversal' end,
               case when i % 10 >= 7 then 'settled' else (array['approved', 'settled', 'declined', 'reversed'])[1 + i % 4] end,
               100 + i % 5000, 'Bench Shop', 'GH', 'Bench purchase', at, at
        from (select i, '${BASE}'::timestamptz + i * interval '${stepOf(N)} milliseconds' as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
    });

    // Top-up requests: three in five approved, decided through the year.
    await inBatches(TOPUPS, BATCH, 'top-ups', async (from, to) => {
      await exec(`
        insert into topups (id, wallet_id, reference, code, method, amount, state, created_by, decided_at, created_at, updated_at)
        select ${uuidOf('topup', 'i')}, ${ownerOf(`i % ${WALLETS}`)}, 'BENCH-TP-' || lpad(i::text, 8, '0'), lpad((i % 1000000)::text, 6, '0'),
               case when i % 2 = 0 then 'Tron' else 'Momo' end, 1000 + i % 90000,
               (array['Approved', 'Approved', 'Approved', 'Denied', 'Pending'])[1 + i % 5], ${uuidOf('user', `i % ${WALLETS}`)},
               case when i % 5 < 4 then at end, at, at
        from (select i, '${BASE}'::timestamptz + i * interval '${stepOf(TOPUPS)} milliseconds' as at from generate_series(${from - 1}, ${to - 1}) as g(i)) s`);
    });
    await exec('analyze');
    process.stdout.write(`  load: ${secs(performance.now() - loadStarted)} in all (with analyze)\n`);
    const [size] = await rowsOf<{ size: string }>(t.database, `select pg_size_pretty(pg_database_size(current_database())) as size`);
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

    // Figures this benchmark can compute from its own fixtures.
    const want = expected();
    const checks = Object.entries(want).filter(([k, v]) => body?.[k] !== v).map(([k, v]) => `${k} = ${JSON.stringify(body?.[k])}, expected ${JSON.stringify(v)}`);
    process.stdout.write(checks.length ? `  FAILED: ${checks.join('; ')}\n` : `  checks: ${Object.keys(want).join(', ')} OK\n`);
    failed = checks.length > 0;

    // Each of the report's queries under EXPLAIN ANALYZE; the heaviest one's plan in full.
    const client = clientOf(t.database);
    const captured: Array<{ text: string; params: unknown[] }> = [];
    const original = client.query;
    client.query = function (this: unknown, text: unknown, params?: unknown[], ...rest: unknown[]) {
      const s = typeof text === 'string' ? text : (text as { text: string }).text;
      captured.push({ text: s, params: params ?? (text as { values?: unknown[] }).values ?? [] });
      return (original as (...a: unknown[]) => ReturnType<typeof original>).call(this, text, params, ...rest);
    } as typeof original;
    try {
      await statistics(t.ctx.db, dayRange(RANGE.start, RANGE.end));
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
    process.stdout.write(`  the report's ${plans.length} queries, by execution time under EXPLAIN ANALYZE:\n`);
    for (const p of plans) process.stdout.write(`    ${p.ms.toFixed(1).padStart(9)} ms  ${p.text.replace(/\s+/g, ' ').slice(0, 110)}…\n`);
    if (plans[0]) process.stdout.write(`  heaviest query's plan:\n${plans[0].plan.replace(/^/gm, '    ')}\n`);
    process.stdout.write(`  process RSS at the end: ${mib(process.memoryUsage().rss)}\n`);
  } finally {
    await t.close();
  }
  process.exit(failed ? 1 : 0);
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
  for (let i = 0; i < N; i++) {
    if (i % 10 < 7 && i % 4 < 2 && inRange(i, N)) {
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
