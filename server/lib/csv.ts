import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
  /** An amount or count the server computes: written as a number ("-12.50"), never as text. */
  numeric?: true;
}

export interface Cursor {
  at: Date;
  id: string;
}

/** One batch after the cursor (a keyset position, or an offset for small lists). */
export type Batch<T, C = Cursor> = (cursor: C | null, limit: number) => Promise<{ rows: T[]; next: C | null }>;

const CSV_BATCH = 1000;

/** A plain decimal, the only shape a numeric column writes unprefixed. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** Leading characters on which a spreadsheet starts a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell: quoted when it holds a separator (`,`, or `;` for spreadsheets set to it), a quote
 * or a line break. Text that a spreadsheet would run as a formula gets a leading apostrophe; a
 * numeric column's plain decimals ("-12.50") stay numbers, and anything else in it is text.
 */
export function csvCell(v: string | number | boolean | null | undefined, numeric = false): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  const isNumber = typeof v === 'number' || (numeric && PLAIN_NUMBER.test(s));
  if (!isNumber && FORMULA_START.test(s)) s = `'${s}`;
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: Array<string | number | boolean | null | undefined>, numeric: boolean[] = []) =>
  `${cells.map((c, i) => csvCell(c, numeric[i])).join(',')}\r\n`;

/**
 * Streams a report as CSV, fetching it in keyset batches, so a million rows never sit in memory
 * at once; the client's filters are the batches' filters. The first batch is read before anything
 * is sent: a refusal it raises (no such account, not yours) is then an ordinary error answer,
 * not a stream cut off after its 200.
 */
export async function sendCsv<T, C = Cursor>(
  reply: FastifyReply,
  filename: string,
  columns: CsvColumn<T>[],
  batch: Batch<T, C>,
) {
  const numeric = columns.map((c) => c.numeric === true);
  const text = (rows: T[]) =>
    rows
      .map((r) =>
        csvLine(
          columns.map((c) => c.value(r)),
          numeric,
        ),
      )
      .join('');
  const first = await batch(null, CSV_BATCH);
  async function* lines() {
    yield `\uFEFF${csvLine(columns.map((c) => c.header))}`;
    let { rows, next } = first;
    for (;;) {
      if (rows.length) yield text(rows);
      if (!next || rows.length < CSV_BATCH) return;
      ({ rows, next } = await batch(next, CSV_BATCH));
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}-${new Date().toISOString().slice(0, 10)}.csv"`)
    .send(Readable.from(lines()));
}

/** The keyset cursor after the last row of a batch. */
export const cursorOf = <T>(rows: T[], at: (r: T) => string | Date, id: (r: T) => string): Cursor | null => {
  const last = rows[rows.length - 1];
  return last ? { at: new Date(at(last)), id: id(last) } : null;
};

/** Batches of a list that pages by offset (small lists ordered by something other than time). */
export const byOffset =
  <T>(fetch: (page: { limit: number; offset: number }) => Promise<{ rows: T[] }>): Batch<T, number> =>
  async (offset, limit) => {
    const { rows } = await fetch({ limit, offset: offset ?? 0 });
    return { rows, next: (offset ?? 0) + rows.length };
  };
