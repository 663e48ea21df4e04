import { and, eq, lt, sql } from 'drizzle-orm';
import type { RateLimitConfig } from '../config';
import type { DbOrTx } from '../db/client';
import { rateLimits } from '../db/schema';
import { tooMany } from './http';

export interface Limit {
  key: string;
  max: number;
  /** this limit's window; the limiter's own when absent */
  windowSeconds?: number;
  /** how many consecutive windows, the current one last, count together (1 when absent) */
  windows?: number;
}

/** The account-wide hour is counted in 10-minute slices: 7 of them hold any hour, so no hour holds more than max. */
const SLICES_PER_SPAN = 6;

/**
 * Limits on guessing one account's secret. The account-wide limit is high (ASVS 2.2.1: at most
 * 100 failures an hour) because anyone who knows the account's name can spend it: the tight
 * limits are per (account, address) and per address, so the owner elsewhere still gets in.
 */
export function guessLimits(cfg: RateLimitConfig, scope: string, account: string, ip: string): Limit[] {
  return [
    { key: pairKey(scope, account, ip), max: cfg.perAccountAddress },
    { key: `${scope}:ip:${ip}`, max: cfg.perAddress },
    {
      key: `${scope}:acct:${account}`,
      max: cfg.perAccount,
      windowSeconds: cfg.accountWindowSeconds / SLICES_PER_SPAN,
      windows: SLICES_PER_SPAN + 1,
    },
  ];
}

/** Account names are validated (an email or a client id has no space), so the space ends the account. */
const pairKey = (scope: string, account: string, ip: string) => `${pairPrefix(scope, account)}${ip}`;
export const pairPrefix = (scope: string, account: string) => `${scope}:acct-ip:${account} `;

/** An attempt counted before the secret was checked; taken back when the secret was right. */
export interface Attempt {
  takeBack(): Promise<void>;
}

interface Span {
  limit: Limit;
  seconds: number;
  /** the window starts this limit sums, oldest first (ms) */
  starts: number[];
}

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

  private windowStart(now: Date, seconds = this.windowSeconds): Date {
    const w = seconds * 1000;
    return new Date(Math.floor(now.getTime() / w) * w);
  }

  private span(limit: Limit, now: Date): Span {
    const seconds = limit.windowSeconds ?? this.windowSeconds;
    const windows = limit.windows ?? 1;
    const current = this.windowStart(now, seconds).getTime();
    return {
      limit,
      seconds,
      starts: Array.from({ length: windows }, (_, i) => current - (windows - 1 - i) * seconds * 1000),
    };
  }

  /** The counts of each span's windows, oldest first. */
  private async counts(spans: Span[]): Promise<number[][]> {
    const pairs = spans.flatMap((s) =>
      s.starts.map((ms) => sql`(${s.limit.key}, ${new Date(ms).toISOString()}::timestamptz)`),
    );
    if (!pairs.length) return spans.map(() => []);
    const rows = await this.db
      .select({ key: rateLimits.key, windowStart: rateLimits.windowStart, count: rateLimits.count })
      .from(rateLimits)
      .where(sql`(${rateLimits.key}, ${rateLimits.windowStart}) in (${sql.join(pairs, sql`, `)})`);
    const found = new Map(rows.map((r) => [`${r.key} ${r.windowStart.getTime()}`, r.count]));
    return spans.map((s) => s.starts.map((ms) => found.get(`${s.limit.key} ${ms}`) ?? 0));
  }

  /**
   * Counts one attempt against `counted` before the secret is checked, so parallel guesses cannot
   * all pass a check made before any of them was counted: each increment returns the new count in
   * the statement that makes it. Throws 429 (taking the attempt back) when any of `counted` is now
   * over its limit, or any of `checked` (limits this attempt does not count against) is reached.
   * A wrong secret keeps the attempt; call takeBack() when the secret was right.
   */
  async attempt(counted: Limit[], checked: Limit[] = [], now = this.clock()): Promise<Attempt> {
    const hits = counted
      .map((limit) => ({
        key: limit.key,
        windowStart: this.windowStart(now, limit.windowSeconds ?? this.windowSeconds),
      }))
      // one order for every statement, so two of them never wait on each other's rows
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const takeBack = async () => {
      // one row a statement: a statement that holds no row while waiting for another cannot deadlock
      for (const h of hits) {
        await this.db
          .update(rateLimits)
          .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
          .where(and(eq(rateLimits.key, h.key), eq(rateLimits.windowStart, h.windowStart)));
      }
    };
    const current = new Map<string, number>();
    if (hits.length) {
      const rows = await this.db
        .insert(rateLimits)
        .values(hits.map((h) => ({ ...h, count: 1 })))
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + 1` },
        })
        .returning({ key: rateLimits.key, count: rateLimits.count });
      for (const r of rows) current.set(r.key, r.count);
    }
    // Earlier windows of a multi-window limit are not written to by an attempt, so reading them apart is exact.
    const spans = [...counted, ...checked].map((l) => this.span(l, now));
    const read = await this.counts(
      spans.map((s, i) => (i < counted.length ? { ...s, starts: s.starts.slice(0, -1) } : s)),
    );
    for (const [i, s] of spans.entries()) {
      // the counts before this attempt, oldest window first
      const counts = i < counted.length ? [...read[i]!, (current.get(s.limit.key) ?? 1) - 1] : read[i]!;
      if (counts.reduce((a, b) => a + b, 0) < s.limit.max) continue;
      await takeBack();
      throw this.refusal(counts, s, now);
    }
    return { takeBack };
  }

  private refusal(counts: number[], { limit, seconds }: Span, now: Date) {
    // Each window that ends lets the oldest counted one go; reopen once enough have gone.
    let total = counts.reduce((a, b) => a + b, 0);
    let gone = 0;
    while (total >= limit.max && gone < counts.length) total -= counts[gone++]!;
    const reopens = this.windowStart(now, seconds).getTime() + gone * seconds * 1000;
    const retry = Math.ceil((reopens - now.getTime()) / 1000);
    const minutes = Math.max(1, Math.ceil(retry / 60));
    return tooMany(
      `Too many failed attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      retry,
    );
  }

  async hit(key: string, now = this.clock(), windowSeconds = this.windowSeconds): Promise<number> {
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, windowStart: this.windowStart(now, windowSeconds), count: 1 })
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

  async clearPrefix(prefix: string): Promise<void> {
    await this.db.delete(rateLimits).where(sql`starts_with(${rateLimits.key}, ${prefix})`);
  }

  /** Throws 429 when any of the given limits is reached, with the wait until it reopens. */
  async assertUnder(limits: Limit[], now = this.clock()): Promise<void> {
    const spans = limits.map((l) => this.span(l, now));
    const counts = await this.counts(spans);
    for (const [i, s] of spans.entries()) {
      if (counts[i]!.reduce((a, b) => a + b, 0) >= s.limit.max) throw this.refusal(counts[i]!, s, now);
    }
  }

  /** Housekeeping: forget windows that ended long ago. */
  async prune(now = this.clock()): Promise<void> {
    await this.db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - 86_400_000)));
  }
}
