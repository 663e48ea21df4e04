import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cards, issuerOperations, sandboxCards, sandboxOperations } from '../../server/db/schema';
import type { IssuerOperation } from '../../server/lib/faults';
import { performDue } from '../../server/modules/cards/outbox';
import { centsOf, formatMoney } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, newStaff } from './support/actors';
import {
  cardBody,
  cardLedger,
  creationFee,
  expectLedgerConsistent,
  fundingFee,
  issuerBalance,
  issuerTokenOf,
  newCard,
  walletCents,
  withdrawalFee,
} from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
const MAX_ATTEMPTS = 3;
beforeAll(async () => {
  t = await startTestApp({ issuer: { timeoutMs: 300, maxAttempts: MAX_ATTEMPTS, retryMs: [1_000], pollMs: 60_000 } });
});
afterAll(() => t.close());
beforeEach(() => clearFaults());

const faults = () => t.ctx.config.issuerFaults as Record<string, string>;
function clearFaults() {
  for (const k of Object.keys(faults())) delete faults()[k];
}
const fault = (op: IssuerOperation, mode: 'fail' | 'timeout') => (faults()[op] = mode);

/** Lets the worker retry until nothing is due (each retry a second later on the app clock). */
async function workerRetries(times = MAX_ATTEMPTS) {
  for (let i = 0; i < times; i++) {
    t.clock.advance(1_100);
    await performDue(t.ctx);
  }
}

const opsOf = (cardId: string) =>
  t.ctx.db.select().from(issuerOperations).where(eq(issuerOperations.cardId, cardId)).orderBy(issuerOperations.seq);
const addFunds = (a: Actor, card: string, amount: string, key?: string) =>
  t.api('POST', '/cards/add-funds', { token: a.token, body: { card, amount }, idempotencyKey: key });
const withdraw = (a: Actor, card: string, amount: string, key?: string) =>
  t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card, amount }, idempotencyKey: key });
const walletHistory = async (a: Actor) =>
  (await t.api('GET', `/reports/view-wallet-transactions?wallet=${a.id}`, { token: a.token })).body.data as Array<
    Record<string, any>
  >;
const cardHistory = async (a: Actor, card: string) =>
  (await t.api('GET', `/reports/view-cards-transactions?card=${card}`, { token: a.token })).body.data as Array<
    Record<string, any>
  >;

async function customerWithCard(cardAmount = '50.00') {
  const a = await newIndividual(t);
  const amount = centsOf(cardAmount);
  await fundWallet(t, a.id, amount + creationFee('media', amount) + 100_000);
  const { card } = await newCard(t, a, { card_amount: cardAmount });
  return { a, card };
}

async function expectIssuerMatchesLedger(cardId: string) {
  expect(await issuerBalance(t, cardId)).toBe((await cardLedger(t, cardId)).available);
}

describe('the issuer outbox: loads', () => {
  it('a top-up the issuer never takes is refunded to the wallet, fees included, with a reason in both histories', async () => {
    const { a, card } = await customerWithCard();
    const before = await walletCents(t, a);
    fault('load', 'fail');
    const res = await addFunds(a, card.id, '20.00');
    expect(res.status).toBe(200); // the ledger moved; the issuer is owed the load
    const fee = fundingFee('media', 2_000);
    expect(await walletCents(t, a)).toBe(before - 2_000 - fee);
    expect((await opsOf(card.id)).at(-1)).toMatchObject({ operation: 'load', state: 'pending', attempts: 1 });

    await workerRetries();
    const [op] = (await opsOf(card.id)).filter((o) => o.purpose === 'card-funding');
    expect(op).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS });
    expect(op!.lastError).toMatch(/SANDBOX_ISSUER_FAULTS/);
    expect(await walletCents(t, a)).toBe(before);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
    await expectIssuerMatchesLedger(card.id);

    const refund = (await walletHistory(a)).find((r) => r.type === 'refund');
    expect(refund?.description).toBe(
      `Card top-up failed at the issuer: USD ${formatMoney(2_000 + fee)} returned (${card.nickname})`,
    );
    expect((await cardHistory(a, card.id)).some((r) => /the card issuer failed/.test(r.description))).toBe(true);
    await expectLedgerConsistent(t, expect);
  });

  it('a new card the issuer never loads ends, the wallet gets everything back, and it does not count against the 5-card limit', async () => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 100_000);
    fault('load', 'fail');
    const res = await t.api('POST', '/cards', { token: a.token, body: cardBody({ card_amount: '30.00' }) });
    expect(res.status).toBe(201);
    const cardId = res.body.data.card.id as string;
    await workerRetries();
    clearFaults();
    await performDue(t.ctx); // the compensating termination
    expect(await walletCents(t, a)).toBe(100_000);
    const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, cardId));
    expect(row!.deletedAt).not.toBeNull();
    expect(row!.endReason).toBe('The issuer could not load the card');
    const [sandbox] = await t.ctx.db.select().from(sandboxCards).where(eq(sandboxCards.token, row!.issuerToken));
    expect(sandbox!.status).toBe('terminated');
    expect((await opsOf(cardId)).map((o) => [o.operation, o.state])).toEqual([
      ['issue', 'done'],
      ['load', 'failed'],
      ['terminate', 'done'],
    ]);
    await expectLedgerConsistent(t, expect);
  });

  it('a load whose answer was lost is retried with its id and done once: the card is not loaded twice', async () => {
    const { a, card } = await customerWithCard();
    fault('load', 'timeout');
    expect((await addFunds(a, card.id, '10.00')).status).toBe(200);
    const [op] = (await opsOf(card.id)).filter((o) => o.purpose === 'card-funding');
    expect(op).toMatchObject({ state: 'pending', lastError: expect.stringMatching(/did not answer/) });
    clearFaults();
    await workerRetries(1);
    expect((await opsOf(card.id)).find((o) => o.id === op!.id)).toMatchObject({ state: 'done', attempts: 2 });
    const [record] = await t.ctx.db.select().from(sandboxOperations).where(eq(sandboxOperations.opId, op!.id));
    expect(record!.repeats).toBe(1); // the retry was answered, not performed
    expect(await cardLedger(t, card.id)).toEqual({ available: 6_000, held: 0 });
    await expectIssuerMatchesLedger(card.id);
  });
});

describe('the issuer outbox: withdrawals go issuer first', () => {
  it('an unload that times out answers 202, the same key is 409 until the worker settles it, then replays the withdrawal, credited once', async () => {
    const { a, card } = await customerWithCard();
    const before = await walletCents(t, a);
    fault('unload', 'timeout');
    const key = randomUUID();
    const first = await withdraw(a, card.id, '10.00', key);
    expect(first.status).toBe(202);
    expect(first.body.data.message).toMatch(/has not confirmed the withdrawal yet/);
    expect(await walletCents(t, a)).toBe(before);
    expect((await withdraw(a, card.id, '10.00', key)).status).toBe(409);

    clearFaults();
    await workerRetries(1);
    const credited = 1_000 - withdrawalFee('media', 1_000);
    expect(await walletCents(t, a)).toBe(before + credited);
    const again = await withdraw(a, card.id, '10.00', key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toMatchObject({ amount: '10.00', message: 'Funds withdrawn to the master wallet.' });
    expect(await walletCents(t, a)).toBe(before + credited);
    await expectIssuerMatchesLedger(card.id);
    await expectLedgerConsistent(t, expect);
  });

  it('an unload the issuer refuses for good moves nothing and answers 422, also to a retry with the same key', async () => {
    const { a, card } = await customerWithCard();
    const before = await walletCents(t, a);
    // The issuer holds less than the ledger says (drift), so it refuses the unload whatever the retries.
    await t.ctx.db
      .update(sandboxCards)
      .set({ balance: 1_000 })
      .where(eq(sandboxCards.token, await issuerTokenOf(t, card.id)));
    const key = randomUUID();
    const res = await withdraw(a, card.id, '30.00', key);
    expect(res.status).toBe(422);
    expect(res.body.error.amount[0]).toMatch(/card issuer refused/);
    const replay = await withdraw(a, card.id, '30.00', key);
    expect(replay).toMatchObject({ status: 422, body: res.body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await walletCents(t, a)).toBe(before);
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 0 });
  });
});

describe('the issuer outbox: other operations', () => {
  it('a freeze the issuer refuses is undone: 503 and the card stays active', async () => {
    const { a, card } = await customerWithCard();
    t.ctx.config.issuer.maxAttempts = 1;
    try {
      fault('freeze', 'fail');
      const res = await t.api('POST', `/cards/change-status/${card.id}`, {
        token: a.token,
        body: { status: 'deactivate' },
      });
      expect(res.status).toBe(503);
      const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, card.id));
      expect(row!.state).toBe('Active');
    } finally {
      t.ctx.config.issuer.maxAttempts = MAX_ATTEMPTS;
    }
  });

  it('a deleted card is ended at the issuer once its termination gets through', async () => {
    const { a, card } = await customerWithCard();
    fault('terminate', 'fail');
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: a.token })).status).toBe(202);
    const token = await issuerTokenOf(t, card.id);
    expect((await t.ctx.db.select().from(sandboxCards).where(eq(sandboxCards.token, token)))[0]!.status).toBe('active');
    clearFaults();
    await workerRetries(1);
    expect((await t.ctx.db.select().from(sandboxCards).where(eq(sandboxCards.token, token)))[0]!.status).toBe(
      'terminated',
    );
    expect((await opsOf(card.id)).at(-1)).toMatchObject({ operation: 'terminate', state: 'done' });
  });

  it("a card's operations reach the issuer in order: a funding waits for the card's load that is still owed", async () => {
    const { a, card } = await customerWithCard();
    fault('load', 'timeout');
    expect((await addFunds(a, card.id, '5.00')).status).toBe(200);
    clearFaults();
    expect((await addFunds(a, card.id, '6.00')).status).toBe(200); // its load waits for the first
    const loads = (await opsOf(card.id)).filter((o) => o.purpose === 'card-funding');
    expect(loads.map((o) => o.state)).toEqual(['pending', 'pending']);
    await workerRetries(2);
    expect((await opsOf(card.id)).filter((o) => o.purpose === 'card-funding').map((o) => o.state)).toEqual([
      'done',
      'done',
    ]);
    await expectIssuerMatchesLedger(card.id);
  });
});

describe('reconciliation', () => {
  it('shows staff what the ledger and the issuer disagree on, and what failed; a Super-Admin runs it', async () => {
    const { a, card } = await customerWithCard();
    const admin = await newStaff(t, 'Admin');
    const boss = await newStaff(t, 'Super-Admin');
    // Settle everything other tests left owed, then make real drift on this card.
    clearFaults();
    await workerRetries(2);
    await t.ctx.db
      .update(sandboxCards)
      .set({ balance: 4_000 })
      .where(eq(sandboxCards.token, await issuerTokenOf(t, card.id)));

    expect((await t.api('POST', '/reconciliation/run', { token: admin.token })).status).toBe(403);
    expect((await t.api('POST', '/reconciliation/run', { token: a.token })).status).toBe(403);
    expect((await t.api('GET', '/reconciliation', { token: a.token })).status).toBe(403);
    const run = await t.api('POST', '/reconciliation/run', { token: boss.token });
    expect(run.status).toBe(200);
    const mine = (run.body.data.drift as Array<Record<string, string>>).filter((d) => d.card_id === card.id);
    expect(mine).toEqual([
      {
        card_id: card.id,
        ledger: '50.00',
        issuer: '40.00',
        reason: 'The issuer holds USD 10.00 less than the ledger, and no operation explains it.',
      },
    ]);
    const last = await t.api('GET', '/reconciliation', { token: admin.token });
    expect(last.body.data).toEqual(run.body.data);

    const failed = await t.api('GET', '/reconciliation/operations?state=failed', { token: admin.token });
    expect(failed.status).toBe(200);
    const refunded = (failed.body.data as Array<Record<string, any>>).find(
      (o) => o.purpose === 'card-funding' && o.refund,
    );
    expect(refunded).toMatchObject({
      operation: 'load',
      state: 'failed',
      amount: '20.00',
      refund: { amount: formatMoney(2_000 + fundingFee('media', 2_000)) },
    });
    expect((await t.api('GET', '/reconciliation/operations?state=sideways', { token: admin.token })).status).toBe(422);

    // Put the issuer right: no drift for this card any more.
    await t.ctx.db
      .update(sandboxCards)
      .set({ balance: 5_000 })
      .where(and(eq(sandboxCards.token, await issuerTokenOf(t, card.id))));
    const again = await t.api('POST', '/reconciliation/run', { token: boss.token });
    expect((again.body.data.drift as Array<Record<string, string>>).filter((d) => d.card_id === card.id)).toEqual([]);
  });
});

describe('every issuer operation with every fault', () => {
  type Case = { op: IssuerOperation; run: (a: Actor, cardId: string) => Promise<{ status: number }>; ok: number[] };
  const cases: Case[] = [
    { op: 'load', run: (a, c) => addFunds(a, c, '7.00'), ok: [200] },
    { op: 'unload', run: (a, c) => withdraw(a, c, '7.00'), ok: [200, 202, 422] },
    {
      op: 'freeze',
      run: (a, c) => t.api('POST', `/cards/change-status/${c}`, { token: a.token, body: { status: 'deactivate' } }),
      ok: [202, 503],
    },
    { op: 'terminate', run: (a, c) => t.api('DELETE', `/cards/${c}`, { token: a.token }), ok: [202] },
  ];
  for (const c of cases) {
    for (const mode of ['fail', 'timeout'] as const) {
      it(`${c.op} that meets '${mode}': once the issuer is back, the ledger and the issuer agree and no money was made or lost`, async () => {
        const { a, card } = await customerWithCard();
        const before = (await walletCents(t, a)) + (await cardLedger(t, card.id)).available;
        fault(c.op, mode);
        expect(c.ok).toContain((await c.run(a, card.id)).status);
        clearFaults();
        await workerRetries(MAX_ATTEMPTS + 1);
        const after = (await walletCents(t, a)) + (await cardLedger(t, card.id)).available;
        const fees = before - after; // what the platform kept: only fees of what happened
        expect(fees).toBeGreaterThanOrEqual(0);
        expect(fees).toBeLessThan(100);
        const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, card.id));
        if (row!.deletedAt)
          expect(
            (await t.ctx.db.select().from(sandboxCards).where(eq(sandboxCards.token, row!.issuerToken)))[0]!.status,
          ).toBe('terminated');
        else await expectIssuerMatchesLedger(card.id);
        expect((await opsOf(card.id)).filter((o) => o.state === 'pending')).toEqual([]);
        await expectLedgerConsistent(t, expect);
      });
    }
  }

  it.each(['fail', 'timeout'] as const)("issue that meets '%s': no card, nothing charged (503)", async (mode) => {
    const a = await newIndividual(t);
    await fundWallet(t, a.id, 100_000);
    fault('issue', mode);
    const res = await t.api('POST', '/cards', { token: a.token, body: cardBody({ card_amount: '30.00' }) });
    expect(res.status).toBe(503);
    expect(await walletCents(t, a)).toBe(100_000);
    expect(await t.ctx.db.select().from(cards).where(eq(cards.walletId, a.id))).toEqual([]);
  });

  it.each(['fail', 'timeout'] as const)(
    "unfreeze that meets '%s' leaves the card as the issuer has it",
    async (mode) => {
      const { a, card } = await customerWithCard();
      expect(
        (await t.api('POST', `/cards/change-status/${card.id}`, { token: a.token, body: { status: 'deactivate' } }))
          .status,
      ).toBe(202);
      fault('unfreeze', mode);
      const res = await t.api('POST', `/cards/change-status/${card.id}`, {
        token: a.token,
        body: { status: 'activate' },
      });
      expect([202, 503]).toContain(res.status);
      clearFaults();
      await workerRetries(MAX_ATTEMPTS + 1);
      const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, card.id));
      const [issuerCard] = await t.ctx.db.select().from(sandboxCards).where(eq(sandboxCards.token, row!.issuerToken));
      expect(row!.state === 'Active' ? 'active' : 'frozen').toBe(issuerCard!.status);
    },
  );
});
