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
import type { Mail, Mailer } from '../../../server/lib/mailer';
import { memoryMailer, serveApp } from './http';

export interface SentMail extends Mail {
  to: string;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  ip?: string;
  idempotencyKey?: string;
}

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

/**
 * `mailer` replaces the one that keeps mail in `mails` (e.g. a slow one); it is given that list to fill.
 * `spaRoot` serves a built web app from that directory; `postgresUrl` a database other than the shared one.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  opts: { mailer?: (sent: SentMail[]) => Mailer; spaRoot?: string; postgresUrl?: string } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-it-'));
  const postgresUrl = opts.postgresUrl ?? inject('postgresUrl');
  const database = postgresUrl
    ? await openDatabase({ url: postgresUrl, poolSize: 10 })
    : await openDatabase({
        pglite: await PGlite.create({
          loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
          extensions: await pgliteExtensions(),
        }),
      });
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
