const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** start_date and end_date (UTC days, both inclusive) as a half-open range of instants. */
export function dayRange(start?: string, end?: string): { from?: Date; to?: Date } {
  return {
    from: start ? new Date(`${start}T00:00:00.000Z`) : undefined,
    // The day after 9999-12-31 is a year the database cannot hold: its last instant instead.
    to: end ? new Date(Math.min(new Date(`${end}T00:00:00.000Z`).getTime() + 86_400_000, LAST_INSTANT)) : undefined,
  };
}
