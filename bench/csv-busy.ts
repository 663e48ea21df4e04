/**
 * The CSV export of the busiest wallet's own movements (issue 35): bench/csv-export.ts runs this when
 * BENCH_BUSY is set (the movements wanted in wallet 1, e.g. 1000000).
 *
 *   BENCH_ROWS=2000000 BENCH_BUSY=1000000 node --import tsx bench/csv-export.ts
 *   BENCH_KEEP_DATABASE=1, then BENCH_REUSE_DATABASE=<its url>: again without loading
 *   BENCH_CSV_ALL_WALLETS=1: the staff's export of every wallet's movements as well
 *   (bench/statistics.ts answers over the same database with the same BENCH_ROWS and BENCH_BUSY)
 *
 * The shared history (bench/dataset.ts) sized by busySize below, then wallet 1's movements as CSV,
 * GET /reports/view-wallet-transactions?wallet=…&format=csv, twice: as its owner (the customer app's
 * export) and as an Admin (the back-office's export of that wallet). Each is checked: every movement
 * of the wallet, its newest row ending at the wallet's balance, its oldest starting from zero.
 */
import { sql } from 'drizzle-orm';
import { formatMoney } from '@shared/money';
import { createSession } from '../server/modules/account/sessions';
import { newStaff } from '../tests/integration/support/actors';
import { type CsvRead, describeCsv, readCsv } from './csv-read';
import { type DatasetSize, loadDataset, uuidOf } from './dataset';
import { type BenchApp, int, rowsOf, secs } from './support';

/**
 * The issue's proportions (N/10 cards, top-ups; N/5 card transactions) with fewer wallets (N/100)
 * than the lists' N/15, so that wallet 1 can hold a million movements at N = 2,000,000: six in ten
 * transfers move a wallet, and busyPerMille of the blocks after each wallet's first go to wallet 1.
 */
export function busySize(n: number, busy: number): DatasetSize {
  const wallets = Math.max(16, Math.floor(n / 100));
  const blocks = Math.floor(n / 10) - wallets;
  return {
    wallets,
    cards: Math.max(10, Math.floor(n / 10)),
    transfers: n,
    cardTransactions: Math.max(10, Math.floor(n / 5)),
    topups: Math.max(10, Math.floor(n / 10)),
    busyPerMille: Math.min(1000, Math.ceil((busy * 1000) / (6 * blocks))),
  };
}

const one = async (t: BenchApp, text: string) => (await rowsOf<{ v: string }>(t.database, text))[0]?.v;

/** Loads (unless reused) and exports; returns the failed checks. */
export async function busyWalletCsv(t: BenchApp, n: number, busy: number, batch: number): Promise<string[]> {
  const size = busySize(n, busy);
  if (!process.env.BENCH_REUSE_DATABASE?.trim()) {
    const started = performance.now();
    await loadDataset(t, size, batch);
    await t.ctx.db.execute(sql.raw('vacuum analyze'));
    process.stdout.write(`  load: ${secs(performance.now() - started)} (with vacuum analyze)\n`);
  }
  const account = uuidOf('wallet', '1');
  const owner = (await one(t, `select ${uuidOf('user', '1')}::text as v`))!;
  const entries = Number(await one(t, `select count(*)::text as v from ledger_entries where account_id = ${account}`));
  const balance = Number(await one(t, `select balance::text as v from ledger_accounts where id = ${account}`));
  process.stdout.write(
    `  ${int(size.transfers)} transfers, ${int(size.wallets)} wallets, ${int(size.cards)} cards; database size ${await one(t, 'select pg_size_pretty(pg_database_size(current_database())) as v')}\n` +
      `  wallet 1: ${int(entries)} movements, balance ${formatMoney(balance)}\n`,
  );
  const customer = (await createSession(t.ctx, t.ctx.db, owner, { ip: '127.0.0.1', userAgent: 'bench' })).token;
  const admin = (await newStaff(t, 'Admin')).token;
  const url = `${t.url}/api/v1/reports/view-wallet-transactions?wallet=${owner}&format=csv`;
  // One month of it too (about a tenth of the rows): memory that does not grow with the rows peaks no lower.
  const month = `select count(*)::text as v from ledger_entries where account_id = ${account} and created_at >= '2021-10-01Z' and created_at < '2021-11-01Z'`;
  const monthly = Number(await one(t, month));
  const monthBalance = Number(
    await one(
      t,
      `select balance_after::text as v from ledger_entries where account_id = ${account} and created_at < '2021-11-01Z' order by created_at desc, id desc limit 1`,
    ),
  );
  const failed: string[] = [];
  for (const [who, token, query, rows, last] of [
    ['customer, one month (2021-10)', customer, '&start_date=2021-10-01&end_date=2021-10-31', monthly, monthBalance],
    ['customer', customer, '', entries, balance],
    ['staff (Admin)', admin, '', entries, balance],
  ] as const) {
    process.stdout.write(`  ${who}: GET /reports/view-wallet-transactions?wallet=…&format=csv${query}\n`);
    const r = await readCsv(`${url}${query}`, token);
    const checks = checkExport(r, rows, last, !query);
    process.stdout.write(
      `${[...describeCsv(r), checks.length ? `  FAILED: ${checks.join('; ')}` : '  checks: rows, first and last balances OK'].join('\n')}\n`,
    );
    failed.push(...checks.map((c) => `${who}: ${c}`));
  }
  // BENCH_CSV_ALL_WALLETS=1: the back-office's export of every wallet's movements too (no wallet named).
  if (process.env.BENCH_CSV_ALL_WALLETS === '1') {
    const all = Number(await one(t, 'select count(*)::text as v from wallet_entries'));
    process.stdout.write('  staff (Admin), every wallet: GET /reports/view-wallet-transactions?format=csv\n');
    const r = await readCsv(`${t.url}/api/v1/reports/view-wallet-transactions?format=csv`, admin);
    const checks = [
      ...(r.status === 200 ? [] : [`status ${r.status}`]),
      ...(r.rows === all ? [] : [`${int(r.rows)} rows, expected ${int(all)}`]),
    ];
    process.stdout.write(
      `${[...describeCsv(r), checks.length ? `  FAILED: ${checks.join('; ')}` : '  checks: rows OK'].join('\n')}\n`,
    );
    failed.push(...checks.map((c) => `every wallet: ${c}`));
  }
  return failed;
}

function checkExport(r: CsvRead, entries: number, balance: number, fromZero: boolean): string[] {
  const checks: string[] = [];
  if (r.status !== 200) checks.push(`status ${r.status}`);
  if (r.rows !== entries) checks.push(`${int(r.rows)} rows, expected ${int(entries)}`);
  // Newest first: the first row ends at the wallet's balance, the last starts from zero.
  if (r.first.split(',')[8] !== formatMoney(balance)) checks.push(`first row is ${r.first}`);
  if (fromZero && r.last.split(',')[7] !== '0.00') checks.push(`last row is ${r.last}`);
  return checks;
}
