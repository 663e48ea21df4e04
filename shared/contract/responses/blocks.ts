import { z } from 'zod';

/** What every answer is built of: the scalars as they go on the wire, the envelopes and the one error shape. */

/** Money: integer cents on the server, a decimal string with exactly two decimals on the wire. */
export const money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('An amount as a decimal string with exactly two decimals, e.g. "1250.00" (USD / USDT unless stated).');

export const timestamp = z.iso
  .datetime()
  .describe('A moment in time: ISO 8601 in UTC, e.g. "2026-01-31T09:30:00.000Z".');

export const id = z.guid().describe('A UUID.');

/** The fields an answer about a person starts with (a user, a staff account, a company's user, an Individual). */
export const personFields = {
  id,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
};

/** Free-form objects whose keys vary (fee breakdowns, audit details, webhook payloads). */
export const freeForm = (description: string) => z.record(z.string(), z.unknown()).describe(description);

/** The success envelope of almost every answer: `{ data }`. */
export const envelope = <T extends z.ZodType>(data: T) => z.strictObject({ data });

export const pageLinks = z
  .strictObject({
    first: z.string().nullable().describe('Path and query of the first page'),
    last: z.string().nullable().describe('Path and query of the last page'),
    prev: z.string().nullable().describe('The previous page, or null on the first'),
    next: z.string().nullable().describe('The next page, or null on the last'),
  })
  .meta({
    id: 'PageLinks',
    description:
      "Links to other pages of the same list; they keep the request's own filters and change only page and per_page.",
  });

const pageFields = {
  links: pageLinks,
  from: z
    .number()
    .int()
    .nullable()
    .describe('Position (1-based) of the first row on this page; null when the page is empty'),
  to: z.number().int().nullable().describe('Position of the last row on this page; null when the page is empty'),
  total: z.number().int().describe('Rows matching the filters, over all pages'),
  current_page: z.number().int().describe('This page (the `page` query parameter)'),
  last_page: z.number().int().describe('The last page (at least 1)'),
  per_page: z.number().int().describe('Rows per page (the `per_page` query parameter, 1 to 100, 25 by default)'),
};

/** The list envelope: one page of rows, links and counts. */
export function paged<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), ...pageFields });
}

/** A list envelope that adds `totals` over all pages. */
export function pagedWithTotals<T extends z.ZodType, S extends z.ZodRawShape>(item: T, totals: z.ZodObject<S>) {
  return paged(item).extend({
    totals: totals.describe('Sums over every row matching the filters, not only this page'),
  });
}

/** The one error shape: a message for people, and `error`: a string, or each field's messages. */
export const errorBody = z
  .strictObject({
    message: z.string().describe('What went wrong, in a sentence to show as it is'),
    error: z
      .union([
        z.string().describe('A short text or code (e.g. `invalid_client` from /oauth/token)'),
        z
          .record(z.string(), z.array(z.string()))
          .describe('On 422: each invalid field (dotted path) with its messages'),
      ])
      .describe('The error: a string, or on validation failures an object of field → messages'),
  })
  .meta({ id: 'ApiError', description: 'Every failure answers this shape.' });

/** `{ message }` alone, inside the envelope (logout, deletions, staff toggles). */
export const messageOnly = z.strictObject({ message: z.string() });

/** An answer with no JSON body (a redirect). */
export const noBody = z.undefined();
