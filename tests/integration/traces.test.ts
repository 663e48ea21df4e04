import { type Server, createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The JSON log lines of one request, by the id the answer's log line carries. */
function linesOf(app: TestApp, reqId: string) {
  return app.logs
    .flatMap((chunk) => chunk.split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.reqId === reqId);
}

const lastRequestId = (app: TestApp, url: string) => {
  const line = app.logs
    .flatMap((chunk) => chunk.split('\n'))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { reqId?: string; req?: { url?: string } })
    .findLast((l) => l.req?.url === url);
  return line!.reqId!;
};

describe('W3C traceparent', () => {
  it("continues the caller's trace: its trace id on every log line of the request, answered in traceresponse", async () => {
    const res = await t.api('POST', '/account/login', {
      body: { email: 'nobody-traced@example.com', password: 'wrong-password-1' },
      headers: { traceparent: `00-${TRACE}-${PARENT}-01` },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const [version, trace, span, flags] = res.headers.get('traceresponse')!.split('-');
    expect([version, trace, flags]).toEqual(['00', TRACE, '01']);
    expect(span).toMatch(/^[0-9a-f]{16}$/);
    expect(span).not.toBe(PARENT);
    const lines = linesOf(t, lastRequestId(t, '/api/v1/account/login'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(line).toMatchObject({ trace_id: TRACE, span_id: span, trace_flags: 1 });
  });

  it('puts the trace on each line a request logs, however many (a scrape whose database fails logs two)', async () => {
    const database = t.ctx.database;
    const query = database.query;
    database.query = () => Promise.reject(new Error('connection refused'));
    let text: string;
    try {
      const res = await fetch(`${t.url}/metrics`, { headers: { traceparent: `00-${TRACE}-${PARENT}-00` } });
      expect(res.status).toBe(200);
      text = await res.text();
    } finally {
      database.query = query;
    }
    // The database's gauges are left out, not served stale.
    expect(text).toMatch(/^cw_metrics_database_up 0$/m);
    expect(text).not.toContain('cw_issuer_outbox_depth');
    const lines = linesOf(t, lastRequestId(t, '/metrics'));
    expect(lines.map((l) => l.msg)).toEqual(['metrics: the database gauges could not be read', 'request completed']);
    for (const line of lines) expect(line).toMatchObject({ trace_id: TRACE, trace_flags: 0 });
  });

  it('starts a new trace for a header the specification calls invalid', async () => {
    const invalid = [
      `ff-${TRACE}-${PARENT}-01`, // version ff
      `00-${TRACE.toUpperCase()}-${PARENT}-01`, // upper case
      `00-${'0'.repeat(32)}-${PARENT}-01`, // all-zero trace id
      `00-${TRACE}-${'0'.repeat(16)}-01`, // all-zero parent id
      `00-${TRACE}-${PARENT}-01-extra`, // version 00 has four fields exactly
      `00-${TRACE.slice(1)}-${PARENT}-01`, // short trace id
      `00-${TRACE}-${PARENT}`, // no flags
      'garbage',
    ];
    for (const traceparent of invalid) {
      const res = await t.api('GET', '/health', { headers: { traceparent } });
      expect(res.status).toBe(200);
      const [, trace] = res.headers.get('traceresponse')!.split('-');
      expect(trace, traceparent).toMatch(/^[0-9a-f]{32}$/);
      expect(trace, traceparent).not.toBe(TRACE);
    }
    // A later version is read by its first four fields, and may carry more.
    const later = await t.api('GET', '/health', { headers: { traceparent: `01-${TRACE}-${PARENT}-00-more` } });
    expect(later.headers.get('traceresponse')!.split('-').slice(1, 2)).toEqual([TRACE]);
    expect(later.headers.get('traceresponse')!.endsWith('-00')).toBe(true);
  });

  it('without a traceparent, each request is a new trace, logged and answered', async () => {
    const a = await t.api('GET', '/health');
    const b = await t.api('GET', '/health');
    const ta = a.headers.get('traceresponse')!.split('-')[1];
    const tb = b.headers.get('traceresponse')!.split('-')[1];
    expect(ta).not.toBe(tb);
    const lines = linesOf(t, lastRequestId(t, '/api/v1/health'));
    expect(lines[0]).toMatchObject({ trace_id: tb });
  });
});

describe('OTLP export (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let collector: Server;
  let endpoint: string;
  const received: Array<{ path: string; headers: Record<string, unknown>; body: any }> = [];
  let answer = 200;
  let s: TestApp;

  beforeAll(async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: JSON.parse(body) });
        res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const address = collector.address();
    endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    s = await startTestApp({
      observability: {
        ...t.ctx.config.observability,
        otlp: {
          tracesUrl: `${endpoint}/v1/traces`,
          headers: { 'x-api-key': 'k1' },
          timeoutMs: 1000,
          serviceName: 'cw-test',
        },
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    collector.close();
  });

  const spans = () =>
    received.flatMap((r) =>
      (r.body.resourceSpans as any[]).flatMap((rs) => (rs.scopeSpans as any[]).flatMap((ss) => ss.spans as any[])),
    );

  it('posts each request as a server span, in batches, with its trace and parent', async () => {
    const started = Date.now();
    await s.api('GET', '/health', { headers: { traceparent: `00-${TRACE}-${PARENT}-01` } });
    await s.api('GET', '/no-such-route-here');
    // Not sampled by its caller: not exported.
    await s.api('GET', '/health', { headers: { traceparent: `00-${'1'.repeat(32)}-${PARENT}-00` } });
    const until = Date.now() + 10_000;
    while (spans().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));

    expect(received[0]!.path).toBe('/v1/traces');
    expect(received[0]!.headers['content-type']).toBe('application/json');
    expect(received[0]!.headers['x-api-key']).toBe('k1');
    const resource = received[0]!.body.resourceSpans[0].resource.attributes;
    expect(resource).toContainEqual({ key: 'service.name', value: { stringValue: 'cw-test' } });

    const all = spans();
    expect(all.some((x) => x.traceId === '1'.repeat(32))).toBe(false);
    const health = all.find((x) => x.traceId === TRACE)!;
    expect(health).toMatchObject({ parentSpanId: PARENT, name: 'GET /api/v1/health', kind: 2, status: {} });
    expect(health.spanId).toMatch(/^[0-9a-f]{16}$/);
    const start = BigInt(health.startTimeUnixNano);
    const end = BigInt(health.endTimeUnixNano);
    expect(end >= start).toBe(true);
    expect(Number(start / 1_000_000n)).toBeGreaterThanOrEqual(started - 5);
    expect(Number(end / 1_000_000n)).toBeLessThanOrEqual(Date.now());
    expect(health.attributes).toContainEqual({ key: 'http.route', value: { stringValue: '/api/v1/health' } });
    expect(health.attributes).toContainEqual({ key: 'http.response.status_code', value: { intValue: '200' } });
    const unmatched = all.find((x) => x.traceId !== TRACE)!;
    expect(unmatched).toMatchObject({ name: 'GET' });
    expect(unmatched.parentSpanId).toBeUndefined();
  });

  it('never holds a request when the collector fails: the batch is dropped and counted', async () => {
    answer = 503;
    const dropped = async () => {
      const text = await (await fetch(`${s.url}/metrics`)).text();
      return Number(/^cw_trace_spans_dropped_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const before = await dropped();
    const n = received.length;
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) expect((await s.api('GET', '/health')).status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(2_000);
    const until = Date.now() + 10_000;
    while ((await dropped()) < before + 5 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(received.length).toBeGreaterThan(n);
    expect(await dropped()).toBeGreaterThanOrEqual(before + 5);
    answer = 200;
  });
});
