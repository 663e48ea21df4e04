import { ApiError, NETWORK_ERROR } from './errors';
import { clearSession, getSession } from './session';

export const API_BASE = '/api/v1';

export type Query = Record<string, string | number | boolean | null | undefined | Array<string | number>>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** One key per intent (a form submission); reused when the call is retried. */
  idempotencyKey?: string;
  /** Don't toast 4xx answers: the caller shows them itself (forms with field errors). */
  silent?: boolean;
  signal?: AbortSignal;
}

type ErrorListener = (e: ApiError) => void;
let onClientError: ErrorListener | undefined;
let onUnauthorized: () => void = () => window.location.assign('/login');

/** Each app plugs in its toast (antd message) and its way to go to /login. */
export function configureClient(opts: { onError?: ErrorListener; onUnauthorized?: () => void }) {
  onClientError = opts.onError;
  if (opts.onUnauthorized) onUnauthorized = opts.onUnauthorized;
}

export const newIdempotencyKey = () => crypto.randomUUID();

function buildQuery(q?: Query): string {
  if (!q) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, String(x));
    else p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRY_STATUSES = new Set([502, 503, 504]);
const RETRY_DELAYS = [300, 1000];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The one way the SPA talks to the API: bearer token, Idempotency-Key on mutations,
 * retries of transient failures with the same key, 401 → /login, 4xx → toast.
 */
export async function api<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const session = getSession();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (session && MUTATING.has(method)) headers['idempotency-key'] = opts.idempotencyKey ?? newIdempotencyKey();
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const url = `${API_BASE}${path}${buildQuery(opts.query)}`;

  let res: Response | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(url, { method, headers, body, signal: opts.signal });
      if (!RETRY_STATUSES.has(res.status) || attempt >= RETRY_DELAYS.length) break;
    } catch (e) {
      if ((e as Error).name === 'AbortError' || attempt >= RETRY_DELAYS.length) {
        if ((e as Error).name === 'AbortError') throw e;
        const err = new ApiError(0, { message: NETWORK_ERROR });
        if (!opts.silent) onClientError?.(err);
        throw err;
      }
    }
    await sleep(RETRY_DELAYS[attempt]!);
  }

  const text = await res!.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (res!.ok) return parsed as T;

  const err = new ApiError(res!.status, parsed as never);
  if (res!.status === 401 && session) {
    clearSession();
    onUnauthorized();
  } else if (res!.status >= 400 && !opts.silent) {
    onClientError?.(err);
  }
  throw err;
}

/** `{ data }` unwrapped. */
export async function apiData<T>(method: string, path: string, opts?: RequestOptions): Promise<T> {
  const r = await api<{ data: T }>(method, path, opts);
  return r.data;
}

/**
 * A file from the API (a CSV export, a PDF statement): fetched with the bearer token, so it cannot
 * be a plain link; answers the body as a blob and the file name the server suggests.
 */
export async function apiDownload(
  path: string,
  query?: Query,
  signal?: AbortSignal,
  accept = 'text/csv',
): Promise<{ blob: Blob; filename: string | null }> {
  const session = getSession();
  const headers: Record<string, string> = { accept: `${accept}, application/json` };
  if (session) headers.authorization = `Bearer ${session.token}`;
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}${buildQuery(query)}`, { headers, signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, { message: NETWORK_ERROR });
  }
  if (!res.ok) {
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {
      parsed = null;
    }
    const err = new ApiError(res.status, parsed as never);
    if (res.status === 401 && session) {
      clearSession();
      onUnauthorized();
    }
    throw err;
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await res.blob(), filename };
}
