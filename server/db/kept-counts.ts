import { type Column, sql } from 'drizzle-orm';

/**
 * A kept count's total (the `rows` of a table such as card_count, summed over its slots and the keys matched), as a
 * number: what a list reads instead of counting its rows.
 */
export const keptRows = (rows: Column) => sql<number>`coalesce(sum(${rows}), 0)`.mapWith(Number);
