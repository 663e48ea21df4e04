import type { FastifyBaseLogger } from 'fastify';
import { Gauge, Registry } from 'prom-client';
import type { AppContext } from '../../context';
import { JOBS } from '../../jobs';

/**
 * The gauges read from the database when Prometheus scrapes: two small statements, every one of
 * them on an index (partial ones for what waits), so a scrape costs a few milliseconds however big
 * the ledger. They describe the shared database, so every instance reports the same values:
 * aggregate them with max(), not sum().
 */
const STATE = `select
  (select count(*) from issuer_operations where state = 'pending')::int as outbox_depth,
  (select min(created_at) from issuer_operations where state = 'pending') as outbox_oldest,
  (select count(*) from webhook_events where state = 'pending')::int as webhooks_pending,
  (select count(*) from webhook_events where state = 'failed')::int as webhooks_failed,
  (select count(*) from notifications where mail_state = 'pending')::int as mail_pending,
  (select min(created_at) from notifications where mail_state = 'pending') as mail_oldest,
  (select min(scanned_at) from deposit_addresses) as chain_oldest_scan,
  (select min(created_at) from deposit_addresses where scanned_at is null) as chain_oldest_unscanned,
  (select jsonb_array_length(drift) from reconciliation_runs order by run_at desc limit 1)::int as recon_drift`;
const JOB_SUCCESSES = `select job, max(finished_at) as finished_at from job_runs
  where finished_at is not null group by job`;

interface State {
  outbox_depth: number;
  outbox_oldest: Date | string | null;
  webhooks_pending: number;
  webhooks_failed: number;
  mail_pending: number;
  mail_oldest: Date | string | null;
  chain_oldest_scan: Date | string | null;
  chain_oldest_unscanned: Date | string | null;
  recon_drift: number | null;
}

/** pg's Pool as it counts its clients; PGlite is one connection in the process, no pool. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

const time = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());
const ageSeconds = (now: number, ...times: Array<number | null>) => {
  const known = times.filter((t): t is number => t !== null);
  return known.length ? Math.max(0, (now - Math.min(...known)) / 1000) : 0;
};

/** The app's database gauges in a registry of their own, read once per scrape. */
export function databaseGauges(ctx: AppContext) {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const outboxDepth = gauge('cw_issuer_outbox_depth', 'Card issuer operations waiting in the outbox.');
  const outboxAge = gauge(
    'cw_issuer_outbox_oldest_age_seconds',
    'Age of the oldest card issuer operation still waiting (0 when none waits).',
  );
  const webhooks = gauge('cw_webhook_events', 'Webhook events by state: pending (to deliver) and failed (given up).', [
    'state',
  ]);
  const mailDepth = gauge('cw_mail_queue_depth', 'Notification mails waiting to be sent.');
  const mailAge = gauge(
    'cw_mail_queue_oldest_age_seconds',
    'Age of the oldest mail still waiting (0 when none waits).',
  );
  const chainLag = gauge(
    'cw_chain_watcher_lag_seconds',
    'How long ago the deposit watcher last asked the chain about its least recently asked address.',
  );
  const jobSuccess = gauge(
    'cw_job_last_success_timestamp_seconds',
    'When each scheduled job last finished a run (Unix time; 0 when it never has).',
    ['job'],
  );
  const drift = gauge(
    'cw_reconciliation_drift_cards',
    'Cards whose ledger balance the card issuer disagreed with at the last reconciliation (0 before any).',
  );
  const pool = gauge(
    'cw_db_pool_connections',
    'Database connections of this instance by state (total, idle, waiting clients, max).',
    ['state'],
  );

  const up = new Registry();
  const databaseUp = new Gauge({
    name: 'cw_metrics_database_up',
    help: 'Whether this scrape could read the database gauges (1) or not (0: they are left out, not stale).',
    registers: [up],
  });
  // Beside cw_metrics_database_up: a replica's state says nothing of the primary's, and is known without it.
  const replica = ctx.database.replica;
  const replicaUp = replica
    ? new Gauge({
        name: 'cw_replica_up',
        help: 'Whether lists and reports read the replica (1), or the primary because it is down or lagging (0).',
        registers: [up],
      })
    : null;
  const replicaLag = replica
    ? new Gauge({
        name: 'cw_replica_lag_seconds',
        help: 'How far the read replica is behind the primary, as of its last check (-1 while it does not answer).',
        registers: [up],
      })
    : null;

  async function refresh() {
    const [[s], jobs] = await Promise.all([
      ctx.database.query<State>('cw_metrics_state', STATE, []),
      ctx.database.query<{ job: string; finished_at: Date | string }>('cw_metrics_jobs', JOB_SUCCESSES, []),
    ]);
    const now = ctx.now().getTime();
    outboxDepth.set(s!.outbox_depth);
    outboxAge.set(ageSeconds(now, time(s!.outbox_oldest)));
    webhooks.set({ state: 'pending' }, s!.webhooks_pending);
    webhooks.set({ state: 'failed' }, s!.webhooks_failed);
    mailDepth.set(s!.mail_pending);
    mailAge.set(ageSeconds(now, time(s!.mail_oldest)));
    chainLag.set(ageSeconds(now, time(s!.chain_oldest_scan), time(s!.chain_oldest_unscanned)));
    drift.set(s!.recon_drift ?? 0);
    const finished = new Map(jobs.map((j) => [j.job, time(j.finished_at)! / 1000]));
    for (const job of JOBS) jobSuccess.set({ job: job.name }, finished.get(job.name) ?? 0);
    const counts = (ctx.database.db as unknown as { $client: Partial<PoolCounts> }).$client;
    if (typeof counts.totalCount === 'number') {
      pool.set({ state: 'total' }, counts.totalCount);
      pool.set({ state: 'idle' }, counts.idleCount ?? 0);
      pool.set({ state: 'waiting' }, counts.waitingCount ?? 0);
      pool.set({ state: 'max' }, counts.options?.max ?? 10);
    } else {
      pool.set({ state: 'total' }, 1);
      pool.set({ state: 'max' }, 1);
    }
  }

  return {
    /** The gauges' exposition text, or only cw_metrics_database_up 0 when the database does not answer. */
    async read(log: FastifyBaseLogger): Promise<string> {
      const r = replica?.status();
      if (r) {
        replicaUp?.set(r.state === 'up' ? 1 : 0);
        replicaLag?.set(r.lagSeconds ?? -1);
      }
      try {
        await refresh();
        databaseUp.set(1);
        return (await up.metrics()) + (await registry.metrics());
      } catch (err) {
        log.warn({ err }, 'metrics: the database gauges could not be read');
        databaseUp.set(0);
        return up.metrics();
      }
    },
  };
}
