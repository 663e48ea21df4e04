import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../../../server/config';
import type { AppContext } from '../../../server/context';
import { openDatabase, pgliteExtensions } from '../../../server/db/client';
import type { ReplicaOptions } from '../../../server/db/replica';
import type { Mailer } from '../../../server/lib/mailer';
import { type ApiResponse, type RequestOptions, type SentMail, memoryMailer, serveApp } from './http';

export interface TestApp {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  mails: SentMail[];
  logs: string[];
  clock: { now(): Date; advance(ms: number): void };
  api<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/** A PGlite loaded from the run's migrated template (about 1.5 s of CPU). */
const loadTemplate = async () =>
  PGlite.create({
    loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
    extensions: await pgliteExtensions(),
  });

async function openMigrated(dataDir: string) {
  const d = await openDatabase({ dataDir });
  await d.migrate();
  return d;
}

/**
 * The worker's database on PGlite runs: one for every file this worker runs (they run one after another),
 * as on PostgreSQL, where every file shares one database, so each file already expects others' data beside
 * its own. It is never closed: it ends with the worker.
 */
let workerPglite: Promise<PGlite> | undefined;

/**
 * `mailer` replaces the one that keeps mail in `mails` (e.g. a slow one); it is given that list to fill.
 * `spaRoot` serves a built web app from that directory; `postgresUrl` a database other than the shared one;
 * `ownPglite` a PGlite of this app's own on PGlite runs (for a test that counts everything in the database);
 * `pgliteDir` an embedded database in that directory (created and migrated if new), as the CLI opens it.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  opts: {
    mailer?: (sent: SentMail[]) => Mailer;
    spaRoot?: string;
    postgresUrl?: string;
    ownPglite?: boolean;
    pgliteDir?: string;
    /** a read replica beside postgresUrl (a standby the test made) */
    replica?: ReplicaOptions;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-it-'));
  const postgresUrl = opts.postgresUrl ?? inject('postgresUrl');
  const database = postgresUrl
    ? await openDatabase({ url: postgresUrl, poolSize: 10, replica: opts.replica })
    : opts.pgliteDir
      ? await openMigrated(opts.pgliteDir)
      : opts.ownPglite
        ? await openDatabase({ pglite: await loadTemplate() })
        : { ...(await openDatabase({ pglite: await (workerPglite ??= loadTemplate()) })), close: async () => {} };
  const config = loadConfig(
    { NODE_ENV: 'test', DATA_DIR: dataDir, SERVE_SPA: 'false', TRUST_PROXY: 'true', LOG_LEVEL: 'info' },
    { encryptionKey: Buffer.alloc(32, 7), ...overrides },
  );
  const mails: SentMail[] = [];
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const { app, url, clock, api } = await serveApp({
    config,
    database,
    mailer: (opts.mailer ?? memoryMailer)(mails),
    logStream,
    spaRoot: opts.spaRoot,
  });
  return {
    url,
    app,
    ctx: app.ctx,
    mails,
    logs,
    clock,
    api,
    async close() {
      // A response a test left unread must not hold the server (and its database client) open.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await database.close();
    },
  };
}
