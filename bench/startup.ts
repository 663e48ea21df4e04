/**
 * Benchmark: start-up time to healthy, as `npm start` starts.
 *
 *   node --import tsx bench/startup.ts        (3 warm restarts; --quick: 1)
 *
 * Runs `node scripts/start.mjs` (what `npm start` runs) on 127.0.0.1, a free port and a data
 * directory of its own (the embedded database; DATABASE_URL is removed from its environment):
 * first a cold start, which creates and migrates the database and seeds it, then warm restarts
 * on that data directory, each timed from spawn until `GET /api/v1/health` answers 200, each
 * ended with SIGTERM. The web app and the compiled server are built beforehand
 * (scripts/build-if-needed.mjs), so no timed start builds them unless their sources change
 * meanwhile. Goal: warm restart ≤ 3 s. Exits 1 when a start never becomes healthy (120 s) or a
 * server does not end within 15 s of SIGTERM.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Problems, QUICK, fixed, goal, header, loadAverage, settle } from './compare';
import { median } from './support';

const WARM_RESTARTS = QUICK ? 1 : 3;
const HEALTHY_WITHIN_MS = 120_000;
const EXIT_WITHIN_MS = 15_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  ms: number;
  output: string[];
}

async function start(dataDir: string, port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const began = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Output is read (and its tail kept), so the server never blocks writing it.
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: string | null = null;
  child.once('exit', (code, signal) => (exited = `it exited with ${signal ?? code}`));
  while (performance.now() - began < HEALTHY_WITHIN_MS && !exited) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      await res.arrayBuffer();
      if (res.status === 200) return { child, ms: performance.now() - began, output };
    } catch {
      /* not listening yet */
    }
    await settle(50);
  }
  await stop(child);
  throw new Error(
    `the server did not become healthy (${exited ?? 'timed out'}); its output's end:\n${output.join('').slice(-4000)}`,
  );
}

/** SIGTERM, then the time until it exits; SIGKILL (to this child only) after EXIT_WITHIN_MS. */
async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return 0;
  const began = performance.now();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const inTime = await Promise.race([exited.then(() => true), settle(EXIT_WITHIN_MS).then(() => false)]);
  if (inTime) return performance.now() - began;
  child.kill('SIGKILL');
  await exited;
  return null;
}

async function main() {
  header(
    `Start-up to healthy: a cold start, then ${WARM_RESTARTS} warm restart${WARM_RESTARTS > 1 ? 's' : ''} of node scripts/start.mjs on the same data directory`,
  );
  const problems = new Problems();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-bench-startup-'));
  try {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
    const port = await freePort();
    const once = async (what: string) => {
      const before = loadAverage();
      const s = await start(dataDir, port);
      const stopped = await stop(s.child);
      process.stdout.write(
        `  ${what}: healthy after ${fixed(s.ms / 1000, 2)} s; SIGTERM to exit ${stopped === null ? 'more than 15 s (killed)' : `${fixed(stopped, 0)} ms`} [load ${before}]\n`,
      );
      if (stopped === null)
        problems.add(`${what}: the server did not end within ${EXIT_WITHIN_MS / 1000} s of SIGTERM`);
      return s.ms;
    };
    await once('cold start (new data directory)');
    const warm: number[] = [];
    for (let i = 1; i <= WARM_RESTARTS; i++) {
      await settle();
      warm.push(await once(`warm restart ${i}`));
    }
    const m = median(warm);
    process.stdout.write(
      `  warm restart, median of ${warm.length}: ${fixed(m / 1000, 2)} s (no baseline: the goal is absolute)\n`,
    );
    goal(`warm restart to healthy ≤ 3 s (${fixed(m / 1000, 2)} s)`, m <= 3000);
  } catch (err) {
    problems.add(err instanceof Error ? err.message : String(err));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(problems.any ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
