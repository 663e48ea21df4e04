import { FailureLimiter } from '../lib/rate-limit';
import { pruneIdempotency } from '../db/idempotency-keys';
import { compactWalletTotals } from '../modules/reports/totals';
import type { Job } from './runner';

/**
 * Forgets idempotency records past their replay window (kept twice its 24 hours) and
 * rate-limit windows that ended a day ago, and folds the wallet lists' per-posting totals into
 * one row per day and kind. Deleting what is old is idempotent, so an
 * overlapping or repeated run does no harm.
 */
export const housekeeping: Job = {
  name: 'housekeeping',
  description: 'Prune expired idempotency records and old rate-limit windows, fold the wallet totals (hourly)',
  periodOf: (d) => d.toISOString().slice(0, 13),
  async run(ctx) {
    const now = ctx.now();
    await pruneIdempotency(ctx.db, now);
    await new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now).prune(now);
    await compactWalletTotals(ctx.db);
    return { pruned_at: now.toISOString() };
  },
};
