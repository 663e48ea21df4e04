import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { newIndividual, newStaff } from './support/actors';
import { charge, newCard } from './support/cards';
import { fundWallet } from './support/money';

const TOKEN = 'metrics-token-0123456789abcdef0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format (0.0.4), strictly: every sample belongs to a family with HELP and TYPE before it. */
function parseExposition(text: string) {
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const samples: Sample[] = [];
  const familyOf = (name: string) =>
    type.has(name)
      ? name
      : name.replace(/_(bucket|sum|count|total|created)$/, (m) => (type.has(name.slice(0, -m.length)) ? '' : m));
  for (const line of text.split('\n')) {
    if (!line) continue;
    let m = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (m) {
      help.set(m[1]!, m[2]!);
      continue;
    }
    m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (m) {
      expect(help.has(m[1]!), `HELP before TYPE for ${m[1]}`).toBe(true);
      type.set(m[1]!, m[2]!);
      continue;
    }
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    expect(m, `a sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m![2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    const name = m![1]!;
    expect(type.has(familyOf(name)), `TYPE declared for ${name}`).toBe(true);
    samples.push({ name, labels, value: Number(m![3]!.replace('+Inf', 'Infinity')) });
  }
  return { help, type, samples };
}

const scrape = async (t: TestApp, headers: Record<string, string> = {}) => {
  const res = await fetch(`${t.url}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text(), headers: res.headers };
};

const sumOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /metrics', () => {
  it("is Prometheus's text format: HELP and TYPE for every family, histograms with cumulative buckets", async () => {
    await t.api('GET', '/health');
    const res = await scrape(t);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { type, samples } = parseExposition(res.text);
    for (const [name, kind] of Object.entries({
      cw_http_request_duration_seconds: 'histogram',
      cw_ledger_transfers_total: 'counter',
      cw_card_authorizations_total: 'counter',
      cw_webhook_delivery_failures_total: 'counter',
      cw_issuer_outbox_depth: 'gauge',
      cw_issuer_outbox_oldest_age_seconds: 'gauge',
      cw_webhook_events: 'gauge',
      cw_mail_queue_depth: 'gauge',
      cw_mail_queue_oldest_age_seconds: 'gauge',
      cw_chain_watcher_lag_seconds: 'gauge',
      cw_job_last_success_timestamp_seconds: 'gauge',
      cw_reconciliation_drift_cards: 'gauge',
      cw_db_pool_connections: 'gauge',
      cw_metrics_database_up: 'gauge',
      process_cpu_seconds_total: 'counter',
      nodejs_eventloop_lag_seconds: 'gauge',
      process_resident_memory_bytes: 'gauge',
    }))
      expect(type.get(name), name).toBe(kind);
    expect(sumOf(samples, 'cw_metrics_database_up')).toBe(1);
    // One line per series, however many apps this process has built.
    const keys = samples.map((x) => `${x.name}${JSON.stringify(Object.entries(x.labels).sort())}`);
    expect(keys.length).toBe(new Set(keys).size);
    // Each scheduled job's last success is the newest finished run in job_runs (0 when none).
    const runs = await t.ctx.database.query<{ job: string; at: number }>(
      'metrics_test_jobs',
      'select job, extract(epoch from max(finished_at))::float8 as at from job_runs where finished_at is not null group by job',
      [],
    );
    for (const job of ['expire-holds', 'reconciliation', 'housekeeping', 'card-maintenance']) {
      const at = runs.find((r) => r.job === job)?.at ?? 0;
      expect(sumOf(samples, 'cw_job_last_success_timestamp_seconds', { job })).toBeCloseTo(Number(at), 2);
    }

    // The last reconciliation's drift, card by card (0 before any run).
    const [last] = await t.ctx.database.query<{ n: number | null }>(
      'metrics_test_drift',
      'select jsonb_array_length(drift) as n from reconciliation_runs order by run_at desc limit 1',
      [],
    );
    expect(sumOf(samples, 'cw_reconciliation_drift_cards')).toBe(Number(last?.n ?? 0));

    // The health check's series: by route pattern, method and status; buckets cumulative up to +Inf = count.
    const series = { route: '/api/v1/health', method: 'GET', status_code: '200' };
    const buckets = samples.filter(
      (s) =>
        s.name === 'cw_http_request_duration_seconds_bucket' &&
        Object.entries(series).every(([k, v]) => s.labels[k] === v),
    );
    expect(buckets.length).toBeGreaterThan(5);
    const les = buckets.map((b) => Number(b.labels.le!.replace('+Inf', 'Infinity')));
    expect(les).toEqual([...les].sort((a, b) => a - b));
    expect(les.at(-1)).toBe(Number.POSITIVE_INFINITY);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(buckets.at(-1)!.value).toBe(sumOf(samples, 'cw_http_request_duration_seconds_count', series));
    expect(sumOf(samples, 'cw_http_request_duration_seconds_sum', series)).toBeGreaterThan(0);
  });

  it('labels a request by its route pattern, not its URL; what no route matches is "unmatched"', async () => {
    const a = await newIndividual(t);
    await t.api('GET', `/wallet/account-balance/${a.id}`, { token: a.token });
    await t.api('GET', '/no-such-thing-1234');
    const { samples } = parseExposition((await scrape(t)).text);
    const routes = new Set(
      samples.filter((s) => s.name === 'cw_http_request_duration_seconds_count').map((s) => s.labels.route),
    );
    expect(routes).toContain('/api/v1/wallet/account-balance/:id');
    expect(routes).toContain('unmatched');
    expect([...routes].some((r) => r?.includes(a.id) || r?.includes('no-such-thing'))).toBe(false);
  });

  it('counts requests, ledger transfers and card authorisations as they happen', async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 100_000);
    const { card } = await newCard(t, a, { purpose: 'general', card_amount: '50.00' });
    const before = parseExposition((await scrape(t)).text).samples;

    const sent = await t.api('POST', '/wallet/transfer', { token: a.token, body: { wallet_id: b.id, amount: '1.00' } });
    expect(sent.status).toBe(200);
    expect((await charge(t, staff, card.id, '2.00')).status).toBe(201);
    expect((await charge(t, staff, card.id, '5000.00')).status).toBe(201);
    await t.api('GET', '/health');

    const after = parseExposition((await scrape(t)).text).samples;
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sumOf(after, name, labels) - sumOf(before, name, labels);
    expect(moved('cw_ledger_transfers_total', { kind: 'transfer' })).toBe(1);
    expect(moved('cw_card_authorizations_total', { outcome: 'approved' })).toBe(1);
    expect(moved('cw_card_authorizations_total', { outcome: 'declined', decline_code: 'insufficient_funds' })).toBe(1);
    expect(
      moved('cw_http_request_duration_seconds_count', { route: '/api/v1/health', method: 'GET', status_code: '200' }),
    ).toBe(1);
    expect(
      moved('cw_http_request_duration_seconds_count', {
        route: '/api/v1/wallet/transfer',
        method: 'POST',
        status_code: '200',
      }),
    ).toBe(1);
  });

  it('without METRICS_TOKEN answers the loopback only: a request through a proxy is refused (403)', async () => {
    expect((await scrape(t)).status).toBe(200);
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const res = await scrape(t, { [header]: header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9' });
      expect(res.status, header).toBe(403);
      expect(JSON.parse(res.text).message).toMatch(/METRICS_TOKEN/);
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await startTestApp({
      observability: { ...t.ctx.config.observability, metricsToken: TOKEN },
    });
  });
  afterAll(() => s.close());

  it('wants the bearer token, from anywhere (401 without it or with a wrong one)', async () => {
    expect((await scrape(s, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await scrape(s, { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${TOKEN}`,
      'Bearer',
    ]) {
      const res = await scrape(s, authorization ? { authorization } : {});
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.text).not.toContain('cw_');
    }
  });
});

describe('METRICS=off', () => {
  it('records nothing per request and /metrics is not served', async () => {
    const s = await startTestApp({ observability: { ...t.ctx.config.observability, metrics: false } });
    try {
      const res = await scrape(s);
      expect(res.status).not.toBe(200);
      expect(res.text).not.toContain('cw_http_request_duration_seconds');
    } finally {
      await s.close();
    }
  });
});
