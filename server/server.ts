import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { acquireEmbeddedLock } from './db/lock';
import { createStaff } from './seed/admin';
import { demoAccountsText, isEmpty, seedDemo } from './seed/demo';
import { JOBS } from './jobs';
import { createContext } from './context-factory';
import { seedDemoActivity } from './seed/activity';
import { startScheduler } from './jobs/runner';
import { startDispatcher } from './modules/integrations/webhooks';

/** Listens and shuts down gracefully; everything else lives in the app plugin. */
async function main() {
  const config = loadConfig();
  const releaseLock = config.databaseUrl ? () => undefined : acquireEmbeddedLock(config.dataDir);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
  await database.migrate();
  const seeded = config.seed === 'demo' && (await isEmpty(database.db));
  if (seeded) await seedDemo(database.db, config.dataDir);
  const app = await buildApp({ config, database });
  if (seeded) {
    // Replay the demo history on a clock set back in time; its mail is not sent.
    let at = new Date();
    const started = at;
    const ctx = createContext({ config, database, log: app.log, mailer: { send: async () => undefined }, now: () => at });
    await seedDemoActivity(ctx, { set: (d) => (at = d) }, started);
  }
  if (config.admin) {
    const { created } = await createStaff(database.db, { ...config.admin, role: 'Super-Admin' });
    if (created) app.log.info({ email: config.admin.email }, 'Super-Admin created from ADMIN_EMAIL');
  }

  const stopScheduler = config.runJobs ? startScheduler(app.ctx, JOBS) : () => undefined;
  const stopDispatcher = config.runJobs ? startDispatcher(app.ctx) : () => undefined;
  const stopJobs = () => {
    stopScheduler();
    stopDispatcher();
  };
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    stopJobs();
    try {
      await app.close();
      await database.close();
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
