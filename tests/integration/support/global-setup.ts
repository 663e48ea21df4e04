import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, pgliteExtensions } from '../../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresUrl: string;
  }
}

/**
 * Migrates one database for the whole run: a PGlite data dir dumped to a tarball that each
 * test file loads into memory, or a fresh PostgreSQL database that all files share.
 */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB ?? 'pglite';
  if (kind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `cw_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    const db = await openDatabase({ url: url.toString(), poolSize: 2 });
    await db.migrate();
    await db.close();
    project.provide('postgresUrl', url.toString());
    project.provide('pgliteTemplate', '');
    return async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cw-tpl-'));
  const pgl = await PGlite.create(path.join(dir, 'db'), { extensions: await pgliteExtensions() });
  const db = await openDatabase({ pglite: pgl });
  await db.migrate();
  const dump = await pgl.dumpDataDir('none');
  await pgl.close();
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresUrl', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
