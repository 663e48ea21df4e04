import type { FastifyBaseLogger } from 'fastify';
import type { ObservabilityConfig } from '../config';
import { metrics } from './metrics';

/**
 * A minimal OpenTelemetry span exporter (no OpenTelemetry package is installed): each request's
 * server span, queued and posted in batches as OTLP/HTTP JSON
 * (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding). A request never waits for it:
 * spans that do not fit the queue, or whose batch the collector refuses or does not take within the
 * timeout, are dropped and counted (cw_trace_spans_dropped_total).
 */
export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** Unix epoch, milliseconds with fractions */
  startMs: number;
  endMs: number;
  error: boolean;
  attributes: Record<string, string | number>;
}

const MAX_QUEUE = 2048;
const MAX_BATCH = 512;
const EVERY_MS = 2_000;
/** OTLP's SpanKind SERVER and StatusCode ERROR */
const SERVER = 2;
const STATUS_ERROR = 2;

const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();
const attribute = (key: string, v: string | number) => ({
  key,
  value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
});

export class SpanExporter {
  private queue: Span[] = [];
  private sending: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly otlp: NonNullable<ObservabilityConfig['otlp']>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => void this.flush(), EVERY_MS);
    this.timer.unref();
  }

  add(span: Span) {
    if (this.queue.length >= MAX_QUEUE) {
      metrics.spansDropped(1);
      return;
    }
    this.queue.push(span);
    if (this.queue.length >= MAX_BATCH && !this.sending) void this.flush();
  }

  /** Sends what is queued, one batch at a time; resolves when the queue is empty or a batch failed. */
  flush(): Promise<void> {
    if (this.sending || !this.queue.length) return this.sending ?? Promise.resolve();
    this.sending = (async () => {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        if (!(await this.send(batch))) break;
      }
    })().finally(() => (this.sending = null));
    return this.sending;
  }

  async close() {
    clearInterval(this.timer);
    await this.sending;
    await this.flush();
  }

  private async send(batch: Span[]): Promise<boolean> {
    try {
      const res = await fetch(this.otlp.tracesUrl, {
        method: 'POST',
        headers: { ...this.otlp.headers, 'content-type': 'application/json' },
        body: JSON.stringify(this.body(batch)),
        signal: AbortSignal.timeout(this.otlp.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return true;
      this.dropped(batch, `the collector answered ${res.status}`);
    } catch (err) {
      this.dropped(batch, (err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message);
    }
    return false;
  }

  private dropped(batch: Span[], why: string) {
    metrics.spansDropped(batch.length);
    this.log.warn({ spans: batch.length, url: this.otlp.tracesUrl, why }, 'spans not exported');
  }

  private body(batch: Span[]) {
    return {
      resourceSpans: [
        {
          resource: { attributes: [attribute('service.name', this.otlp.serviceName)] },
          scopeSpans: [
            {
              scope: { name: 'cardwallet' },
              spans: batch.map((s) => ({
                traceId: s.traceId,
                spanId: s.spanId,
                ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
                name: s.name,
                kind: SERVER,
                startTimeUnixNano: nanos(s.startMs),
                endTimeUnixNano: nanos(s.endMs),
                attributes: Object.entries(s.attributes).map(([k, v]) => attribute(k, v)),
                status: s.error ? { code: STATUS_ERROR } : {},
              })),
            },
          ],
        },
      ],
    };
  }
}
