import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, pgliteExtensions } from '../../server/db/client';

/**
 * Database.migrate() at start: a migrated database is left alone after one query (no migrator run),
 * and one that misses the newest migration still gets it. PGlite only: the check is the same SQL on
 * PostgreSQL, where the server-process test starts on a migrated database.
 */

const folder = path.resolve(__dirname, '../../server/db/migrations');
const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
  entries: Array<{ tag: string }>;
};
const scratch = mkdtempSync(path.join(os.tmpdir(), 'cw-migrations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The migrations folder without its newest migration: a database from the previous release. */
function allButNewest(): string {
  const dir = path.join(scratch, 'previous');
  mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, -1);
  for (const e of entries) copyFileSync(path.join(folder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  return dir;
}

const applied = async (pgl: PGlite) =>
  (await pgl.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]!.n;

describe.skipIf(!!inject('postgresUrl'))('migrations at start', () => {
  it('applies the migrations a database lacks, and nothing on a migrated one', async () => {
    const pgl = await PGlite.create({ extensions: await pgliteExtensions() });
    try {
      await migrate(drizzle(pgl), { migrationsFolder: allButNewest() });
      expect(await applied(pgl)).toBe(journal.entries.length - 1);

      const database = await openDatabase({ pglite: pgl });
      await database.migrate();
      expect(await applied(pgl)).toBe(journal.entries.length);

      // Up to date: migrate() answers without running the migrator (which would lock and query more).
      const queries: string[] = [];
      const query = pgl.query.bind(pgl);
      const exec = pgl.exec.bind(pgl);
      pgl.query = ((sql: string, ...rest: unknown[]) => {
        queries.push(sql);
        return query(sql, ...(rest as []));
      }) as typeof pgl.query;
      pgl.exec = ((sql: string, ...rest: unknown[]) => {
        queries.push(sql);
        return exec(sql, ...(rest as []));
      }) as typeof pgl.exec;
      await database.migrate();
      expect(queries).toHaveLength(1);
      expect(await applied(pgl)).toBe(journal.entries.length);
    } finally {
      await pgl.close();
    }
  });
});
