import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { issuerOperations, sandboxOperations } from '../../server/db/schema';
import { centsOf } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { describeOnPostgres } from './support/postgres-only';
import { type Actor, newIndividual, newStaff } from './support/actors';
import {
  cardLedger,
  creationFee,
  expectLedgerConsistent,
  fundingFee,
  issuerBalance,
  newCard,
  walletCents,
  withdrawalFee,
} from './support/cards';
import { fundWallet } from './support/money';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { call, killAll, startServer } from './support/process';

/**
 * The process dies at each failpoint (FAILPOINTS=…=exit: SIGKILL, nothing flushed), a new one
 * starts on the same PostgreSQL with its workers on, the client retries with the same
 * Idempotency-Key: every effect happens exactly once, and the issuer and the ledger agree.
 */
const SLOW = 180_000;
let t: TestApp;
let boss: Actor;
let own: PrivateDatabase | null = null;

beforeAll(async () => {
  own = await privatePostgres();
  if (!own) return;
  t = await startTestApp({}, { postgresUrl: own.url });
  boss = await newStaff(t, 'Super-Admin');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});
afterEach(killAll);

/** The same database and key as the in-process app, so its customers and sessions work on the spawned servers. */
const env = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: own!.url,
  ENCRYPTION_KEY: '07'.repeat(32),
  SEED: 'none',
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'cw-crash-')),
  ISSUER_TIMEOUT_MS: '500',
  ...extra,
});

async function customerWithCard() {
  const a = await newIndividual(t);
  await fundWallet(t, a.id, 5_000 + creationFee('media', 5_000) + 100_000);
  const { card } = await newCard(t, a, { card_amount: '50.00' });
  return { a, card };
}

/** Waits until the card has nothing owed to the issuer (the restarted server's worker has done it). */
async function settled(cardIds: string[], ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const pending = await t.ctx.db
      .select({ id: issuerOperations.id })
      .from(issuerOperations)
      .where(and(inArray(issuerOperations.cardId, cardIds), eq(issuerOperations.state, 'pending')));
    if (!pending.length) return;
    if (Date.now() > until) throw new Error(`${pending.length} issuer operations still pending`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function noDrift(s: { base: string }, cardIds: string[]) {
  const run = await call(s, 'POST', '/reconciliation/run', { token: boss.token });
  expect(run.status).toBe(200);
  expect((run.body.data.drift as Array<{ card_id: string }>).filter((d) => cardIds.includes(d.card_id))).toEqual([]);
  for (const id of cardIds) expect(await issuerBalance(t, id)).toBe((await cardLedger(t, id)).available);
  await expectLedgerConsistent(t, expect);
}

describeOnPostgres('a crash at each failpoint, then a restart and a retry with the same key', () => {
  for (const point of ['money.after-commit', 'outbox.before-dispatch', 'outbox.after-dispatch'] as const) {
    it(`a card funding that dies at ${point} happens once, and the issuer gets it once`, {
      timeout: SLOW,
    }, async () => {
      const { a, card } = await customerWithCard();
      const wallet = await walletCents(t, a);
      const key = randomUUID();
      const body = { card: card.id, amount: '12.00' };
      const first = await startServer(env({ FAILPOINTS: `${point}=exit` }));
      expect((await call(first, 'POST', '/cards/add-funds', { token: a.token, body, key })).status).toBe(0);
      expect(await first.exited()).toBe(137);

      const second = await startServer(env({ RUN_JOBS: 'true' }));
      const retry = await call(second, 'POST', '/cards/add-funds', { token: a.token, body, key });
      expect(retry.status).toBe(200);
      expect(retry.body.data).toMatchObject({ amount: '12.00' });
      await settled([card.id]);
      expect(await walletCents(t, a)).toBe(wallet - 1_200 - fundingFee('media', 1_200));
      expect(await cardLedger(t, card.id)).toEqual({ available: 6_200, held: 0 });
      await noDrift(second, [card.id]);
      await second.stop();
    });
  }

  it('a transfer that dies after its commit is replayed, not repeated', { timeout: SLOW }, async () => {
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    await fundWallet(t, a.id, 10_000);
    const key = randomUUID();
    const body = { wallet_id: b.id, amount: '25.00' };
    const first = await startServer(env({ FAILPOINTS: 'money.after-commit=exit' }));
    expect((await call(first, 'POST', '/wallet/transfer', { token: a.token, body, key })).status).toBe(0);
    expect(await first.exited()).toBe(137);
    const second = await startServer(env());
    const retry = await call(second, 'POST', '/wallet/transfer', { token: a.token, body, key });
    expect(retry).toMatchObject({ status: 200, replayed: true });
    expect(await walletCents(t, a)).toBe(7_500);
    expect(await walletCents(t, b)).toBe(2_500);
    await second.stop();
  });

  it('a withdrawal whose issuer answer is lost in a crash settles once after the restart; the retry gets its answer', {
    timeout: SLOW,
  }, async () => {
    const { a, card } = await customerWithCard();
    const wallet = await walletCents(t, a);
    const key = randomUUID();
    const body = { card: card.id, amount: '20.00' };
    const first = await startServer(env({ FAILPOINTS: 'outbox.after-dispatch=exit' }));
    expect((await call(first, 'POST', '/cards/withdraw-funds', { token: a.token, body, key })).status).toBe(0);
    expect(await first.exited()).toBe(137);
    const second = await startServer(env({ RUN_JOBS: 'true' }));
    await settled([card.id]);
    const retry = await call(second, 'POST', '/cards/withdraw-funds', { token: a.token, body, key });
    expect(retry).toMatchObject({ status: 200, replayed: true });
    expect(retry.body.data).toMatchObject({ amount: '20.00', message: 'Funds withdrawn to the master wallet.' });
    expect(await walletCents(t, a)).toBe(wallet + 2_000 - withdrawalFee('media', 2_000));
    await noDrift(second, [card.id]);
    await second.stop();
  });
});

describeOnPostgres('two server instances on one PostgreSQL', () => {
  it('share the issuer outbox under a burst of card fundings: each operation is performed once', {
    timeout: SLOW,
  }, async () => {
    const customers = await Promise.all(Array.from({ length: 8 }, () => customerWithCard()));
    const cardIds = customers.map((c) => c.card.id);
    const servers = await Promise.all([startServer(env({ RUN_JOBS: 'true' })), startServer(env({ RUN_JOBS: 'true' }))]);
    const results = await Promise.all(
      customers.flatMap(({ a, card }, i) =>
        Array.from({ length: 4 }, (_, k) =>
          call(servers[(i + k) % 2]!, 'POST', '/cards/add-funds', {
            token: a.token,
            body: { card: card.id, amount: '3.00' },
            key: randomUUID(),
          }),
        ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    await settled(cardIds);
    const ops = await t.ctx.db
      .select({ id: issuerOperations.id, state: issuerOperations.state })
      .from(issuerOperations)
      .where(and(inArray(issuerOperations.cardId, cardIds), eq(issuerOperations.purpose, 'card-funding')));
    expect(ops).toHaveLength(32);
    expect(ops.every((o) => o.state === 'done')).toBe(true);
    const performed = await t.ctx.db
      .select()
      .from(sandboxOperations)
      .where(
        inArray(
          sandboxOperations.opId,
          ops.map((o) => o.id),
        ),
      );
    expect(performed).toHaveLength(32);
    expect(performed.filter((p) => p.repeats > 0)).toEqual([]);
    for (const id of cardIds)
      expect(await cardLedger(t, id)).toEqual({ available: 5_000 + 4 * centsOf('3.00'), held: 0 });
    await noDrift(servers[0]!, cardIds);
    await Promise.all(servers.map((s) => s.stop()));
  });
});
