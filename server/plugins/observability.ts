import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { ObservabilityConfig } from '../config';
import { metrics } from '../lib/metrics';
import { SpanExporter } from '../lib/otlp';
import { type TraceContext, formatTrace, isSampled, traceOf } from '../lib/trace-context';

const TRACE = Symbol('trace context');
const RECORDS = Symbol('records the request histogram');
type OnResponse = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The duration histogram's hook for one route pattern (a HEAD route shares its GET route's: by method). */
function recording(url: string | undefined): OnResponse {
  const byMethod = new Map<string, ReturnType<typeof metrics.httpRoute>>();
  const hook = async (req: FastifyRequest, reply: FastifyReply) => {
    let record = byMethod.get(req.method);
    if (!record) byMethod.set(req.method, (record = metrics.httpRoute(req.method, url)));
    record(reply.statusCode, reply.elapsedTime / 1000);
  };
  return Object.assign(hook, { [RECORDS]: true });
}
type Traced = IncomingMessage & { [TRACE]?: TraceContext };

/**
 * Fastify's per-request logger, with the request's trace (the caller's `traceparent` continued, or
 * a new one) bound beside reqId, under the names OpenTelemetry's pino instrumentation gives them:
 * every line the request logs carries them.
 */
export const childLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  opts,
  rawReq,
) => {
  const trace = traceOf(rawReq.headers.traceparent);
  (rawReq as Traced)[TRACE] = trace;
  return logger.child(
    { ...bindings, trace_id: trace.traceId, span_id: trace.spanId, trace_flags: trace.flags },
    opts,
  ) as FastifyBaseLogger;
};

const traceOfRequest = (req: FastifyRequest): TraceContext | undefined => (req.raw as Traced)[TRACE];

/**
 * Per request: the `traceresponse` header (W3C Trace Context Level 2: the server span's id, so a caller
 * that sent no traceparent still learns the trace to quote), the duration histogram by route
 * pattern, and the span to the OTLP endpoint when one is set.
 */
export default fp<{ observability: ObservabilityConfig }>(
  async (app, { observability }) => {
    const exporter = observability.otlp ? new SpanExporter(observability.otlp, app.log) : null;
    if (exporter) app.addHook('onClose', () => exporter.close());

    app.addHook('onRequest', async (req, reply) => {
      const trace = traceOfRequest(req);
      if (trace) reply.header('traceresponse', formatTrace(trace));
    });
    if (observability.metrics) {
      // Each route records under its own pattern, known when it is registered (no lookup per request).
      app.addHook('onRoute', (route) => {
        const hooks = [route.onResponse ?? []].flat() as OnResponse[];
        if (!hooks.some((h) => RECORDS in h)) route.onResponse = [...hooks, recording(route.url)];
      });
      const unmatched = recording(undefined);
      app.addHook('onResponse', async (req, reply) => {
        if (req.is404) await unmatched(req, reply);
      });
    }
    if (!exporter) return;
    app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
      const trace = traceOfRequest(req);
      if (!trace || !isSampled(trace)) return;
      const route = req.routeOptions.url;
      const ms = reply.elapsedTime;
      const endMs = performance.timeOrigin + performance.now();
      exporter.add({
        traceId: trace.traceId,
        spanId: trace.spanId,
        parentSpanId: trace.parentSpanId,
        // OpenTelemetry's HTTP conventions: "{method} {route}", the method alone when no route matched
        name: route ? `${req.method} ${route}` : req.method,
        startMs: endMs - ms,
        endMs,
        error: reply.statusCode >= 500,
        attributes: {
          'http.request.method': req.method,
          ...(route ? { 'http.route': route } : {}),
          'url.path': req.url.split('?')[0]!,
          'http.response.status_code': reply.statusCode,
          'cw.request_id': req.id,
        },
      });
    });
  },
  { name: 'observability' },
);
