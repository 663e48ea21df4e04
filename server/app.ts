import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Mailer } from './lib/mailer';
import { refusingNul } from './lib/nul';
import { createContext } from './context-factory';
import multipart from '@fastify/multipart';
import docs from './plugins/docs';
import { UPLOAD_LIMITS } from './lib/uploads';
import errors from './plugins/errors';
import idempotency from './plugins/idempotency';
import audit from './plugins/audit';
import permissions from './plugins/permissions';
import security from './plugins/security';
import routing from './plugins/routing';
import observability, { childLoggerFactory } from './plugins/observability';
import metricsRoutes from './modules/metrics/routes';
import { Readiness } from './modules/health/ready';
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
  /** serve this built web app (tests give a small one) instead of dist/ when SERVE_SPA is on */
  spaRoot?: string;
}

const DIST = fileURLToPath(new URL('../dist', import.meta.url));

/** Query values may be single-use tokens: log the keys only. */
function redactUrl(url: string): string {
  const [p, q] = url.split('?');
  if (!q) return p!;
  const keys = new URLSearchParams(q);
  return `${p}?${[...keys.keys()].map((k) => `${k}=[redacted]`).join('&')}`;
}

/** One line per request, written when it ends, instead of Fastify's two: logging was a tenth of a read's cost. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, req: FastifyRequest, reply: FastifyReply) {
    const line = { req, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
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
    logController: new OneLinePerRequest(),
    genReqId: () => randomUUID(),
    childLoggerFactory,
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The router matches a parameter of any length Node lets through (16 KiB of headers): its own limit
    // answered a bare 414, or fell through to the web app's catch-all and came back a 405. plugins/routing.ts
    // refuses a long one as a 404, a long path as a 414, in the one error shape.
    routerOptions: { maxParamLength: 16 * 1024 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(refusingNul(validatorCompiler));
  // Answers are JSON.stringify of what handlers return; in test they must match their documented schemas.
  app.setSerializerCompiler(responseSerializerCompiler(responseCheckFor(config.env), app.log));

  database.onConnectionLost((err) =>
    app.log.warn({ err }, 'the database ended an idle connection; the pool opens another when needed'),
  );
  const ctx = createContext({ config, database, log: app.log, mailer: opts.mailer, now: opts.now });
  app.decorate('ctx', ctx);
  // Mail still being sent after its answer goes out before the database closes.
  app.addHook('onClose', () => ctx.background.settled());
  await ctx.sessions.start(database);
  app.addHook('onClose', () => ctx.sessions.stop());
  app.decorateRequest('user', null);
  if (ctx.reads.enabled) {
    // The caller's next screen reads their own write: where the primary's WAL is once it has committed.
    app.addHook('onSend', async (req, reply) => ctx.reads.wrote(req, reply));
    database.replica?.onChange((status, err) =>
      app.log[status.state === 'up' ? 'info' : 'warn'](
        { replica: status, err },
        status.state === 'up' ? 'read replica in use' : 'read replica not used: reads go to the primary',
      ),
    );
  }
  app.decorate('readiness', new Readiness());
  // Draining, every answer closes its connection: a load balancer's kept-alive connections end with their last
  // request, so the server closes within the shutdown's time instead of waiting out their idle timeout (72 s).
  app.addHook('onSend', async (_req, reply) => {
    if (app.readiness.draining) reply.header('connection', 'close');
  });

  // External plugins, then the app's own, then routes.
  await app.register(security);
  await app.register(observability, { observability: config.observability });
  // Before any route: it learns every route's methods (405, OPTIONS) and answers what none takes.
  await app.register(routing);
  // A file over the size limit is refused on its own field by readForm (422), not as a 413 for the whole form.
  await app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: false });
  await app.register(docs);
  await app.register(errors);
  await app.register(idempotency);
  await app.register(audit);
  await app.register(documentedResponses, { env: config.env });
  await app.register(permissions);
  await app.register(apiRoutes, { prefix: '/api/v1' });
  if (config.observability.metrics) await app.register(metricsRoutes);
  if (config.serveSpa || opts.spaRoot) await app.register(spa, { root: path.resolve(opts.spaRoot ?? DIST) });

  return app;
}
