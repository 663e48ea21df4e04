import { and, eq, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../context';
import { jobRuns } from '../db/schema';

export interface Job {
  name: string;
  description: string;
  /** the period a run covers, e.g. '2026-11' for a monthly job */
  periodOf(now: Date): string;
  run(ctx: AppContext, period: string): Promise<Record<string, unknown>>;
}

/** A run still unfinished after this long died with its process; another may take it over. */
const STALE_MS = 30 * 60_000;

export type RunOutcome =
  | { ran: true; period: string; summary: Record<string, unknown> }
  | { ran: false; period: string; reason: string };

/**
 * Runs a job once per period, whichever instance (or the CLI) gets there first: the
 * (job, period) row is the claim. Each job's own work is idempotent too, so a run that
 * died half-way can be repeated safely.
 */
export async function runJob(ctx: AppContext, job: Job, period = job.periodOf(ctx.now())): Promise<RunOutcome> {
  const now = ctx.now();
  const claimed = await ctx.db
    .insert(jobRuns)
    .values({ id: crypto.randomUUID(), job: job.name, period, startedAt: now })
    .onConflictDoNothing()
    .returning({ id: jobRuns.id });
  let runId = claimed[0]?.id;
  if (!runId) {
    const [taken] = await ctx.db
      .update(jobRuns)
      .set({ startedAt: now })
      .where(
        and(
          eq(jobRuns.job, job.name),
          eq(jobRuns.period, period),
          isNull(jobRuns.finishedAt),
          lt(jobRuns.startedAt, new Date(now.getTime() - STALE_MS)),
        ),
      )
      .returning({ id: jobRuns.id });
    if (!taken) return { ran: false, period, reason: 'already ran, or running elsewhere' };
    runId = taken.id;
  }
  const summary = await job.run(ctx, period);
  await ctx.db.update(jobRuns).set({ finishedAt: ctx.now(), summary }).where(eq(jobRuns.id, runId));
  ctx.log.info({ job: job.name, period, summary }, 'job finished');
  return { ran: true, period, summary };
}

/**
 * Checks every few minutes whether a job's current period has run yet. The stop function resolves once a tick in
 * flight has finished: a run cut short by the database closing under it would keep its claim on the period, and no
 * other instance would take the job over until the claim went stale (30 minutes).
 */
export function startScheduler(
  ctx: AppContext,
  jobs: Job[],
  everyMs = 5 * 60_000,
  firstMs = 10_000,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = async () => {
    // Each job on its own: one that keeps failing must not starve the ones after it.
    for (const job of jobs) {
      if (stopped) return;
      try {
        await runJob(ctx, job);
      } catch (err) {
        ctx.log.error({ err, job: job.name }, 'scheduled job failed');
      }
    }
  };
  const start = () => {
    if (running || stopped) return;
    running = tick().finally(() => (running = null));
  };
  const first = setTimeout(start, firstMs);
  const timer = setInterval(start, everyMs);
  timer.unref();
  first.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
