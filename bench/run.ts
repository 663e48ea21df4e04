/**
 * `npm run bench`: every benchmark in turn, each in a process of its own.
 *
 *   npm run bench                      all of them, full size (see docs/benchmarks.md)
 *   npm run bench -- --quick           all of them small, a few seconds of load each (or BENCH_QUICK=1)
 *   npm run bench -- read transfer     only these (names of bench/*.ts)
 *
 * The database is chosen as each benchmark chooses it (PGlite, or a scratch database on the
 * PostgreSQL server of BENCH_DATABASE_URL / TEST_DATABASE_URL). Runs them all even when one
 * fails; exits 1 when any did.
 */
import { spawn } from 'node:child_process';
import { QUICK } from './compare';

const ALL = ['csv-export', 'statistics', 'lists', 'read', 'metrics', 'transfer', 'authorize', 'startup', 'cluster'];
/** Rows of the data-heavy benchmarks in quick mode, unless BENCH_ROWS says otherwise. */
const QUICK_ROWS = '20000';

const asked = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const unknown = asked.filter((n) => !ALL.includes(n));
if (unknown.length) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; there are: ${ALL.join(', ')}\n`);
  process.exit(2);
}
const names = asked.length ? asked : ALL;

function runOne(name: string): Promise<number> {
  const env = { ...process.env };
  if (QUICK) {
    env.BENCH_QUICK = '1';
    env.BENCH_ROWS ??= QUICK_ROWS;
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], { stdio: 'inherit', env });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const results: Array<{ name: string; code: number; seconds: number }> = [];
for (const name of names) {
  const started = performance.now();
  const code = await runOne(name);
  results.push({ name, code, seconds: (performance.now() - started) / 1000 });
  process.stdout.write('\n');
}
process.stdout.write(`Benchmarks${QUICK ? ' (quick mode)' : ''}:\n`);
for (const r of results)
  process.stdout.write(
    `  ${r.name.padEnd(11)} ${r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`} in ${r.seconds.toFixed(0)} s\n`,
  );
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
