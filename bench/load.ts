/**
 * HTTP load for the comparing benchmarks: autocannon in a child process of its own, so the
 * client never shares an event loop with the server it measures (with PGlite the server's
 * queries block its main thread). Traffic goes only to the 127.0.0.1 address it is given.
 *
 * The parent calls `load(plan)`; the child (this file run with --child) runs autocannon and
 * answers a summary. A transfer plan sends each request from a random wallet of its list to
 * another one, with a fresh Idempotency-Key and a unique client reference, and answers the
 * references of every 2xx, so the caller can check each answered transfer happened exactly once.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export type Plan =
  | { kind: 'get'; url: string; path: string; token?: string; connections: number; seconds: number }
  /** a POST of one of `bodies`, picked at random for each request (e.g. a payment on one of many cards) */
  | { kind: 'post'; url: string; path: string; token: string; bodies: string[]; connections: number; seconds: number }
  | {
      kind: 'transfer';
      url: string;
      /** sender i uses tokens[i] and sends from wallets[i] to another wallet of the list */
      tokens: string[];
      wallets: string[];
      amount: string;
      /** prefix of the client references, unique per run */
      tag: string;
      connections: number;
      seconds: number;
    };

export interface LoadResult {
  /** answers with a 2xx status */
  ok: number;
  /** 2xx answers per second over the run */
  rps: number;
  p50: number;
  p99: number;
  /** non-2xx answers, by status */
  statuses: Record<string, number>;
  non2xx: number;
  /** connection errors (timeouts included, as autocannon counts them) */
  errors: number;
  timeouts: number;
  seconds: number;
  /** a few bodies of non-2xx answers, to say what went wrong */
  samples: string[];
  /** client references of the transfers answered 2xx (transfer plans only) */
  references: string[];
}

const TIMEOUT_SECONDS = 10;

/** Runs `plan` from a child process and waits for its summary. */
export function load(plan: Plan): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(plan.url))
    throw new Error(`load: only http://127.0.0.1 is a target, not ${plan.url}`);
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child'], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answered = false;
    child.once('message', (m) => {
      answered = true;
      resolve(m as LoadResult);
      child.disconnect();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`load generator exited with ${code} before answering`));
    });
    child.send(plan);
  });
}

async function run(plan: Plan): Promise<LoadResult> {
  const samples: string[] = [];
  const references: string[] = [];
  const keep = (status: number, body: string) => {
    if ((status < 200 || status > 299) && samples.length < 3) samples.push(`${status} ${body.slice(0, 300)}`);
  };
  const common = { url: plan.url, connections: plan.connections, duration: plan.seconds, timeout: TIMEOUT_SECONDS };
  let result: autocannon.Result;
  if (plan.kind === 'get') {
    result = await autocannon({
      ...common,
      requests: [
        {
          method: 'GET',
          path: plan.path,
          headers: plan.token ? { authorization: `Bearer ${plan.token}` } : {},
          onResponse: (status, body) => keep(status, body),
        },
      ],
    });
  } else if (plan.kind === 'post') {
    const { bodies } = plan;
    result = await autocannon({
      ...common,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            method: 'POST',
            path: plan.path,
            headers: { authorization: `Bearer ${plan.token}`, 'content-type': 'application/json' },
            body: bodies[Math.floor(Math.random() * bodies.length)],
          }),
          onResponse: (status, body) => keep(status, body),
        },
      ],
    });
  } else {
    const n = plan.wallets.length;
    let seq = 0;
    result = await autocannon({
      ...common,
      requests: [
        {
          setupRequest: (req, context) => {
            const from = Math.floor(Math.random() * n);
            const to = (from + 1 + Math.floor(Math.random() * (n - 1))) % n;
            const reference = `${plan.tag}-${(seq++).toString(36)}`;
            (context as { reference?: string }).reference = reference;
            return {
              ...req,
              method: 'POST',
              path: '/api/v1/wallet/transfer',
              headers: {
                authorization: `Bearer ${plan.tokens[from]}`,
                'content-type': 'application/json',
                'idempotency-key': randomUUID(),
              },
              body: JSON.stringify({ wallet_id: plan.wallets[to], amount: plan.amount, reference }),
            };
          },
          onResponse: (status, body, context) => {
            if (status >= 200 && status <= 299) references.push((context as { reference: string }).reference);
            else keep(status, body);
          },
        },
      ],
    });
  }
  const statuses: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) {
    if (!code.startsWith('2')) statuses[code] = s.count ?? 0;
  }
  return {
    ok: result['2xx'],
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    samples,
    references,
  };
}

if (process.argv.includes('--child') && process.send) {
  process.once('message', (plan) => {
    run(plan as Plan).then(
      (r) => process.send!(r, () => process.exit(0)),
      (err: unknown) => {
        process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
        process.exit(1);
      },
    );
  });
}
