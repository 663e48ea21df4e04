import pg from 'pg';
import { openDatabase } from '../../../server/db/client';

export interface MigratedDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, migrated database on the PostgreSQL server of `serverUrl`, and how to drop it. */
export async function createMigratedDatabase(serverUrl: string, prefix: string): Promise<MigratedDatabase> {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 2 });
  await db.migrate();
  await db.close();
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
