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
