import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../../server/app';
import { type Config, loadConfig } from '../../../server/config';
import type { AppContext } from '../../../server/context';
import { openDatabase } from '../../../server/db/client';
import type { Mail, Mailer } from '../../../server/lib/mailer';
import { apiClient } from './http';

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

/** A mailer that keeps what it sends, for assertions (the .eml writer is covered end to end). */
function memoryMailer(into: SentMail[]): Mailer {
  return {
    async send(mail) {
      const to = Array.isArray(mail.to) ? mail.to.join(',') : mail.to;
      into.push({ ...mail, to });
    },
  };
}

export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cw-it-'));
  const postgresUrl = inject('postgresUrl');
  const database = postgresUrl
    ? await openDatabase({ url: postgresUrl, poolSize: 10 })
    : await openDatabase({
        pglite: await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) }),
      });
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
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
  const app = await buildApp({ config, database, mailer: memoryMailer(mails), logStream, now: clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const api = apiClient(url);


  return {
    url,
    app,
    ctx: app.ctx,
    mails,
    logs,
    clock,
    api,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
