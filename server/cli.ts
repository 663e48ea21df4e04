import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from './config';
import { type Database, openDatabase } from './db/client';
import { checkEncryptionKey } from './db/key-check';
import { acquireEmbeddedLock } from './db/lock';
import { meetsPasswordPolicy, PASSWORD_POLICY_MESSAGE, STAFF_ROLE_KEYS, type StaffRoleKey } from '@shared/contract';
import { createStaff } from './seed/admin';
import { demoAccountsText } from './seed/demo';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { sandboxAuthorizationBody, sandboxChainTransferBody } from '@shared/contract';
import { sendSandboxDeposit } from './modules/deposits/sandbox';
import type { AppContext } from './context';
import { createContext } from './context-factory';
import { cardTransactions, cards } from './db/schema';
import { ALL_JOBS, jobByName } from './jobs';
import { runJob } from './jobs/runner';
import { performDue } from './modules/cards/outbox';
import { reconcile } from './modules/reconciliation/service';
import { backupCommand } from './ops/backup';
import { rotateKey } from './ops/rotate-key';

/** Operator commands: npm run cli -- <command> [options] */

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  create-admin --email <email> --password <password> [--first-name <name>] [--last-name <name>] [--role super-admin|admin|compliance|finance|support|auditor]
        Create a staff account (Super-Admin by default) that can log in at once; 2FA is set up at first login.
  demo-accounts
        Print the demo accounts and their password.
  jobs
        List the scheduled jobs.
  reconcile
        Perform what the card issuer is still owed, then compare every card's ledger balance with the
        issuer's and record the run; prints the drift (exit code 3 when there is any).
  run-job <name> [--period <YYYY-MM or YYYY-MM-DD>]
        Run a scheduled job now for its current (or the given) period; a period runs once.
  chain-send --to <Tron address> --amount <USDT> [--confirmations <n>]
        Someone sends USDT to an address on the sandbox chain (CHAIN=sandbox); without --confirmations it
        is settled at once. Prints its transaction hash; the deposit watcher credits it.
  simulate-transaction --card <card id> --amount <USD> [--merchant <name>] [--country GH] [--currency USD] [--then settle|reverse]
        A merchant charges a card in the sandbox issuer; prints whether it was approved and why not.
  backup <file>
        Write the whole database to <file> (PGlite: its data directory; PostgreSQL: pg_dump -Fc), with what it is:
        the kind of database, its last migration, when, and the ENCRYPTION_KEY's check.
  restore <file> [--force]
        Load a backup into this configuration's database; refuses one that is not empty unless --force, and a
        backup of another kind, migration or key before writing anything.
  rotate-key [--batch <rows>] [--new-recovery-secret]
        Re-seal every sealed value under ENCRYPTION_KEY (reading older ones with ENCRYPTION_KEY_PREVIOUS) while
        servers run, then move the key check to it. Safe to rerun; resumes after a kill. After a leaked key, add
        --new-recovery-secret: unused recovery codes are voided (users make new ones); restart every instance then.
  help
        Show this help.

The CLI uses the same configuration as the server (DATA_DIR, DATABASE_URL, ...). With the embedded
database, stop the server first: one process at a time may open it.`;

async function withDatabase<T>(fn: (db: Database, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const release = config.databaseUrl ? () => undefined : acquireEmbeddedLock(config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'db'),
    poolSize: 2,
  });
  try {
    await database.migrate();
    await checkEncryptionKey(database, config.encryptionKey);
    return await fn(database, config);
  } finally {
    await database.close();
    release();
  }
}

/** The same services the server uses, without HTTP. */
async function withContext<T>(fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  return withDatabase(async (database, config) => {
    const log = pino({ level: 'warn' });
    return fn(createContext({ config, database, log }));
  });
}

async function main(argv: string[]): Promise<number> {
  const [command = 'help', ...rest] = argv;
  switch (command) {
    case 'create-admin': {
      const { values } = parseArgs({
        args: rest,
        options: {
          email: { type: 'string' },
          password: { type: 'string' },
          'first-name': { type: 'string' },
          'last-name': { type: 'string' },
          role: { type: 'string', default: 'super-admin' },
        },
      });
      if (!values.email || !values.password) {
        process.stderr.write('create-admin needs --email and --password\n');
        return 2;
      }
      if (!meetsPasswordPolicy(values.password)) {
        process.stderr.write(`${PASSWORD_POLICY_MESSAGE}\n`);
        return 2;
      }
      const key = values.role ?? 'super-admin';
      if (!(key in STAFF_ROLE_KEYS)) {
        process.stderr.write(`--role is one of ${Object.keys(STAFF_ROLE_KEYS).join(', ')}\n`);
        return 2;
      }
      const role = STAFF_ROLE_KEYS[key as StaffRoleKey];
      const { created } = await withDatabase((d) =>
        createStaff(d.db, {
          email: values.email!,
          password: values.password!,
          firstName: values['first-name'],
          lastName: values['last-name'],
          role,
        }),
      );
      process.stdout.write(
        created
          ? `${role} ${values.email} created.\n`
          : `An account with ${values.email} already exists; nothing changed.\n`,
      );
      return 0;
    }
    case 'jobs':
      for (const j of ALL_JOBS) process.stdout.write(`${j.name.padEnd(20)} ${j.description}\n`);
      return 0;
    case 'run-job': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { period: { type: 'string' } },
      });
      const job = jobByName(positionals[0] ?? '');
      if (!job) {
        process.stderr.write(`Unknown job. Jobs: ${ALL_JOBS.map((j) => j.name).join(', ')}\n`);
        return 2;
      }
      const outcome = await withContext((ctx) => runJob(ctx, job, values.period));
      process.stdout.write(
        outcome.ran
          ? `${job.name} ${outcome.period}: ${JSON.stringify(outcome.summary)}\n`
          : `${job.name} ${outcome.period}: not run (${outcome.reason})\n`,
      );
      return 0;
    }
    case 'simulate-transaction': {
      const { values } = parseArgs({
        args: rest,
        options: {
          card: { type: 'string' },
          amount: { type: 'string' },
          merchant: { type: 'string', default: 'Sandbox Merchant' },
          country: { type: 'string', default: 'GH' },
          mcc: { type: 'string', default: '5999' },
          currency: { type: 'string', default: 'USD' },
          // biome-ignore lint/suspicious/noThenProperty: the sandbox's --then option (parseArgs options, never awaited)
          then: { type: 'string' },
        },
      });
      const parsed = sandboxAuthorizationBody.safeParse({
        card_id: values.card,
        amount: values.amount,
        merchant: values.merchant,
        country: values.country,
        mcc: values.mcc,
        currency: values.currency,
      });
      if (!parsed.success) {
        process.stderr.write(`${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')}\n`);
        return 2;
      }
      const text = await withContext(async (ctx) => {
        const [card] = await ctx.db.select().from(cards).where(eq(cards.id, parsed.data.card_id));
        if (!card) return 'No card has this id.';
        const { card_id: _c, partial_allowed, ...req } = parsed.data;
        const d = await ctx.issuer.simulateAuthorization(card.issuerToken, { ...req, partialAllowed: partial_allowed });
        let line = d.approved
          ? `Approved: ${values.amount} ${req.currency} at ${req.merchant}`
          : `Declined: ${d.declineReason}`;
        if (d.approved && values.then) {
          const [auth] = await ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, d.transactionId));
          if (values.then === 'settle') await ctx.issuer.settle(auth!.issuerReference!);
          else if (values.then === 'reverse') await ctx.issuer.reverse(auth!.issuerReference!);
          line += `, then ${values.then === 'settle' ? 'settled' : 'reversed'}`;
        }
        return `${line} (transaction ${d.transactionId})`;
      });
      process.stdout.write(`${text}\n`);
      return 0;
    }
    case 'chain-send': {
      const { values } = parseArgs({
        args: rest,
        options: { to: { type: 'string' }, amount: { type: 'string' }, confirmations: { type: 'string' } },
      });
      const parsed = sandboxChainTransferBody.safeParse({
        to: values.to,
        amount: values.amount,
        confirmations: values.confirmations,
      });
      if (!parsed.success) {
        process.stderr.write(`${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')}\n`);
        return 2;
      }
      const { hash } = await withContext((ctx) => sendSandboxDeposit(ctx, parsed.data, null));
      process.stdout.write(`${hash}\n`);
      return 0;
    }
    case 'reconcile': {
      // What is due at the issuer first (a worker of this process), then the comparison.
      const run = await withContext(async (ctx) => {
        while ((await performDue(ctx)) > 0) {
          /* settle what is due */
        }
        return reconcile(ctx, 'cli');
      });
      process.stdout.write(
        `reconciliation ${run.run_at}: ${run.checked} cards checked, ${run.drift.length} with drift\n`,
      );
      for (const d of run.drift)
        process.stdout.write(`  card ${d.card_id}: ledger ${d.ledger}, issuer ${d.issuer ?? 'unknown'}: ${d.reason}\n`);
      return run.drift.length ? 3 : 0;
    }
    case 'rotate-key': {
      const { values } = parseArgs({
        args: rest,
        options: { batch: { type: 'string', default: '500' }, 'new-recovery-secret': { type: 'boolean' } },
      });
      const batchSize = Number(values.batch);
      if (!Number.isInteger(batchSize) || batchSize < 1) {
        process.stderr.write('--batch is a whole number of rows\n');
        return 2;
      }
      const report = await withDatabase((d, config) =>
        rotateKey({ config, log: pino({ level: 'warn' }) }, d, {
          batchSize,
          newRecoverySecret: values['new-recovery-secret'],
          progress: (line) => process.stdout.write(`${line}\n`),
        }),
      );
      for (const c of report.columns)
        process.stdout.write(`${c.column}: ${c.resealed} re-sealed, ${c.changedMeanwhile} rewritten meanwhile\n`);
      process.stdout.write(
        report.checkMoved
          ? 'Key check moved to ENCRYPTION_KEY: start every instance without ENCRYPTION_KEY_PREVIOUS.\n'
          : 'Key check already names ENCRYPTION_KEY.\n',
      );
      if (values['new-recovery-secret'])
        process.stdout.write('New recovery-code secret: unused recovery codes are void; restart every instance now.\n');
      return 0;
    }
    case 'backup':
    case 'restore':
      return backupCommand(command, rest);
    case 'demo-accounts':
      process.stdout.write(`${demoAccountsText()}\n`);
      return 0;
    case 'help':
    case '--help':
      process.stdout.write(`${HELP}\n`);
      return 0;
    default:
      process.stderr.write(`Unknown command: ${command}\n\n${HELP}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      `${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
