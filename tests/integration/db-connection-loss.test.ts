import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { type Actor, newIndividual } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { describeOnPostgres } from './support/postgres-only';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { walletOf } from './support/wallet';

/**
 * PostgreSQL ends connections the app holds idle (a restart, a failover, an administrator): the
 * server keeps running and answers the next request on a new connection. On a database of its own,
 * so ending every connection to it touches no other file's.
 */
let t: TestApp;
let own: PrivateDatabase | null = null;
let customer: Actor;

/** Ends every other session on the database, as `pg_terminate_backend` does on a server restart. */
async function terminateAll(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows[0].n;
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  own = await privatePostgres();
  if (!own) return;
  t = await startTestApp({}, { postgresUrl: own.url });
  customer = await newIndividual(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

describeOnPostgres('a connection the database ends', () => {
  it("opens its sessions with the server's settings (a parallel plan only for a big query)", async () => {
    const r = (await t.ctx.db.execute('show parallel_setup_cost')) as unknown as {
      rows: Array<Record<string, string>>;
    };
    expect(r.rows[0]!.parallel_setup_cost).toBe('10000');
  });

  it('while idle in the pool: logged, not fatal; the next request is answered', async () => {
    const balance = () => t.api('GET', `/wallet/account-balance/${walletOf(customer)}`, { token: customer.token });
    expect((await balance()).status).toBe(200);
    expect(await terminateAll(own!.url)).toBeGreaterThan(0);
    // An uncaught 'error' would fail this file (vitest reports it) before the next request.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await balance();
    expect(after.status).toBe(200);
    expect(after.body.data).toBe('0.00');
    expect(t.logs.join('')).toContain('the database ended an idle connection');
  });

  it('close() resolves once every connection is closed, so dropping the database right after ends none', async () => {
    const url = new URL(own!.url);
    url.searchParams.set('application_name', 'cw_close_test');
    const database = await openDatabase({ url: url.toString(), poolSize: 3 });
    await Promise.all([1, 2, 3].map((n) => database.query(`q${n}`, 'select pg_sleep(0.05)', [])));
    const admin = new pg.Client({ connectionString: own!.url });
    await admin.connect();
    await database.close();
    const { rows } = await admin.query(
      "select count(*)::int as n from pg_stat_activity where application_name = 'cw_close_test'",
    );
    await admin.end();
    expect(rows[0].n).toBe(0);
  });
});
