import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { checkEncryptionKey } from './db/key-check';
import { acquireEmbeddedLock } from './db/lock';
import { stdoutLog } from './lib/log-output';
import { killAfter } from './lib/watchdog';

/** A shutdown that takes longer (after the drain) ends with exit code 1; the watchdog kills what even that cannot end. */
const GRACEFUL_MS = 8_000;
const KILL_MS = 9_500;

/** Listens and shuts down gracefully; everything else lives in the app plugin. */
async function main() {
  const config = loadConfig();
  const releaseLock = config.databaseUrl ? () => undefined : acquireEmbeddedLock(config.dataDir);
  // Both at once: the app's modules load while PGlite compiles (see server-parts.ts).
  const [database, parts] = await Promise.all([
    openDatabase({
      url: config.databaseUrl,
      poolSize: config.databasePoolSize,
      dataDir: path.join(config.dataDir, 'db'),
      replica: config.replica,
    }).then(async (d) => {
      await d.migrate();
      await checkEncryptionKey(d, config.encryptionKey);
      return d;
    }),
    import('./server-parts'),
  ]);
  const {
    buildApp,
    createContext,
    createStaff,
    demoAccountsText,
    isEmpty,
    JOBS,
    seedDemo,
    seedDemoActivity,
    startDispatcher,
    startIssuerWorker,
    startMailWorker,
    startScheduler,
    startChainWatcher,
    forgetPendingMail,
  } = parts;
  const seeded = config.seed === 'demo' && (await isEmpty(database.db));
  if (seeded) await seedDemo(database.db, config.dataDir);
  const app = await buildApp({ config, database, logStream: stdoutLog() });
  if (seeded) {
    // Replay the demo history on a clock set back in time; its mail is not sent.
    let at = new Date();
    const started = at;
    const ctx = createContext({
      config,
      database,
      log: app.log,
      mailer: { send: async () => undefined },
      now: () => at,
    });
    await seedDemoActivity(ctx, { set: (d) => (at = d) }, started);
    await ctx.background.settled();
    await forgetPendingMail(database.db); // its notifications stay, their mail is history too
  }
  if (config.admin) {
    const { created } = await createStaff(database.db, { ...config.admin, role: 'Super-Admin' });
    if (created) app.log.info({ email: config.admin.email }, 'Super-Admin created from ADMIN_EMAIL');
  }

  const stopScheduler = config.runJobs ? startScheduler(app.ctx, JOBS) : async () => undefined;
  const stopDispatcher = config.runJobs ? startDispatcher(app.ctx) : () => undefined;
  // Always: what the card issuer is owed completes requests; turning jobs off must not leave it owed.
  const stopIssuerWorker = startIssuerWorker(app.ctx);
  // Always too: security mail (a 2FA reset, new API credentials) must go out whatever RUN_JOBS says.
  const stopMailWorker = startMailWorker(app.ctx);
  const stopChainWatcher = config.chain.watch ? startChainWatcher(app.ctx) : () => undefined;
  const stopJobs = async () => {
    stopChainWatcher();
    stopMailWorker();
    stopDispatcher();
    stopIssuerWorker();
    // The job running now finishes (within the shutdown's time), so that its period is not left claimed.
    await stopScheduler();
  };
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // From now /api/v1/ready says 503; requests are still served while the load balancer notices.
    app.readiness.draining = true;
    const drainMs = config.observability.drainSeconds * 1000;
    killAfter(drainMs + KILL_MS);
    app.log.info({ signal, drainSeconds: config.observability.drainSeconds }, 'shutting down');
    setTimeout(() => {
      releaseLock();
      process.exit(1);
    }, drainMs + GRACEFUL_MS).unref();
    if (drainMs) await new Promise((resolve) => setTimeout(resolve, drainMs));
    try {
      await stopJobs();
      // Each step logged: a shutdown that overruns says where it waited.
      await app.close();
      app.log.info('shutdown: requests finished, server closed');
      await database.close();
      app.log.info('shutdown: database closed');
      releaseLock();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const shown = config.appUrl;
  const lines = [`\nCardwallet is running at ${shown}  (API docs: ${shown}/api/docs)`];
  if (config.seed === 'demo') lines.push(demoAccountsText());
  if (!config.smtpUrl) lines.push(`Mail is written to ${path.join(config.dataDir, 'mail')} (no SMTP_URL set).`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
