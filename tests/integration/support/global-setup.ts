import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase, pgliteExtensions } from '../../../server/db/client';
import { createMigratedDatabase } from './pg-database';

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
    const db = await createMigratedDatabase(process.env.TEST_DATABASE_URL!, 'cw_test');
    project.provide('postgresUrl', db.url);
    project.provide('pgliteTemplate', '');
    return db.drop;
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
