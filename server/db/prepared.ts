import type { DbOrTx } from './client';

const statements = new WeakMap<object, Map<string, unknown>>();

/**
 * A query built once per database handle and reused: Drizzle spends more time building a small
 * query's SQL than the database spends answering it, so the hottest ones are prepared
 * (`.prepare(name)`, with `sql.placeholder` for what varies). On PostgreSQL the name also makes it
 * a server-side prepared statement on each connection.
 */
export function prepared<T>(db: DbOrTx, name: string, build: (db: DbOrTx) => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (!statement) byName.set(name, (statement = build(db)));
  return statement;
}
