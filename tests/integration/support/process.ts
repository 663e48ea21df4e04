import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports';

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  output(): string;
  /** resolves with the exit code (137 after a SIGKILL, as a failpoint's exit does) */
  exited(): Promise<number | null>;
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills every server still running (afterEach). */
export function killAll() {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  running.clear();
}

/** The real server, as `npm start` runs it, with this environment; resolves once /api/v1/health answers. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    // import.meta, not __dirname: benchmarks run this module as ESM (tsx), outside vitest
    cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'),
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_SPA: 'false',
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : null))),
  );
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output}`);
    const ok = await fetch(`${base}/api/v1/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error(`server did not become healthy: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    child,
    output: () => output,
    exited: () => exit,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exit;
      child.kill('SIGTERM');
      return exit;
    },
  };
}

/** A JSON request to a server process; a connection cut by the server dying answers status 0. */
export async function call(
  s: { base: string },
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; key?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.key) headers['idempotency-key'] = opts.key;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${s.base}/api/v1${url}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : null,
      replayed: res.headers.get('idempotent-replayed') === 'true',
    };
  } catch {
    return { status: 0, body: null, replayed: false };
  }
}
