/** start_date and end_date (UTC days, both inclusive) as a half-open range of instants. */
export function dayRange(start?: string, end?: string): { from?: Date; to?: Date } {
  return {
    from: start ? new Date(`${start}T00:00:00.000Z`) : undefined,
    to: end ? new Date(new Date(`${end}T00:00:00.000Z`).getTime() + 86_400_000) : undefined,
  };
}
