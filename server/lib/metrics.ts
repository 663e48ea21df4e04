import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's own metrics (what happened in this instance): one registry per process, since a
 * counter counts work this process did. `GET /metrics` adds, per app, the gauges read from the
 * database at scrape time (server/modules/metrics). Other modules record through the functions
 * below, one line each. Names: `cw_` and Prometheus's base units (seconds, bytes, `_total`);
 * Node's defaults keep prom-client's standard names, which stock dashboards expect.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

const httpDuration = new Histogram({
  name: 'cw_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status code: how long each took to answer.',
  labelNames: ['method', 'route', 'status_code'] as const,
  // A read answers in about a millisecond; a statement's PDF or a CSV export in seconds.
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

const ledgerTransfers = new Counter({
  name: 'cw_ledger_transfers_total',
  help: 'Ledger transfers posted by this instance, by kind.',
  labelNames: ['kind'] as const,
  registers: [processRegistry],
});

const cardAuthorizations = new Counter({
  name: 'cw_card_authorizations_total',
  help: 'Card authorisations decided by this instance: approved, partial or declined (with the decline code).',
  labelNames: ['outcome', 'decline_code'] as const,
  registers: [processRegistry],
});

const webhookFailures = new Counter({
  name: 'cw_webhook_delivery_failures_total',
  help: 'Webhook delivery attempts that failed, by what follows: retry, failed (no tries left) or gone (410).',
  labelNames: ['next'] as const,
  registers: [processRegistry],
});

const spansDropped = new Counter({
  name: 'cw_trace_spans_dropped_total',
  help: 'Request spans not exported to the OTLP endpoint (queue full, or the endpoint failed).',
  registers: [processRegistry],
});

/** Requests no route matched share one label: raw paths would make a series per scanner's guess. */
const UNMATCHED = 'unmatched';

export const metrics = {
  httpRequest(method: string, route: string | undefined, status: number, seconds: number) {
    httpDuration.observe({ method, route: route ?? UNMATCHED, status_code: status }, seconds);
  },
  ledgerTransfer(kind: string, n = 1) {
    ledgerTransfers.inc({ kind }, n);
  },
  /** A decision the platform made (a replay of one already made counts again: the issuer asked again). */
  cardAuthorization(
    decision: { approved: boolean; approvedAmount: number; declineCode: string | null },
    asked: number,
  ) {
    const outcome = !decision.approved ? 'declined' : decision.approvedAmount < asked ? 'partial' : 'approved';
    cardAuthorizations.inc({ outcome, decline_code: decision.declineCode ?? '' });
  },
  webhookFailure(next: 'retry' | 'failed' | 'gone') {
    webhookFailures.inc({ next });
  },
  spansDropped(n: number) {
    spansDropped.inc(n);
  },
};
