import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { HTTP } from './lib/http';
import type { Mailer } from './lib/mailer';
import { createContext } from './context-factory';
import multipart from '@fastify/multipart';
import docs from './plugins/docs';
import { UPLOAD_LIMITS } from './lib/uploads';
import errors from './plugins/errors';
import idempotency from './plugins/idempotency';
import audit from './plugins/audit';
import security from './plugins/security';
import spa from './plugins/spa';
import { apiRoutes } from './routes';
import documentedResponses from './openapi/attach';
import { responseCheckFor, responseSerializerCompiler } from './openapi/serializer';

export interface BuildOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** where JSON log lines go (tests capture them); stdout by default */
  logStream?: NodeJS.WritableStream;
  now?: () => Date;
}

const DIST = fileURLToPath(new URL('../dist', import.meta.url));

/** Query values may be single-use tokens: log the keys only. */
export function redactUrl(url: string): string {
  const [p, q] = url.split('?');
  if (!q) return p!;
  const keys = new URLSearchParams(q);
  return `${p}?${[...keys.keys()].map((k) => `${k}=[redacted]`).join('&')}`;
}

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers are JSON.stringify of what handlers return; in test they must match their documented schemas.
  app.setSerializerCompiler(responseSerializerCompiler(responseCheckFor(config.env), app.log));

  const ctx = createContext({ config, database, log: app.log, mailer: opts.mailer, now: opts.now });
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);

  // External plugins, then the app's own, then routes.
  await app.register(security);
  // A file over the size limit is refused on its own field by readForm (422), not as a 413 for the whole form.
  await app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: false });
  await app.register(docs);
  await app.register(errors);
  await app.register(idempotency);
  await app.register(audit);
  await app.register(documentedResponses, { env: config.env });
  await app.register(apiRoutes, { prefix: '/api/v1' });
  if (config.serveSpa) await app.register(spa, { root: path.resolve(DIST) });

  app.setNotFoundHandler((req, reply) => {
    const spaReady = app.hasDecorator('spaIndex');
    if (spaReady && (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/')) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    const message = `No route for ${req.method} ${req.url.split('?')[0]}.`;
    return reply.status(HTTP.NOT_FOUND).send({ message, error: message });
  });

  return app;
}
