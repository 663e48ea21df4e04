import { inject } from 'vitest';
import { type MigratedDatabase, createMigratedDatabase } from './pg-database';

export type PrivateDatabase = MigratedDatabase;

/**
 * A migrated PostgreSQL database of a test file's own, on the server of the shared one. For files
 * that start server processes: a server always runs the issuer worker (and, with RUN_JOBS, the
 * webhook dispatcher), which would otherwise perform other files' owed operations mid-test.
 * Null on PGlite runs.
 */
export async function privatePostgres(): Promise<PrivateDatabase | null> {
  const shared = inject('postgresUrl');
  return shared ? createMigratedDatabase(shared, 'cw_private') : null;
}
