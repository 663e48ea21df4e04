import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/client';
import { createSandboxIssuer } from './issuer/sandbox';
import { createMailer, type Mailer } from './lib/mailer';
import { authorizationHandler } from './modules/cards/authorizations';

/** The services every module uses, for the HTTP app and for the CLI alike. */
export function createContext(opts: { config: Config; database: Database; log: FastifyBaseLogger; mailer?: Mailer; now?: () => Date }): AppContext {
  const { config, database, log } = opts;
  const now = opts.now ?? (() => new Date());
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mailer: opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    // The issuer asks the platform about each authorisation through the cards module.
    issuer: createSandboxIssuer({ db: database.db, key: config.encryptionKey, now, handler: () => authorizationHandler(ctx) }),
    log,
    now,
  };
  return ctx;
}
