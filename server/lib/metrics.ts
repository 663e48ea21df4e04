import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's own metrics (what happened in this instance): one registry per process, since a
 * counter counts work this process did. `GET /metrics` adds, per app, the gauges read from the
 * database at scrape time (server/modules/metrics). Other modules record through the functions
 * below, one line each. Names: `cw_` and Prometheus's base units (seconds, bytes, `_total`);
 * Node's defaults keep prom-client's standard names, which stock dashboards expect.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

/** A read answers in about a millisecond; a statement's PDF or a CSV export in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HTTP_NAME = 'cw_http_request_duration_seconds';

interface Series {
  labels: string;
  /** per bucket (not cumulative), the last for +Inf */
  counts: number[];
  sum: number;
  count: number;
}

const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * The request histogram, kept by hand rather than by prom-client's Histogram: its observe() hashes and
 * checks the label set on every call, which measured 20 µs a request in the server (bench/metrics.ts); here a
 * route's recorder holds its series by status code, so a request costs a map lookup and a bucket's increment.
 */
class RequestHistogram {
  /** by `method route`: apps built in one process (tests) share their series */
  private readonly routes = new Map<string, Map<number, Series>>();

  recorder(method: string, route: string): (status: number, seconds: number) => void {
    const key = `${method} ${route}`;
    const byStatus = this.routes.get(key) ?? new Map<number, Series>();
    this.routes.set(key, byStatus);
    const prefix = `method="${label(method)}",route="${label(route)}",status_code="`;
    return (status, seconds) => {
      let s = byStatus.get(status);
      if (!s) {
        s = { labels: `${prefix}${status}"`, counts: new Array(BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
        byStatus.set(status, s);
      }
      let i = 0;
      while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
      s.counts[i]!++;
      s.sum += seconds;
      s.count++;
    };
  }

  /** Prometheus's text format: cumulative buckets up to +Inf, then the sum and the count. */
  text(): string {
    const out = [
      `# HELP ${HTTP_NAME} HTTP requests by route pattern, method and status code: how long each took to answer.`,
      `# TYPE ${HTTP_NAME} histogram`,
    ];
    for (const byStatus of this.routes.values())
      for (const s of byStatus.values()) {
        let cumulative = 0;
        for (let i = 0; i <= BUCKETS.length; i++) {
          cumulative += s.counts[i]!;
          const le = i < BUCKETS.length ? String(BUCKETS[i]) : '+Inf';
          out.push(`${HTTP_NAME}_bucket{${s.labels},le="${le}"} ${cumulative}`);
        }
        out.push(`${HTTP_NAME}_sum{${s.labels}} ${s.sum}`, `${HTTP_NAME}_count{${s.labels}} ${s.count}`);
      }
    return `${out.join('\n')}\n`;
  }
}

const httpDuration = new RequestHistogram();

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

const replicaReads = new Counter({
  name: 'cw_replica_reads_total',
  help: 'Reads that could go to the read replica (lists, reports, exports), by where they went: replica or primary.',
  labelNames: ['target'] as const,
  registers: [processRegistry],
});

/** Requests no route matched share one label: raw paths would make a series per scanner's guess. */
const UNMATCHED = 'unmatched';

export const metrics = {
  /** One route's (or, with route undefined, the unmatched requests') recorder of durations by status. */
  httpRoute(method: string, route: string | undefined) {
    return httpDuration.recorder(method, route ?? UNMATCHED);
  },
  /** The request histogram in Prometheus's text format. */
  httpText: () => httpDuration.text(),
  /** A list, report or export read: from the replica, or from the primary (replica behind, down, or the reader's own write). */
  replicaRead(target: 'replica' | 'primary') {
    replicaReads.inc({ target });
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
