import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, rateLimits } from '../../server/db/schema';
import { JOBS, jobByName } from '../../server/jobs';
import { runJob } from '../../server/jobs/runner';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, randomIp } from './support/actors';
import { relogin, setClock } from './support/cards';
import { walletOf } from './support/wallet';

/**
 * The scheduled housekeeping prunes idempotency records and rate-limit windows, which otherwise
 * grow without bound. This file lives in 2003: on PostgreSQL every test file shares the database,
 * and a prune here reaches only rows older than this file's own.
 */
let t: TestApp;
let customer: Actor;
const HOUR = 3_600_000;
const T0 = '2003-03-01T00:30:00Z';

beforeAll(async () => {
  t = await startTestApp();
  setClock(t, T0);
  customer = await newIndividual(t);
});
afterAll(() => t.close());

const topup = (key: string, amount: string) =>
  t.api('POST', '/wallet/topup-balance', {
    token: customer.token,
    idempotencyKey: key,
    body: { wallet_id: walletOf(customer), amount, method: 'tron' },
  });

const idempotencyRecords = (key: string) =>
  t.ctx.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.key, key), like(idempotencyKeys.principal, `%${customer.id}`)));
const limitRows = (needle: string) =>
  t.ctx.db
    .select()
    .from(rateLimits)
    .where(like(rateLimits.key, `%${needle}%`));

async function housekeeping() {
  const job = jobByName('housekeeping');
  expect(job, 'a housekeeping job is declared').toBeDefined();
  return runJob(t.ctx, job!);
}

describe('housekeeping (scheduled job)', () => {
  it('is one of the jobs the scheduler runs, once an hour', () => {
    expect(JOBS.map((j) => j.name)).toContain('housekeeping');
    const job = jobByName('housekeeping')!;
    const at = new Date(T0);
    expect(job.periodOf(at)).not.toBe(job.periodOf(new Date(at.getTime() + HOUR)));
    expect(job.periodOf(at)).toBe(job.periodOf(new Date(at.getTime() + 60_000)));
  });

  it('keeps idempotency records their 24 hours and recent rate-limit windows, then prunes both', async () => {
    const key = `hk-${randomUUID()}`;
    const first = await topup(key, '25.00');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(await idempotencyRecords(key)).toHaveLength(1);

    // failed logins leave rate-limit windows behind
    const ghost = `ghost.${randomUUID()}@example.com`;
    const ip = randomIp();
    for (let i = 0; i < 2; i++) {
      const res = await t.api('POST', '/account/login', { body: { email: ghost, password: 'Wrong!Passw0rd' }, ip });
      expect(res.status).toBe(401);
    }
    expect((await limitRows(ghost)).length).toBeGreaterThan(0);

    // 23 hours on: a run prunes neither; the key still replays the first answer
    setClock(t, new Date(new Date(T0).getTime() + 23 * HOUR));
    const early = await housekeeping();
    expect(early.ran).toBe(true);
    expect(await idempotencyRecords(key)).toHaveLength(1);
    expect((await limitRows(ghost)).length).toBeGreaterThan(0);
    await relogin(t, customer);
    const replay = await topup(key, '25.00');
    expect(replay.status).toBe(201);
    expect(replay.body.data.reference).toBe(first.body.data.reference);

    // another instance in the same hour does not run it again
    const again = await housekeeping();
    expect(again).toMatchObject({ ran: false });

    // two days on: both are gone
    setClock(t, new Date(new Date(T0).getTime() + 49 * HOUR));
    const late = await housekeeping();
    expect(late.ran).toBe(true);
    expect(await idempotencyRecords(key)).toHaveLength(0);
    expect(await limitRows(ghost)).toHaveLength(0);

    // the records of the present stay
    await relogin(t, customer);
    const fresh = `hk-${randomUUID()}`;
    expect((await topup(fresh, '30.00')).status).toBe(201);
    setClock(t, new Date(new Date(T0).getTime() + 50 * HOUR));
    expect((await housekeeping()).ran).toBe(true);
    expect(await idempotencyRecords(fresh)).toHaveLength(1);
  });
});
