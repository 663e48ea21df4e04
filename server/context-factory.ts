import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/client';
import { ReadRouting } from './db/read-routing';
import { createSandboxIssuer } from './issuer/sandbox';
import { createSandboxChain } from './chain/sandbox';
import { createTronGridChain } from './chain/trongrid';
import { BackgroundWork } from './lib/background';
import { createMailer, type Mailer } from './lib/mailer';
import { authorizationHandler } from './modules/cards/authorizations';
import { approveInOne } from './modules/cards/fast-authorize';
import { SessionCache } from './modules/account/session-cache';

/** The services every module uses, for the HTTP app and for the CLI alike. */
export function createContext(opts: {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  mailer?: Mailer;
  now?: () => Date;
}): AppContext {
  const { config, database, log } = opts;
  const now = opts.now ?? (() => new Date());
  const sandboxChain = config.chain.kind === 'sandbox' ? createSandboxChain({ db: database.db, now }) : null;
  const reads = new ReadRouting(database, {
    maxLagSeconds: config.replica?.maxLagSeconds ?? 5,
    secure: config.appUrl.startsWith('https:'),
  });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    reader: (req) => reads.reader(req),
    reads,
    mailer:
      opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    // The issuer asks the platform about each authorisation through the cards module.
    issuer: createSandboxIssuer({
      db: database.db,
      key: config.encryptionKey,
      now,
      handler: () => authorizationHandler(ctx),
      approveInOne: (card, req, ref, payload, audit) => approveInOne(ctx, card, req, ref, payload, audit),
      faults: config.issuerFaults,
      hangMs: config.issuer.timeoutMs + 5_000,
    }),
    chain: sandboxChain ?? createTronGridChain(config.chain),
    sandboxChain,
    log,
    now,
    background: new BackgroundWork(log),
    sessions: new SessionCache(),
  };
  return ctx;
}
