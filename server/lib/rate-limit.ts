import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rateLimits } from '../db/schema';
import { tooMany } from './http';

/**
 * Fixed-window failure counters kept in the database, so every instance of the API
 * sees the same counts.
 */
export class FailureLimiter {
  constructor(
    private readonly db: DbOrTx,
    private readonly windowSeconds: number,
    /** the app's clock (AppContext.now), so windows follow the same time as everything else */
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private windowStart(now: Date): Date {
    const w = this.windowSeconds * 1000;
    return new Date(Math.floor(now.getTime() / w) * w);
  }

  async count(key: string, now = this.clock()): Promise<number> {
    const [row] = await this.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, this.windowStart(now))));
    return row?.count ?? 0;
  }

  async hit(key: string, now = this.clock()): Promise<number> {
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, windowStart: this.windowStart(now), count: 1 })
      .onConflictDoUpdate({
        target: [rateLimits.key, rateLimits.windowStart],
        set: { count: sql`${rateLimits.count} + 1` },
      })
      .returning({ count: rateLimits.count });
    return row!.count;
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(rateLimits).where(eq(rateLimits.key, key));
  }

  /** Throws 429 when any of the given keys has reached its limit. */
  async assertUnder(limits: Array<{ key: string; max: number }>, now = this.clock()): Promise<void> {
    for (const { key, max } of limits) {
      if ((await this.count(key, now)) >= max) {
        const retry = Math.ceil((this.windowStart(now).getTime() + this.windowSeconds * 1000 - now.getTime()) / 1000);
        const minutes = Math.max(1, Math.ceil(retry / 60));
        throw tooMany(
          `Too many failed attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
          retry,
        );
      }
    }
  }

  /** Housekeeping: forget windows that ended long ago. */
  async prune(now = this.clock()): Promise<void> {
    await this.db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)));
  }
}
