import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { IdempotencyState } from './db/idempotency-keys';
import type { BackgroundWork } from './lib/background';
import type { Mailer } from './lib/mailer';
import type { SandboxIssuer } from './issuer/sandbox';
import type { ChainPort } from './chain/port';
import type { SandboxChain } from './chain/sandbox';
import type { SessionCache } from './modules/account/session-cache';

/** What every service needs, handed in once when the app is built. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  /** the card issuer (the built-in sandbox) */
  issuer: SandboxIssuer;
  /** the Tron chain (CHAIN: the built-in sandbox, or TronGrid) */
  chain: ChainPort;
  /** the sandbox chain when CHAIN=sandbox: its staff controls send deposits */
  sandboxChain: SandboxChain | null;
  log: FastifyBaseLogger;
  now: () => Date;
  /** work started by a request that its answer does not wait for */
  background: BackgroundWork;
  /** sessions checked recently (used only once started, by the HTTP app) */
  sessions: SessionCache;
}

export interface AuthUser {
  id: string;
  email: string;
  role: import('@shared/contract').Role;
  companyId: string | null;
  sessionId: string;
  /** 'session' for people, 'api' for integrations acting for a company */
  via: 'session' | 'api';
  /** the API client's client_id when via = 'api' */
  clientId?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    idempotency: IdempotencyState | null;
  }
}
