import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../lib/http';
import { metrics, processRegistry } from '../../lib/metrics';
import { databaseGauges } from './gauges';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a proxy adds: a request that came through one is not the machine's own, whatever its socket says. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compared as digests, so neither the token's length nor its first differing byte shows in the time taken. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return !!m && timingSafeEqual(digest(m[1]!), digest(token));
}

/** A caller on this machine, straight to the socket: a local Prometheus or an operator's curl. */
function fromLoopback(req: FastifyRequest): boolean {
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && !FORWARDED.some((h) => h in req.headers);
}

/**
 * `GET /metrics`, outside the versioned API: Prometheus's text format, this process's counters and
 * Node's defaults followed by the database's gauges. A bearer METRICS_TOKEN, or without one the
 * loopback only (a 403 for others: the route is no secret, its figures are).
 */
export default async function metricsRoutes(app: FastifyInstance) {
  const { metricsToken } = app.ctx.config.observability;
  const gauges = databaseGauges(app.ctx);
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (metricsToken) {
      if (!tokenMatches(req.headers.authorization, metricsToken))
        throw unauthorized('The metrics need the bearer METRICS_TOKEN.', 'Bearer realm="metrics"');
    } else if (!fromLoopback(req)) {
      throw forbidden('The metrics are served to this machine only: set METRICS_TOKEN to scrape them from elsewhere.');
    }
    const text = (await processRegistry.metrics()) + metrics.httpText() + (await gauges.read(req.log));
    return reply.type(processRegistry.contentType).header('cache-control', 'no-store').send(text);
  });
}
