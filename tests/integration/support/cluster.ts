import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { call } from './process';

/**
 * A load balancer as small as it gets, for the tests of several instances: round-robin over the
 * instances its health check finds ready (GET /api/v1/ready every 200 ms, as a real one probes), a
 * 502 when the chosen instance cannot be reached (it died), no retries of its own: the client retries.
 */
export interface Balancer {
  base: string;
  /** replaces the instances it balances over (a restarted one comes back on another port) */
  set(bases: string[]): void;
  /** requests that failed at an instance (the 502s), by the instance's address */
  failures: Map<string, number>;
  /** requests each instance answered */
  answered: Map<string, number>;
  close(): Promise<void>;
}

export async function startProxy(initial: string[]): Promise<Balancer> {
  let bases = [...initial];
  const ready = new Set<string>(bases);
  const failures = new Map<string, number>();
  const answered = new Map<string, number>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  const probe = setInterval(() => {
    for (const b of bases)
      fetch(`${b}/api/v1/ready`, { signal: AbortSignal.timeout(1_000) }).then(
        (r) => (r.status === 200 ? ready.add(b) : ready.delete(b)),
        () => ready.delete(b),
      );
  }, 200);

  const server = http.createServer((req, res) => {
    const live = bases.filter((b) => ready.has(b));
    if (!live.length)
      return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"no instance ready"}');
    const target = live[next++ % live.length]!;
    const url = new URL(req.url ?? '/', target);
    const upstream = http.request(
      url,
      { method: req.method, headers: { ...req.headers, host: url.host }, agent },
      (up) => {
        bump(answered, target);
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      bump(failures, target);
      ready.delete(target);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"message":"bad gateway"}');
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(b) {
      bases = [...b];
      for (const x of b) ready.add(x);
    },
    failures,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(probe);
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Outcome {
  status: number;
  body: any;
  replayed: boolean;
  /** tries it took (1: answered the first time) */
  tries: number;
}

/**
 * A client that does what the API asks of one: on a cut connection, a 5xx or a 409 (the same key still in
 * progress) it sends the same request again with the same Idempotency-Key, for up to `forMs`.
 */
export async function withRetries(
  s: { base: string },
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; key?: string },
  forMs = 30_000,
): Promise<Outcome> {
  const until = Date.now() + forMs;
  for (let tries = 1; ; tries++) {
    const r = await call(s, method, url, opts);
    const again = r.status === 0 || r.status >= 500 || (r.status === 409 && opts.key !== undefined);
    if (!again || Date.now() > until) return { ...r, tries };
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 150));
  }
}

/** The subjects of the mail files the instances wrote under DATA_DIR/mail (no SMTP_URL). */
export function mailSubjects(dataDir: string): string[] {
  const dir = path.join(dataDir, 'mail');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.map((f) => {
    const text = readFileSync(path.join(dir, f), 'utf8');
    // RFC 5322 folds long headers onto lines starting with white space.
    const m = /^Subject: (.*(?:\n[ \t].*)*)/m.exec(text);
    return m ? m[1]!.replace(/\n[ \t]+/g, ' ') : '';
  });
}

/** How long until `probe` answers `status` (it is asked every 25 ms), or Infinity after `ms`. */
export async function msUntil(probe: () => Promise<number>, status: number, ms = 5_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if ((await probe()) === status) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Number.POSITIVE_INFINITY;
}
