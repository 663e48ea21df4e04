import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { ReadRouting } from './db/read-routing';
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
  /** the primary: writes, money, sign-in, and every read that decides something */
  db: Db;
  /**
   * For lists, reports, statistics, statements and CSV exports only: the read replica when one is set, up
   * and has the caller's own last write, else the primary. Never for a transaction or a decision.
   */
  reader(req: FastifyRequest): Db;
  /** where reader() sends reads, and what it remembers of each caller's last write */
  reads: ReadRouting;
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
