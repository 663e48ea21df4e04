import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardTransactions, ledgerEntries, sandboxCards } from '../../server/db/schema';
import { cardTerminations } from '../../server/jobs/card-jobs';
import { runJob } from '../../server/jobs/runner';
import { PLATFORM } from '../../server/modules/ledger/accounts';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { cardLedger, charge, issuerTokenOf, newCard, setClock, verifyAccount, walletCents } from './support/cards';
import { fundWallet } from './support/money';

/**
 * Terminations act on every basic card of the database (on PostgreSQL all test files share
 * one). This file lives in mid-2026, after every maintenance period the jobs file charges, and
 * each run uses its own day. Other card files keep their basic cards at 2.00 or more.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  setClock(t, '2026-06-10T12:00:00Z');
});
afterAll(() => t.close());

const SLOW = 120_000;
const settle = (staff: Actor, id: string) =>
  t.api('POST', `/sandbox/authorizations/${id}/settle`, { token: staff.token });

async function state(owner: Actor, cardId: string) {
  const res = await t.api('GET', `/cards/${cardId}`, { token: owner.token });
  return res.body.data.card as { is_deleted: boolean; end_reason: string | null; balance: string };
}

/** The legs of the forfeit transfer of a card, by account. */
async function forfeitLegs(cardId: string) {
  const [mv] = await t.ctx.db
    .select()
    .from(cardTransactions)
    .where(and(eq(cardTransactions.cardId, cardId), eq(cardTransactions.kind, 'forfeit')));
  if (!mv) return null;
  const entries = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.transferId, mv.ledgerTransferId!));
  return Object.fromEntries(entries.map((e) => [e.accountId, e.amount]));
}

describe('card-terminations', () => {
  it('ends basic cards under 2.00 and after 3 consecutive insufficient-balance declines, forfeiting the balance; premium cards stay', {
    timeout: SLOW,
  }, async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await verifyAccount(t, a);
    await fundWallet(t, a.id, 100_000);
    const make = async (over: Record<string, unknown>) =>
      (await newCard(t, a, { purpose: 'general', type: 'basic', card_amount: '10.00', ...over })).card;
    const pay = async (cardId: string, amount: string, merchant?: string) =>
      (await charge(t, staff, cardId, amount, merchant)).body.data;

    const low = await make({ card_amount: '3.00' });
    await settle(staff, (await pay(low.id, '1.50')).transaction.id); // 1.50 left
    const streak = await make({});
    for (let i = 0; i < 3; i++)
      expect((await pay(streak.id, '20.00')).decline_reason).toBe('Insufficient funds on the card.');
    const broken = await make({}); // two, then another reason, then one: not consecutive
    for (const [amount, merchant] of [['20.00'], ['20.00'], ['5.00', 'Lucky Casino'], ['20.00']] as const)
      expect((await pay(broken.id, amount, merchant)).approved).toBe(false);
    const approvedBetween = await make({}); // two, an approval, one
    for (const amount of ['20.00', '20.00', '1.00', '20.00']) await pay(approvedBetween.id, amount);
    const exactly2 = await make({ card_amount: '3.00' });
    await settle(staff, (await pay(exactly2.id, '1.00')).transaction.id); // 2.00: not under
    const premiumLow = await make({ type: 'premium', card_amount: '3.00' });
    expect(
      (await t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card: premiumLow.id, amount: '1.48' } }))
        .status,
    ).toBe(200);
    const premiumStreak = await make({ type: 'premium' });
    for (let i = 0; i < 3; i++) await pay(premiumStreak.id, '20.00');
    const wallet = await walletCents(t, a);

    const run = await runJob(t.ctx, cardTerminations, '2026-06-10');
    expect(run.ran).toBe(true);

    expect(await state(a, low.id)).toMatchObject({
      is_deleted: true,
      end_reason: 'Terminated: balance under USD 2.00',
      balance: '0.00',
    });
    expect(await state(a, streak.id)).toMatchObject({
      is_deleted: true,
      end_reason: 'Terminated: consecutive declines for insufficient balance',
      balance: '0.00',
    });
    for (const card of [broken, approvedBetween, exactly2, premiumLow, premiumStreak])
      expect((await state(a, card.id)).is_deleted, card.nickname).toBe(false);
    expect((await cardLedger(t, exactly2.id)).available).toBe(200);

    // without refund: the balance goes to the platform's forfeited account, not the wallet
    expect(await walletCents(t, a)).toBe(wallet);
    for (const [card, cents] of [
      [low, 150],
      [streak, 1_000],
    ] as const) {
      const legs = (await forfeitLegs(card.id))!;
      expect(legs[PLATFORM.forfeited]).toBe(cents);
      expect(Object.values(legs).sort((x, y) => x - y)).toEqual([-cents, cents]);
      const [issued] = await t.ctx.db
        .select()
        .from(sandboxCards)
        .where(eq(sandboxCards.token, await issuerTokenOf(t, card.id)));
      expect(issued).toMatchObject({ status: 'terminated', balance: 0 });
      const hist = (await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: a.token })).body
        .data;
      expect(hist[0]).toMatchObject({ kind: 'forfeit', status: 'completed', amount: (cents / 100).toFixed(2) });
      expect((await pay(card.id, '0.50')).decline_reason).toBe('The card has been terminated.');
    }
    expect(await runJob(t.ctx, cardTerminations, '2026-06-10')).toMatchObject({ ran: false });
  });

  it('waits for held payments to settle before ending a card', async () => {
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 10_000);
    const { card } = await newCard(t, a, { purpose: 'general', type: 'basic', card_amount: '3.00' });
    const spent = (await charge(t, staff, card.id, '1.50')).body.data.transaction.id;
    await settle(staff, spent);
    const held = (await charge(t, staff, card.id, '1.00')).body.data.transaction.id; // 0.50 + 1.00 held
    setClock(t, '2026-06-11T00:10:00Z');
    expect((await runJob(t.ctx, cardTerminations, '2026-06-11')).ran).toBe(true);
    expect(await cardLedger(t, card.id)).toEqual({ available: 50, held: 100 });
    expect(
      (
        await t.ctx.db
          .select()
          .from(cardTransactions)
          .where(and(eq(cardTransactions.cardId, card.id), eq(cardTransactions.kind, 'forfeit')))
      ).length,
    ).toBe(0);

    await t.ctx.issuer.settle(
      (await t.ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, held)))[0]!.issuerReference!,
    );
    setClock(t, '2026-06-12T00:10:00Z');
    expect((await runJob(t.ctx, cardTerminations, '2026-06-12')).ran).toBe(true);
    expect(await forfeitLegs(card.id)).toMatchObject({ [PLATFORM.forfeited]: 50 });
    expect(await cardLedger(t, card.id)).toEqual({ available: 0, held: 0 });
  });

  it('ends each card once, and reports it once, when two runs overlap', async () => {
    setClock(t, '2026-06-13T12:00:00Z');
    const a = await newIndividual(t);
    const staff = await newStaff(t);
    await fundWallet(t, a.id, 10_000);
    const { card } = await newCard(t, a, { purpose: 'general', type: 'basic', card_amount: '10.00' });
    for (let i = 0; i < 3; i++) await charge(t, staff, card.id, '50.00');
    const runs = await Promise.all([
      runJob(t.ctx, cardTerminations, '2026-06-13'),
      runJob(t.ctx, cardTerminations, '2026-06-14'),
    ]);
    const forfeits = await t.ctx.db
      .select()
      .from(cardTransactions)
      .where(and(eq(cardTransactions.cardId, card.id), eq(cardTransactions.kind, 'forfeit')));
    expect(forfeits).toHaveLength(1);
    expect(forfeits[0]!.amount).toBe(1_000);
    expect(await cardLedger(t, card.id)).toEqual({ available: 0, held: 0 });
    // the runs' summaries (what an operator reads) count the card as ended once
    const ended = runs.map((r) => (r.ran ? Number((r.summary as { terminated: number }).terminated) : 0));
    expect(ended.reduce((s, n) => s + n, 0)).toBe(1);
  });
});
