/**
 * pgbench's TPC-B-like script's latency at N connections on a scratch database of the same server: what one durable
 * write transaction (five statements, one commit) costs on this machine, with no HTTP and no application, as the
 * floor under any route that writes. Latencies come from pgbench's per-transaction log (-l), so p99 is exact.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { scratchPostgres } from './support';

const run = promisify(execFile);
/** 50 branches: 50 connections rarely wait on one another's branch row, as the product's cards do not. */
const SCALE = 50;

export interface PgbenchLatency {
  tps: number;
  p50: number;
  p99: number;
  transactions: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

export async function pgbenchLatency(server: string, clients: number, seconds: number): Promise<PgbenchLatency> {
  const scratch = await scratchPostgres(server);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cw-pgbench-log-'));
  try {
    await run('pgbench', ['-i', '-q', '-s', String(SCALE), scratch.url]);
    const { stdout } = await run(
      'pgbench',
      [
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-l',
        '--log-prefix',
        path.join(dir, 'tx'),
        scratch.url,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? Number.NaN);
    // each line: client_id transaction_no time_us script_no time_epoch time_us_part
    const micros: number[] = [];
    for (const file of readdirSync(dir))
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        const us = Number(line.split(' ')[2]);
        if (Number.isFinite(us) && line) micros.push(us);
      }
    micros.sort((a, b) => a - b);
    if (micros.length === 0) throw new Error(`pgbench logged no transaction:\n${stdout}`);
    return { tps, p50: pct(micros, 0.5) / 1000, p99: pct(micros, 0.99) / 1000, transactions: micros.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await scratch.drop();
  }
}
