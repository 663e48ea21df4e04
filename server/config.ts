import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { newDevelopmentXpub, parseXpub } from './chain/address';
import { attachPreviousKeys } from './lib/crypto';
import { type Failpoints, type IssuerFaults, parseFailpoints, parseIssuerFaults } from './lib/faults';

/** The only module that reads process.env: everything else receives a Config. */

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  /** a streaming standby of DATABASE_URL's database: lists, reports and exports read from it */
  DATABASE_REPLICA_URL: optionalString.refine(
    (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
    'must be a postgres:// URL of a standby of DATABASE_URL',
  ),
  /** reads go back to the primary while the replica is further behind than this */
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0.5).max(3600).default(5),
  /** connections each instance may open to PostgreSQL (instances × this must stay under max_connections) */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  APP_URL: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Cardwallet <no-reply@cardwallet.local>'),
  SUPPORT_EMAIL: z.string().email().default('support@cardwallet.local'),
  SEED: z.enum(['demo', 'none']).optional(),
  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,
  ENCRYPTION_KEY: optionalString,
  /** keys of before a rotation, comma-separated: they open older values, never seal */
  ENCRYPTION_KEY_PREVIOUS: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  TRON_DEPOSIT_ADDRESS: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a Tron (TRC20) address')
    .default('TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'),
  RUN_JOBS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  ISSUER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  ISSUER_RETRY_SECONDS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be whole seconds separated by commas, e.g. 2,10,60')
    .default('2,10,60,300,1800'),
  SANDBOX_ISSUER_FAULTS: optionalString,
  FAILPOINTS: optionalString,
  CHAIN: z.enum(['sandbox', 'trongrid']).default('sandbox'),
  TRON_XPUB: optionalString,
  TRONGRID_URL: z.string().url().default('https://api.trongrid.io'),
  TRONGRID_API_KEY: optionalString,
  TRON_USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a Tron (TRC20) address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  TRON_MIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(19),
  CHAIN_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  /** watch the chain for deposits in this instance (default: as RUN_JOBS) */
  CHAIN_WATCH: z.enum(['true', 'false']).optional(),
  CHAIN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SERVE_SPA: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  METRICS: z.enum(['on', 'off']).default('on'),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** key=value pairs separated by commas, as the OpenTelemetry SDKs read them (an API key, say) */
  OTEL_EXPORTER_OTLP_HEADERS: optionalString,
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().min(100).max(120_000).default(10_000),
  OTEL_SERVICE_NAME: z.string().default('cardwallet'),
  /** after SIGTERM: seconds /ready says 503 while requests are still served, before the server closes */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).optional(),
});

export interface RateLimitConfig {
  /** failures allowed per (account, client address) within the window */
  perAccountAddress: number;
  /** failures allowed per client address, whatever the account, within the window */
  perAddress: number;
  windowSeconds: number;
  /** failures allowed per account from every address within accountWindowSeconds (ASVS 2.2.1: at most 100 an hour) */
  perAccount: number;
  accountWindowSeconds: number;
  /** wrong 2FA codes allowed per account within the window: only someone holding the password can make them */
  codesPerAccount: number;
  /** recipient-name lookups per user within the window: enough to pay people, too few to harvest names */
  recipientLookups: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** DATABASE_REPLICA_URL: reads that may be a little behind go there while it keeps up */
  replica?: ReplicaConfig;
  /** DATABASE_POOL_SIZE: the pg pool's size (PostgreSQL only) */
  databasePoolSize: number;
  appUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  supportEmail: string;
  seed: 'demo' | 'none';
  admin?: { email: string; password: string };
  /** 32 bytes used for AES-256-GCM of secrets at rest (TOTP keys, card data) */
  encryptionKey: Buffer;
  /** ENCRYPTION_KEY_PREVIOUS: open what was sealed before a rotation (unseal finds them on encryptionKey) */
  previousEncryptionKeys: Buffer[];
  logLevel: string;
  trustProxy: boolean;
  serveSpa: boolean;
  /** run the scheduled jobs in this instance (they are safe to run in several) */
  runJobs: boolean;
  /** where customers send USDT (TRC20) for a Tron top-up */
  tronDepositAddress: string;
  sessions: { idleMinutes: number; absoluteHours: number };
  issuer: IssuerClientConfig;
  /** SANDBOX_ISSUER_FAULTS: the sandbox issuer fails or hangs on these operations (never in production) */
  issuerFaults: IssuerFaults;
  /** FAILPOINTS: the process ends, throws or waits at these points (never in production) */
  failpoints: Failpoints;
  rateLimit: RateLimitConfig;
  chain: ChainConfig;
  observability: ObservabilityConfig;
}

export interface ObservabilityConfig {
  /** METRICS=off: no request histogram and no /metrics (for measuring their cost) */
  metrics: boolean;
  /** METRICS_TOKEN: /metrics wants it as a bearer token; without it only loopback callers are answered */
  metricsToken?: string;
  /** where request spans go (OTLP/HTTP JSON), or none */
  otlp?: { tracesUrl: string; headers: Record<string, string>; timeoutMs: number; serviceName: string };
  /** seconds between SIGTERM and closing, while /ready says 503 and requests are still served */
  drainSeconds: number;
}

interface ReplicaConfig {
  url: string;
  /** how far behind the primary (seconds) the replica may be and still be read */
  maxLagSeconds: number;
}

export interface ChainConfig {
  kind: 'sandbox' | 'trongrid';
  /** the account-level extended public key (m/44'/195'/0') deposit addresses derive from */
  xpub: string;
  trongridUrl: string;
  trongridApiKey?: string;
  usdtContract: string;
  /** blocks a transfer needs (itself included) before it is credited */
  minConfirmations: number;
  /** run the deposit watcher in this instance (safe in several) */
  watch: boolean;
  pollMs: number;
  timeoutMs: number;
}

interface IssuerClientConfig {
  /** how long an issuer call may take before it counts as failed (its outcome then unknown) */
  timeoutMs: number;
  /** tries of an outbox operation before it finally fails */
  maxAttempts: number;
  /** wait before try n+1 (the last value repeats) */
  retryMs: number[];
  /** how often the worker looks for due operations */
  pollMs: number;
}

export class ConfigError extends Error {}

/** The environment for a tool this process runs (pg_dump, pg_restore), with these variables added. */
export const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, ...extra });

function parseKey(raw: string, name: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(`${name} must be 32 bytes, as 64 hex characters or base64`);
  return key;
}

function resolveEncryptionKey(raw: string | undefined, dataDir: string, env: string): Buffer {
  if (raw) return parseKey(raw, 'ENCRYPTION_KEY');
  if (env === 'production') throw new ConfigError('ENCRYPTION_KEY is required in production');
  const file = path.join(dataDir, 'encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}

function resolveXpub(raw: string | undefined, dataDir: string, env: string): string {
  if (raw) {
    try {
      parseXpub(raw);
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  TRON_XPUB: ${(err as Error).message}`);
    }
    return raw.trim();
  }
  if (env === 'production')
    throw new ConfigError('TRON_XPUB is required in production: deposit addresses derive from it');
  const file = path.join(dataDir, 'tron.xpub');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const xpub = newDevelopmentXpub();
  writeFileSync(file, xpub, { mode: 0o600 });
  return xpub;
}

/** "api-key=abc,x-tenant=cw": values may be percent-encoded (W3C Baggage's rules, as the SDKs read them). */
function otlpHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`"${pair.trim()}" is not key=value`);
    headers[pair.slice(0, at).trim().toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if ((e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) || (!e.ADMIN_EMAIL && e.ADMIN_PASSWORD)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD go together');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  if (e.DATABASE_REPLICA_URL && !e.DATABASE_URL) {
    // The embedded database has no standby: a replica only exists beside a PostgreSQL primary.
    throw new ConfigError('DATABASE_REPLICA_URL needs DATABASE_URL: a replica is a standby of a PostgreSQL primary');
  }
  if (e.DATABASE_REPLICA_URL && e.DATABASE_REPLICA_URL === e.DATABASE_URL)
    throw new ConfigError('DATABASE_REPLICA_URL must name the standby, not DATABASE_URL itself');
  if (e.DATABASE_URL && e.NODE_ENV !== 'development' && !e.ENCRYPTION_KEY && !overrides.encryptionKey) {
    // A key generated into DATA_DIR is one per machine; instances sharing a database need one key.
    throw new ConfigError(
      'ENCRYPTION_KEY is required with DATABASE_URL outside development: every instance on one database must seal with the same key',
    );
  }
  if (e.NODE_ENV === 'production' && e.CHAIN === 'sandbox') {
    // The sandbox chain lets staff send deposits that credit real wallets: never with real money.
    throw new ConfigError('CHAIN=sandbox is refused in production: set CHAIN=trongrid (and TRONGRID_API_KEY)');
  }
  if (e.NODE_ENV === 'production' && (e.SANDBOX_ISSUER_FAULTS || e.FAILPOINTS)) {
    throw new ConfigError(
      'SANDBOX_ISSUER_FAULTS and FAILPOINTS make things fail on purpose: they are refused in production',
    );
  }
  const parsedOr = <T>(name: string, raw: string | undefined, parse: (raw: string) => T, empty: T): T => {
    try {
      return raw ? parse(raw) : empty;
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: ${(err as Error).message}`);
    }
  };
  const encryptionKey = overrides.encryptionKey ?? resolveEncryptionKey(e.ENCRYPTION_KEY, dataDir, e.NODE_ENV);
  const previousEncryptionKeys =
    overrides.previousEncryptionKeys ??
    (e.ENCRYPTION_KEY_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => parseKey(k, 'each key of ENCRYPTION_KEY_PREVIOUS'));
  if (previousEncryptionKeys.some((k) => k.equals(encryptionKey)))
    throw new ConfigError('ENCRYPTION_KEY_PREVIOUS must not hold ENCRYPTION_KEY itself');
  attachPreviousKeys(encryptionKey, previousEncryptionKeys);
  const config: Config = {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    replica: e.DATABASE_REPLICA_URL
      ? { url: e.DATABASE_REPLICA_URL, maxLagSeconds: e.REPLICA_MAX_LAG_SECONDS }
      : undefined,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    seed: e.SEED ?? (e.NODE_ENV === 'production' ? 'none' : 'demo'),
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    encryptionKey,
    previousEncryptionKeys,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    serveSpa: e.SERVE_SPA,
    runJobs: e.RUN_JOBS,
    tronDepositAddress: e.TRON_DEPOSIT_ADDRESS,
    sessions: { idleMinutes: 30, absoluteHours: 12 },
    issuer: {
      timeoutMs: e.ISSUER_TIMEOUT_MS,
      // one try, then one more after each wait
      maxAttempts: e.ISSUER_RETRY_SECONDS.split(',').length + 1,
      retryMs: e.ISSUER_RETRY_SECONDS.split(',').map((s) => Number(s) * 1000),
      pollMs: 1_000,
    },
    issuerFaults: parsedOr('SANDBOX_ISSUER_FAULTS', e.SANDBOX_ISSUER_FAULTS, parseIssuerFaults, {}),
    failpoints: parsedOr('FAILPOINTS', e.FAILPOINTS, parseFailpoints, {}),
    rateLimit: {
      perAccountAddress: 5,
      perAddress: 50,
      windowSeconds: 15 * 60,
      perAccount: 100,
      accountWindowSeconds: 60 * 60,
      codesPerAccount: 5,
      recipientLookups: 30,
    },
    observability: {
      metrics: e.METRICS === 'on',
      metricsToken: e.METRICS_TOKEN,
      otlp: e.OTEL_EXPORTER_OTLP_ENDPOINT
        ? {
            // OTLP/HTTP: the base endpoint's signal path (OpenTelemetry's exporter specification)
            tracesUrl: `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`,
            headers: parsedOr('OTEL_EXPORTER_OTLP_HEADERS', e.OTEL_EXPORTER_OTLP_HEADERS, otlpHeaders, {}),
            timeoutMs: e.OTEL_EXPORTER_OTLP_TIMEOUT,
            serviceName: e.OTEL_SERVICE_NAME,
          }
        : undefined,
      // A load balancer needs a few probes to see the 503; in development nobody is probing.
      drainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? (e.NODE_ENV === 'production' ? 5 : 0),
    },
    chain: {
      kind: e.CHAIN,
      xpub: overrides.chain?.xpub ?? resolveXpub(e.TRON_XPUB, dataDir, e.NODE_ENV),
      trongridUrl: e.TRONGRID_URL.replace(/\/+$/, ''),
      trongridApiKey: e.TRONGRID_API_KEY,
      usdtContract: e.TRON_USDT_CONTRACT,
      minConfirmations: e.TRON_MIN_CONFIRMATIONS,
      watch: e.CHAIN_WATCH ? e.CHAIN_WATCH === 'true' : e.RUN_JOBS,
      pollMs: (e.CHAIN_POLL_SECONDS ?? (e.NODE_ENV === 'production' ? 30 : 10)) * 1000,
      timeoutMs: e.CHAIN_TIMEOUT_MS,
    },
  };
  return { ...config, ...overrides };
}
