/**
 * What the product-vs-baseline benchmarks share: quick mode, the machine and its load at each
 * run (figures taken on a busy machine are noise, so every figure is printed with the load
 * average it was taken under), and the goal lines.
 */
import os from 'node:os';
import type { LoadResult } from './load';

/** BENCH_QUICK=1 or --quick: every run a few seconds, small data; for checking that a bench works. */
export const QUICK = process.argv.includes('--quick') || /^(1|true|yes)$/i.test(process.env.BENCH_QUICK?.trim() ?? '');

/** Seconds per measured run: BENCH_SECONDS, else 10 (3 in quick mode). */
export function runSeconds(): number {
  const raw = process.env.BENCH_SECONDS?.trim();
  if (raw) {
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`BENCH_SECONDS must be a positive number, not ${raw}`);
    return n;
  }
  return QUICK ? 3 : 10;
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export function describeMachine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? 'unknown CPU';
  return `${cpus.length} × ${model}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node.js ${process.version}, ${os.platform()} ${os.release()}`;
}

export function header(title: string): void {
  process.stdout.write(`${title}${QUICK ? ' (quick mode: figures are not measurements)' : ''}\n`);
  process.stdout.write(
    `  date: ${new Date().toISOString()}\n  machine: ${describeMachine()}\n  load average (1, 5, 15 min): ${loadAverage()}\n`,
  );
}

export const fixed = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** One load run in a line: throughput, latency, what failed, and the load average before it. */
export function describeRun(r: LoadResult, load: string): string {
  const failed = Object.entries(r.statuses)
    .map(([code, n]) => `${n}×${code}`)
    .join(', ');
  // With no answer at all autocannon's latency histogram is empty and reads 0 ms.
  const latency =
    r.ok + r.non2xx === 0 ? 'no answer within the run' : `p50 ${fixed(r.p50, 1)} ms, p99 ${fixed(r.p99, 1)} ms`;
  return (
    `${fixed(r.rps, 0)} req/s, ${latency}, ` +
    `${fixed(r.ok)} ok, non-2xx ${r.non2xx}${failed ? ` (${failed})` : ''}, errors ${r.errors}, timeouts ${r.timeouts} [load ${load}]`
  );
}

/** Prints a goal and whether it is met; a missed goal is reported, never a failure of the script. */
export function goal(text: string, met: boolean): boolean {
  process.stdout.write(`  goal: ${text}: ${met ? 'met' : 'NOT met'}\n`);
  return met;
}

/** Collects wrong results (not missed goals); the script exits 1 when there is any. */
export class Problems {
  readonly list: string[] = [];
  add(problem: string): void {
    this.list.push(problem);
    process.stdout.write(`  WRONG: ${problem}\n`);
  }
  get any(): boolean {
    return this.list.length > 0;
  }
}

/** A pause between runs, so one run's tail (autovacuum, GC) weighs less on the next. */
export const settle = (ms = 1000) => new Promise((resolve) => setTimeout(resolve, ms));
