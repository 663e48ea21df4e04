import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase } from '../../../server/db/client';

export interface PrivateDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A migrated PostgreSQL database of a test file's own, on the server of the shared one. For files
 * that start server processes: a server always runs the issuer worker (and, with RUN_JOBS, the
 * webhook dispatcher), which would otherwise perform other files' owed operations mid-test.
 * Null on PGlite runs.
 */
export async function privatePostgres(): Promise<PrivateDatabase | null> {
  const shared = inject('postgresUrl');
  if (!shared) return null;
  const name = `cw_private_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 2 });
  await db.migrate();
  await db.close();
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: shared });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
