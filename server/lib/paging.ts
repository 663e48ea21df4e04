import type { FastifyRequest } from 'fastify';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { PageQuery, Paged } from '@shared/contract';
import type { Cursor } from './csv';

export const offsetOf = (q: PageQuery) => (q.page - 1) * q.per_page;

/**
 * A page of a list: by offset (screens), or after a keyset cursor (CSV exports of any size: set
 * `after`, null for the first batch; exports skip the totals).
 */
export interface Page {
  limit: number;
  offset: number;
  after?: Cursor | null;
}

export const isExport = (page: Page) => page.after !== undefined;

/**
 * Rows strictly after the cursor in (at desc, id desc) order, as one row comparison: the planner
 * turns it into an index condition (an index on (…, at) starts at the cursor instead of reading
 * every newer row again) and estimates it by `at` alone, so each batch of an export costs the
 * same however deep into the list it is.
 */
export function afterCursor(at: PgColumn, id: PgColumn, page: Page): SQL | undefined {
  const c = page.after;
  if (!c) return undefined;
  return sql`(${at}, ${id}) < (${sql.param(c.at, at)}, ${sql.param(c.id, id)})`;
}

/** The list envelope; links keep the request's own filters and change only the page. */
export function paged<T>(req: FastifyRequest, rows: T[], total: number, q: PageQuery): Paged<T> {
  const lastPage = Math.max(1, Math.ceil(total / q.per_page));
  const [path, query] = req.url.split('?');
  const link = (page: number) => {
    const params = new URLSearchParams(query ?? '');
    params.set('page', String(page));
    params.set('per_page', String(q.per_page));
    return `${path}?${params.toString()}`;
  };
  const from = rows.length ? offsetOf(q) + 1 : null;
  return {
    data: rows,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: q.page > 1 ? link(Math.min(q.page - 1, lastPage)) : null,
      next: q.page < lastPage ? link(q.page + 1) : null,
    },
    from,
    to: from === null ? null : from + rows.length - 1,
    total,
    current_page: q.page,
    last_page: lastPage,
    per_page: q.per_page,
  };
}

/**
 * A search matching at most this many rows is paged by sorting its matches; more, by walking the list newest first
 * until a page of them is met. Left to itself the planner chooses from its estimate of a contains-search's matches,
 * which can be far off (ILIKE '%Co 123%' over 166,667 companies: 420 estimated, 277 matched, every one old), and then
 * walked 135,718 rows for a page of 25 (80-150 ms). Counted first, the choice is made on the real number. Above it the
 * matches are many, so a walk meets a page of them soon; sorting them would read them all.
 */
const SORT_MATCHES_AT_MOST = 10_000;

/**
 * Newest first by (at, id), the lists' order. With `matches` (the rows the filters select, counted first) at most
 * `sortAtMost`, by an expression of `at` no index has, in the same order: the planner then reads the matches from
 * their own index and sorts them instead of walking the list's.
 */
export function newestFirst(at: PgColumn, id: PgColumn, matches?: number, sortAtMost = SORT_MATCHES_AT_MOST): SQL[] {
  const sorted = matches !== undefined && matches <= sortAtMost;
  return [sorted ? sql`${at} + interval '0 seconds' desc` : sql`${at} desc`, sql`${id} desc`];
}

/**
 * A page and its total: both at once, or for a search the total first, for newestFirst() to choose how the page is
 * found (`rows` gets the matches' count).
 */
export async function pageAndTotal<R>(
  search: boolean,
  total: () => PromiseLike<Array<{ n: number | string }>>,
  rows: (matches?: number) => PromiseLike<R[]>,
): Promise<[R[], number]> {
  if (!search) {
    const [r, [t]] = await Promise.all([rows(), total()]);
    return [r, Number(t?.n ?? 0)];
  }
  const [t] = await total();
  const n = Number(t?.n ?? 0);
  return [await rows(n), n];
}
