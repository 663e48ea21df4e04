import { PGlite } from '@electric-sql/pglite';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgliteExtensions } from '../../server/db/client';
import { type PrivateDatabase, privatePostgres } from './support/private-db';

/**
 * server/db/sql/ holds the current definition of every function and trigger, one file per topic; the migrations
 * restate them. On a migrated database, running the files (in a transaction, rolled back) must restate each function
 * and trigger of schema public, each in one file, and change none of them. Functions of extensions (pg_trgm) are not
 * ours: they are left out by their dependency on the extension.
 */
const folder = path.resolve(__dirname, '../../server/db/sql');
const files = readdirSync(folder)
  .filter((f) => f.endsWith('.sql'))
  .sort();

interface Connection {
  rows<T>(text: string): Promise<T[]>;
  run(script: string): Promise<void>;
  close(): Promise<void>;
}

/** A migrated database of this file's own: the files' statements take locks that other files' tests would wait on. */
let db: Connection;
let ownDatabase: PrivateDatabase | null = null;
beforeAll(async () => {
  ownDatabase = await privatePostgres();
  if (ownDatabase) {
    const client = new pg.Client({ connectionString: ownDatabase.url });
    await client.connect();
    db = {
      rows: async (text) => (await client.query(text)).rows,
      run: async (script) => void (await client.query(script)),
      close: () => client.end(),
    };
  } else {
    const pgl = await PGlite.create({
      loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]),
      extensions: await pgliteExtensions(),
    });
    db = {
      rows: async (text) => (await pgl.query(text)).rows as never[],
      run: async (script) => void (await pgl.exec(script)),
      close: () => pgl.close(),
    };
  }
});
afterAll(async () => {
  await db?.close();
  await ownDatabase?.drop();
});

interface Definition {
  name: string;
  /** the transaction that last wrote its catalog row */
  xmin: string;
  def: string;
}

/** Every function and trigger of schema public, with its definition as the database prints it. */
const definitions = async () =>
  new Map(
    (
      await db.rows<Definition>(`
        select 'function ' || p.oid::regprocedure::text as name, p.xmin::text as xmin, pg_get_functiondef(p.oid) as def
        from pg_proc p
        where p.pronamespace = 'public'::regnamespace
          and not exists (select 1 from pg_depend d
                          where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
        union all
        select 'trigger ' || t.tgname || ' on ' || t.tgrelid::regclass::text, t.xmin::text, pg_get_triggerdef(t.oid)
        from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where c.relnamespace = 'public'::regnamespace and not t.tgisinternal`)
    ).map((d) => [d.name, d]),
  );

describe('server/db/sql', () => {
  it('defines every function and trigger of the migrated database, each in one file, as the migrations left it', async () => {
    const migrated = await definitions();
    expect(migrated.size).toBeGreaterThan(0);
    // Which files restated each: every file runs in a savepoint of its own, a subtransaction whose id marks the
    // catalog rows it wrote (CREATE OR REPLACE writes the row even when nothing in it changes).
    const restatedBy = new Map<string, string[]>();
    let last = migrated;
    await db.run('begin');
    try {
      for (const file of files) {
        await db.run('savepoint file');
        await db.run(readFileSync(path.join(folder, file), 'utf8'));
        await db.run('release savepoint file');
        const now = await definitions();
        for (const [name, d] of now)
          if (last.get(name)?.xmin !== d.xmin) restatedBy.set(name, [...(restatedBy.get(name) ?? []), file]);
        last = now;
      }
    } finally {
      await db.run('rollback');
    }

    const names = [...migrated.keys()].sort();
    expect({
      inNoFile: names.filter((n) => !restatedBy.has(n)),
      notInTheDatabase: [...restatedBy.keys()].filter((n) => !migrated.has(n)),
      inSeveralFiles: [...restatedBy].filter(([, by]) => by.length > 1),
      changedByTheFiles: names.filter((n) => last.get(n)?.def !== migrated.get(n)!.def),
    }).toEqual({ inNoFile: [], notInTheDatabase: [], inSeveralFiles: [], changedByTheFiles: [] });
    // Rolled back: the database is as migrated.
    expect(await definitions()).toEqual(migrated);
  });
});
