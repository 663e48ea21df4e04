import { type BuildOptions, buildApp } from '../../../server/app';
import type { Mail, Mailer } from '../../../server/lib/mailer';

export interface SentMail extends Mail {
  to: string;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  ip?: string;
  idempotencyKey?: string;
}

/** `t.api`: one call to the API at `url` over real HTTP, JSON in and out, never following redirects. */
export function apiClient(url: string) {
  return async function api<T = any>(method: string, p: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.ip) headers['x-forwarded-for'] = opts.ip;
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(`${url}/api/v1${p}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
}

/** A mailer that keeps what it sends, for assertions (the .eml writer is covered end to end). */
export function memoryMailer(into: SentMail[]): Mailer {
  return {
    async send(mail) {
      const to = Array.isArray(mail.to) ? mail.to.join(',') : mail.to;
      into.push({ ...mail, to });
    },
  };
}

/** The real app on a free loopback port, on a clock the caller can move, with its API client. */
export async function serveApp(opts: Omit<BuildOptions, 'now'>) {
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
  const app = await buildApp({ ...opts, now: clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A test may spend longer than Fastify's 72 s keep-alive writing fixtures between two requests;
  // fetch would then reuse a socket the server is closing that instant (ECONNRESET).
  app.server.keepAliveTimeout = 30 * 60_000;
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, url, clock, api: apiClient(url) };
}
