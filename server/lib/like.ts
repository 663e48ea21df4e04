const escaped = (v: string) => v.replace(/[%_\\]/g, (c) => `\\${c}`);

/** An ILIKE pattern matching values that contain `v` as typed: its %, _ and \ stand for themselves. */
export const containing = (v: string) => `%${escaped(v)}%`;

/** A LIKE pattern matching values that start with `v` as typed. */
export const startingWith = (v: string) => `${escaped(v)}%`;
