import { describe, inject } from 'vitest';

/**
 * Tests that need a PostgreSQL server (several processes on one database, connections the server ends, the CLI in
 * a process of its own) run in the PostgreSQL project only. Without TEST_DATABASE_URL that project does not exist, so
 * the PGlite run says which ones it skipped rather than passing them over in silence.
 */
const postgresUrl = inject('postgresUrl');

function skipped(name: string) {
  console.info(`PostgreSQL only, skipped: "${name}" (set TEST_DATABASE_URL to run it)`);
}

export function describeOnPostgres(name: string, body: () => void) {
  if (!postgresUrl) skipped(name);
  return describe.skipIf(!postgresUrl)(name, body);
}
