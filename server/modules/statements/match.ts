import type { StatementLine } from './csv';

/** A ledger movement of a source, in the statement's terms. */
export interface Movement {
  transferId: string;
  reference: string;
  kind: string;
  /** signed cents, positive into the platform */
  amount: number;
  /** epoch milliseconds */
  at: number;
  /** what a statement's reference may carry of it, upper case: our reference, the tx hash, the issuer's id */
  keys: string[];
}

export interface MatchRules {
  tolerance: number;
  windowMs: number;
  reference: 'contains' | 'off';
  oneToMany: boolean;
  /** the statement gives no direction: amounts are compared without their sign */
  absolute: boolean;
}

interface LineResult {
  line: StatementLine;
  matched: boolean;
  movements: Movement[];
  reason: string | null;
}

export interface MatchResult {
  lines: LineResult[];
  /** ledger movements of the period that no line matched */
  missingTheirs: Movement[];
}

/** How far a group of movements may be summed at most: a day's settlement of a busy card program is a few hundred. */
const MAX_GROUP = 500;

/** The tokens of a statement's reference a ledger key may be: the whole, and its words. */
export function tokensOf(reference: string | null): string[] {
  if (!reference) return [];
  const up = reference.trim().toUpperCase();
  return [...new Set([up, ...up.split(/[^A-Z0-9_-]+/).filter((t) => t.length >= 4)])];
}

const money = (c: number) =>
  `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;

/** The first index in a sorted array whose value is at least `v`. */
function lowerBound<T>(a: T[], v: number, of: (x: T) => number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (of(a[mid]!) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Matches a statement's lines against the ledger's movements of its source, in memory and in
 * O((n + m) log m) for the usual case: by reference through a hash of the ledger's keys, or by amount
 * through buckets sorted by time; then, when allowed, one line against several movements (or several
 * lines against one) within the window. A movement serves one line, except as one of a group.
 */
export function matchStatement(
  lines: StatementLine[],
  movements: Movement[],
  rules: MatchRules,
  period: { from: number; to: number },
): MatchResult {
  const amountOf = (c: number) => (rules.absolute ? Math.abs(c) : c);
  const fits = (a: number, m: Movement) => Math.abs(amountOf(a) - amountOf(m.amount)) <= rules.tolerance;
  const near = (at: number, m: Movement) => Math.abs(at - m.at) <= rules.windowMs;
  const taken = new Set<Movement>();
  const results: LineResult[] = [...lines]
    .sort((a, b) => a.at - b.at || a.line - b.line)
    .map((line) => ({ line, matched: false, movements: [], reason: null }));
  const closest = new Map<LineResult, Movement>();

  if (rules.reference === 'contains') {
    const byKey = new Map<string, Movement[]>();
    for (const m of movements)
      for (const k of m.keys) {
        const list = byKey.get(k);
        if (list) list.push(m);
        else byKey.set(k, [m]);
      }
    for (const r of results) {
      const candidates = new Set(tokensOf(r.line.reference).flatMap((t) => byKey.get(t) ?? []));
      let best: Movement | null = null;
      for (const m of candidates) {
        if (taken.has(m)) continue;
        if (fits(r.line.amount, m) && near(r.line.at, m)) {
          const d = (x: Movement) =>
            Math.abs(amountOf(r.line.amount) - amountOf(x.amount)) * 1e13 + Math.abs(r.line.at - x.at);
          if (!best || d(m) < d(best)) best = m;
        } else if (!closest.has(r)) closest.set(r, m);
      }
      if (best) take(r, [best]);
    }
  } else {
    // Buckets of one amount each, sorted by time; the amounts themselves sorted for the tolerance's range.
    const buckets = new Map<number, Movement[]>();
    for (const m of movements) {
      const k = amountOf(m.amount);
      const b = buckets.get(k);
      if (b) b.push(m);
      else buckets.set(k, [m]);
    }
    for (const b of buckets.values()) b.sort((x, y) => x.at - y.at);
    const amounts = [...buckets.keys()].sort((x, y) => x - y);
    for (const r of results) {
      const a = amountOf(r.line.amount);
      let best: { m: Movement; bucket: Movement[]; i: number } | null = null;
      for (let k = lowerBound(amounts, a - rules.tolerance, (x) => x); k < amounts.length; k++) {
        if (amounts[k]! > a + rules.tolerance) break;
        const bucket = buckets.get(amounts[k]!)!;
        // The bucket holds only movements not yet taken: the nearest in time are either side of the line's.
        const at = lowerBound(bucket, r.line.at, (m) => m.at);
        for (const i of [at - 1, at]) {
          const m = bucket[i];
          if (!m || !near(r.line.at, m)) continue;
          const score = (x: Movement) => Math.abs(a - amountOf(x.amount)) * 1e13 + Math.abs(r.line.at - x.at);
          if (!best || score(m) < score(best.m)) best = { m, bucket, i };
        }
      }
      if (best) {
        best.bucket.splice(best.i, 1);
        take(r, [best.m]);
      }
    }
  }

  if (rules.oneToMany) {
    groupLinesToMovements();
    groupMovementsToLines();
  }

  for (const r of results) {
    if (r.matched) continue;
    const m = closest.get(r);
    if (!m || taken.has(m)) continue;
    taken.add(m);
    r.movements = [m];
    const why = !fits(r.line.amount, m)
      ? `the amounts differ by ${money(Math.abs(amountOf(r.line.amount) - amountOf(m.amount)))}, more than the tolerance of ${money(rules.tolerance)}`
      : `they are ${Math.round(Math.abs(r.line.at - m.at) / 3_600_000)} hours apart, outside the ${rules.windowMs / 3_600_000}-hour window`;
    r.reason = `Our ledger has ${m.reference} for ${money(m.amount)} on ${new Date(m.at).toISOString()}: ${why}.`;
  }
  const missingTheirs = movements
    .filter((m) => !taken.has(m) && m.at >= period.from && m.at < period.to)
    .sort((a, b) => a.at - b.at);
  return { lines: results.sort((a, b) => a.line.line - b.line.line), missingTheirs };

  function take(r: LineResult, ms: Movement[]) {
    r.matched = true;
    r.movements = ms;
    for (const m of ms) taken.add(m);
  }

  /** Same direction, unless the statement has none. */
  function sameWay(a: number, b: number) {
    return rules.absolute || Math.sign(a) === Math.sign(b);
  }

  /** Consecutive items (in time) whose amounts sum to the target within the tolerance: two at least. */
  function run<T>(items: T[], amount: (x: T) => number, target: number): T[] | null {
    const t = Math.abs(target);
    for (let i = 0; i < items.length; i++) {
      let sum = 0;
      for (let j = i; j < items.length && j - i < MAX_GROUP; j++) {
        sum += Math.abs(amount(items[j]!));
        if (j > i && Math.abs(sum - t) <= rules.tolerance) return items.slice(i, j + 1);
        if (sum > t + rules.tolerance) break;
      }
    }
    return null;
  }

  function groupLinesToMovements() {
    const open = movements.filter((m) => !taken.has(m)).sort((a, b) => a.at - b.at);
    for (const r of results) {
      if (r.matched) continue;
      const from = lowerBound(open, r.line.at - rules.windowMs, (m) => m.at);
      let pool: Movement[] = [];
      for (let i = from; i < open.length && open[i]!.at <= r.line.at + rules.windowMs; i++) {
        const m = open[i]!;
        if (!taken.has(m) && sameWay(r.line.amount, m.amount)) pool.push(m);
      }
      if (rules.reference === 'contains') {
        const tokens = new Set(tokensOf(r.line.reference));
        pool = pool.filter((m) => m.keys.some((k) => tokens.has(k)));
        const sum = pool.reduce((s, m) => s + Math.abs(m.amount), 0);
        if (pool.length > 1 && Math.abs(sum - Math.abs(r.line.amount)) <= rules.tolerance) take(r, pool);
        continue;
      }
      const group = run(pool, (m) => m.amount, r.line.amount);
      if (group) take(r, group);
    }
  }

  function groupMovementsToLines() {
    const open = results.filter((r) => !r.matched);
    for (const m of movements) {
      if (taken.has(m)) continue;
      let pool: LineResult[] = [];
      for (let i = lowerBound(open, m.at - rules.windowMs, (r) => r.line.at); i < open.length; i++) {
        const r = open[i]!;
        if (r.line.at > m.at + rules.windowMs) break;
        if (!r.matched && sameWay(r.line.amount, m.amount)) pool.push(r);
      }
      if (rules.reference === 'contains') {
        const keys = new Set(m.keys);
        pool = pool.filter((r) => tokensOf(r.line.reference).some((t) => keys.has(t)));
        const sum = pool.reduce((s, r) => s + Math.abs(r.line.amount), 0);
        if (pool.length > 1 && Math.abs(sum - Math.abs(m.amount)) <= rules.tolerance)
          for (const r of pool) take(r, [m]);
        continue;
      }
      const group = run(pool, (r) => r.line.amount, m.amount);
      if (group) for (const r of group) take(r, [m]);
    }
  }
}
