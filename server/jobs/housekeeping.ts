import { FailureLimiter } from '../lib/rate-limit';
import { pruneIdempotency } from '../plugins/idempotency';
import type { Job } from './runner';

/**
 * Forgets idempotency records past their replay window (kept twice its 24 hours) and
 * rate-limit windows that ended a day ago. Deleting what is old is idempotent, so an
 * overlapping or repeated run does no harm.
 */
export const housekeeping: Job = {
  name: 'housekeeping',
  description: 'Prune expired idempotency records and old rate-limit windows (hourly)',
  periodOf: (d) => d.toISOString().slice(0, 13),
  async run(ctx) {
    const now = ctx.now();
    await pruneIdempotency(ctx.db, now);
    await new FailureLimiter(ctx.db, ctx.config.rateLimit.windowSeconds, ctx.now).prune(now);
    return { pruned_at: now.toISOString() };
  },
};
