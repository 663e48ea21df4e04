import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardTransactions, cards, sandboxMessages } from '../../server/db/schema';
import { holdExpiry } from '../../server/jobs/hold-expiry';
import { runJob } from '../../server/jobs/runner';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { cardLedger, expectLedgerConsistent, issuerBalance, newCard, walletCents } from './support/cards';
import { fundWallet } from './support/money';
import { backdateAuthorization, cardSumsOf, figuresAgree } from './support/card-figures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A customer, a staff member, and a premium Mastercard of 100.00 (no spending limit). */
async function setup(over: Record<string, unknown> = {}) {
  const a = await newIndividual(t);
  const staff = await newStaff(t);
  await fundWallet(t, a.id, 1_000_000);
  const { card } = await newCard(t, a, { purpose: 'general', card_amount: '100.00', ...over });
  return { a, staff, card };
}

const pay = (staff: Actor, cardId: string, amount: string, over: Record<string, unknown> = {}) =>
  t.api('POST', '/sandbox/authorizations', {
    token: staff.token,
    body: { card_id: cardId, amount, merchant: 'Hotel Lagos', mcc: '7011', country: 'NG', ...over },
  });
const stepOn = (staff: Actor, authId: string, what: string, body?: unknown) =>
  t.api('POST', `/sandbox/authorizations/${authId}/${what}`, { token: staff.token, body });
const refund = (staff: Actor, cardId: string, amount: string, over: Record<string, unknown> = {}) =>
  t.api('POST', '/sandbox/refunds', {
    token: staff.token,
    body: { card_id: cardId, amount, merchant: 'Shop X', mcc: '5311', country: 'GH', ...over },
  });
const forcePost = (staff: Actor, cardId: string, amount: string) =>
  t.api('POST', '/sandbox/force-posts', {
    token: staff.token,
    body: { card_id: cardId, amount, merchant: 'Late Airline', mcc: '4511', country: 'GB' },
  });

const sums = (staff: Actor, cardId: string) => cardSumsOf(t, staff, cardId);
const expectFiguresAgree = (staff: Actor, cardId: string) => figuresAgree(t, staff, cardId, expect);

describe('authorisations: partial approval and decline codes', () => {
  it('approves what the card holds when the merchant allows a partial approval, else declines insufficient_funds', async () => {
    const { staff, card } = await setup();
    const whole = await pay(staff, card.id, '150.00');
    expect(whole.status).toBe(201);
    expect(whole.body.data).toMatchObject({
      approved: false,
      approved_amount: '0.00',
      decline_code: 'insufficient_funds',
      transaction: { status: 'declined', decline_code: 'insufficient_funds', decided_by: 'platform', mcc: '7011' },
    });
    const part = await pay(staff, card.id, '150.00', { partial_allowed: true });
    expect(part.body.data).toMatchObject({
      approved: true,
      approved_amount: '100.00',
      decline_code: null,
      transaction: { status: 'approved', amount: '100.00', held: '100.00', decided_by: 'platform' },
    });
    expect(part.body.data.transaction.description).toBe('Payment at Hotel Lagos: USD 100.00 of USD 150.00 approved');
    expect(Number.isInteger(part.body.data.transaction.decision_ms)).toBe(true);
    expect(await cardLedger(t, card.id)).toEqual({ available: 0, held: 10_000 });
    // nothing left: a partial approval needs something available
    expect((await pay(staff, card.id, '1.00', { partial_allowed: true })).body.data.decline_code).toBe(
      'insufficient_funds',
    );
    await expectFiguresAgree(staff, card.id);
  });

  it('gives each decline its code: card_inactive, program_blocked, spending_limit_exceeded', async () => {
    const { a, staff, card } = await setup();
    expect((await pay(staff, card.id, '1.00', { merchant: 'Lucky Casino' })).body.data.decline_code).toBe(
      'program_blocked',
    );
    await t.api('POST', `/cards/change-status/${card.id}`, { token: a.token, body: { status: 'deactivate' } });
    const frozen = await pay(staff, card.id, '1.00');
    expect(frozen.body.data).toMatchObject({ approved: false, decline_code: 'card_inactive' });
    const visa = (await newCard(t, a, { purpose: 'media', card_amount: '50.00', spending_limit: '10.00' })).card;
    expect((await pay(staff, visa.id, '10.01')).body.data.decline_code).toBe('spending_limit_exceeded');
    expect(await cardLedger(t, card.id)).toEqual({ available: 10_000, held: 0 });
  });
});

describe('the lifecycle of an authorisation', () => {
  it('increments, partially reverses, clears in parts and closes: each step one posting and one row', async () => {
    const { a, staff, card } = await setup();
    const auth = (await pay(staff, card.id, '50.00')).body.data.transaction;
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_000, held: 5_000 });

    const inc = await stepOn(staff, auth.id, 'increment', { amount: '30.00' });
    expect(inc.status).toBe(200);
    expect(inc.body.data).toMatchObject({
      approved: true,
      approved_amount: '30.00',
      transaction: { id: auth.id, amount: '80.00', held: '80.00', status: 'approved' },
    });
    expect(await cardLedger(t, card.id)).toEqual({ available: 2_000, held: 8_000 });
    // more than is available: declined with its code, the hold as it was
    const over = await stepOn(staff, auth.id, 'increment', { amount: '20.01' });
    expect(over.body.data).toMatchObject({
      approved: false,
      decline_code: 'insufficient_funds',
      transaction: { amount: '80.00', held: '80.00' },
    });

    const rev = await stepOn(staff, auth.id, 'reverse', { amount: '10.00' });
    expect(rev.status).toBe(200);
    expect(rev.body.data.message).toBe('Hotel Lagos released USD 10.00 of its hold; USD 70.00 still held');
    expect(rev.body.data.transaction).toMatchObject({ kind: 'reversal', authorization_id: auth.id, amount: '10.00' });
    expect(await cardLedger(t, card.id)).toEqual({ available: 3_000, held: 7_000 });
    expect((await stepOn(staff, auth.id, 'reverse', { amount: '70.01' })).status).toBe(409);

    // a first part, leaving the authorisation open
    const part = await stepOn(staff, auth.id, 'clear', { amount: '20.00', close_authorization: false });
    expect(part.body.data.message).toBe('Hotel Lagos cleared USD 20.00 of USD 70.00 held; USD 50.00 still held');
    expect(await cardLedger(t, card.id)).toEqual({ available: 3_000, held: 5_000 });
    // the final part, less than the rest: the rest goes back and the authorisation settles
    const last = await stepOn(staff, auth.id, 'clear', { amount: '35.00' });
    expect(last.body.data.message).toBe('Hotel Lagos cleared USD 35.00 of USD 50.00 held; USD 15.00 released');
    expect(await cardLedger(t, card.id)).toEqual({ available: 4_500, held: 0 });
    const after = (await t.api('GET', `/reports/view-cards-transactions?card=${card.id}`, { token: a.token })).body
      .data;
    expect(after.find((r: any) => r.id === auth.id)).toMatchObject({
      status: 'settled',
      amount: '80.00',
      held: '0.00',
    });
    for (const what of ['increment', 'reverse', 'settle'])
      expect((await stepOn(staff, auth.id, what, what === 'increment' ? { amount: '1.00' } : {})).status).toBe(409);

    const s = await sums(staff, card.id);
    expect(s).toMatchObject({
      approved_sum: '80.00',
      settled_sum: '55.00',
      reversal_sum: '25.00',
      refund_sum: '0.00',
      held: '0.00',
      debt: '0.00',
    });
    // every step a row with its posting
    const steps = await t.ctx.db.select().from(cardTransactions).where(eq(cardTransactions.authorizationId, auth.id));
    expect(steps.map((r) => [r.kind, r.status]).sort()).toEqual([
      ['clearing', 'completed'],
      ['clearing', 'completed'],
      ['increment', 'completed'],
      ['increment', 'declined'],
      ['reversal', 'completed'],
    ]);
    expect(steps.filter((r) => r.status === 'completed').every((r) => r.ledgerTransferId)).toBe(true);
    await expectFiguresAgree(staff, card.id);
  });

  it('clears more than the hold (a tip) from the available balance; a whole reversal ends the authorisation', async () => {
    const { staff, card } = await setup();
    const meal = (await pay(staff, card.id, '40.00', { merchant: 'Bistro', mcc: '5812' })).body.data.transaction;
    const tip = await stepOn(staff, meal.id, 'clear', { amount: '46.00' });
    expect(tip.body.data.message).toBe('Bistro cleared USD 46.00, USD 6.00 more than the USD 40.00 held');
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_400, held: 0 });
    const other = (await pay(staff, card.id, '20.00')).body.data.transaction;
    const whole = await stepOn(staff, other.id, 'reverse');
    expect(whole.body.data.message).toBe('Hotel Lagos released its hold of USD 20.00');
    expect(await cardLedger(t, card.id)).toEqual({ available: 5_400, held: 0 });
    await expectFiguresAgree(staff, card.id);
  });

  it('refunds with and without an earlier payment, at most what the payment cleared less its refunds', async () => {
    const { a, staff, card } = await setup();
    const auth = (await pay(staff, card.id, '30.00')).body.data.transaction;
    await stepOn(staff, auth.id, 'settle');
    const r1 = await refund(staff, card.id, '10.00', { transaction_id: auth.id });
    expect(r1.status).toBe(201);
    expect(r1.body.data).toMatchObject({
      message: 'Refund from Shop X',
      transaction: { kind: 'merchant_refund', authorization_id: auth.id, amount: '10.00' },
    });
    expect((await refund(staff, card.id, '20.01', { transaction_id: auth.id })).status).toBe(409);
    expect((await refund(staff, card.id, '20.00', { transaction_id: auth.id })).status).toBe(201);
    expect((await refund(staff, card.id, '5.00')).status).toBe(201);
    expect(await cardLedger(t, card.id)).toEqual({ available: 10_500, held: 0 });
    expect((await sums(staff, card.id)).refund_sum).toBe('35.00');
    const bell = await t.api('GET', '/notifications', { token: a.token });
    expect(bell.body.data.map((n: any) => n.title)).toContain('Refund of USD 10.00 from Shop X');
    await expectFiguresAgree(staff, card.id);
  });
});

describe('card debt', () => {
  it('a force-post beyond the balance puts the card in debt; the next funding repays it first', async () => {
    const { a, staff, card } = await setup();
    const fp = await forcePost(staff, card.id, '120.00');
    expect(fp.status).toBe(201);
    expect(fp.body.data.message).toBe('Charge from Late Airline without authorisation');
    expect(await cardLedger(t, card.id)).toEqual({ available: -2_000, held: 0 });
    expect(await sums(staff, card.id)).toMatchObject({ debt: '20.00', settled_sum: '120.00' });
    await expectFiguresAgree(staff, card.id);
    // nothing to withdraw, nothing to pay with
    const w = await t.api('POST', '/cards/withdraw-funds', { token: a.token, body: { card: card.id, amount: '1.00' } });
    expect(w.status).toBeGreaterThanOrEqual(400);
    expect((await pay(staff, card.id, '1.00')).body.data.decline_code).toBe('insufficient_funds');
    const bell = await t.api('GET', '/notifications', { token: a.token });
    expect(bell.body.data.map((n: any) => n.title)).toContain(`Your card ${card.nickname} owes USD 20.00`);

    const fund = await t.api('POST', '/cards/add-funds', { token: a.token, body: { card: card.id, amount: '50.00' } });
    expect(fund.status).toBe(200);
    expect(fund.body.data.message).toMatch(/USD 20\.00 of it repaid the card's debt/);
    expect(await cardLedger(t, card.id)).toEqual({ available: 3_000, held: 0 });
    expect((await sums(staff, card.id)).debt).toBe('0.00');
    await expectFiguresAgree(staff, card.id);
    await expectLedgerConsistent(t, expect);
  });

  it('a card in debt is deleted once its master wallet has repaid the debt', async () => {
    const { a, staff, card } = await setup({ type: 'premium' });
    await forcePost(staff, card.id, '130.00');
    const before = await walletCents(t, a);
    const del = await t.api('DELETE', `/cards/${card.id}`, { token: a.token });
    expect(del.status).toBe(202);
    expect(del.body.data).toMatchObject({ returned: '0.00', forfeited: '0.00' });
    expect(await walletCents(t, a)).toBe(before - 3_000);
    expect(await cardLedger(t, card.id)).toEqual({ available: 0, held: 0 });
    await expectLedgerConsistent(t, expect);
  });
});

describe('hold expiry', () => {
  it('expires holds older than the days given (staff), once; a late clearing is still posted', async () => {
    const { a, staff, card } = await setup();
    const old = (await pay(staff, card.id, '80.00')).body.data.transaction;
    await backdateAuthorization(t, old.id, 8);
    const fresh = (await pay(staff, card.id, '5.00')).body.data.transaction;
    expect(
      (await t.api('POST', '/sandbox/holds/expire', { token: a.token, body: { older_than_days: 7 } })).status,
    ).toBe(403);
    const bad = await t.api('POST', '/sandbox/holds/expire', { token: staff.token, body: { older_than_days: -1 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error)).toEqual(['older_than_days']);

    const run = await t.api('POST', '/sandbox/holds/expire', { token: staff.token, body: { older_than_days: 7 } });
    expect(run.status).toBe(200);
    expect(run.body.data.expired).toBeGreaterThanOrEqual(1);
    const [row] = await t.ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, old.id));
    expect(row).toMatchObject({ status: 'expired', held: 0 });
    const [fr] = await t.ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, fresh.id));
    expect(fr?.status).toBe('approved');
    expect(await cardLedger(t, card.id)).toEqual({ available: 9_500, held: 500 });
    const [exp] = await t.ctx.db
      .select()
      .from(cardTransactions)
      .where(and(eq(cardTransactions.authorizationId, old.id), eq(cardTransactions.kind, 'expiry')));
    expect(exp?.description).toBe('Hold at Hotel Lagos expired after 7 days; USD 80.00 released');
    // again: nothing more
    await t.api('POST', '/sandbox/holds/expire', { token: staff.token, body: { older_than_days: 7 } });
    expect(await cardLedger(t, card.id)).toEqual({ available: 9_500, held: 500 });

    // the merchant clears after all: from the available balance
    const late = await stepOn(staff, old.id, 'clear', { amount: '80.00' });
    expect(late.status).toBe(200);
    expect(late.body.data.message).toBe('Late clearing from Hotel Lagos: USD 80.00 after the hold was expired');
    expect(await cardLedger(t, card.id)).toEqual({ available: 1_500, held: 500 });
    await expectFiguresAgree(staff, card.id);
  });

  it('runs as a job (expire-holds): twice in one period is once, and another period finds nothing more', async () => {
    const { staff, card } = await setup();
    const auth = (await pay(staff, card.id, '10.00')).body.data.transaction;
    await backdateAuthorization(t, auth.id, 8);
    // an explicit period: the hourly one could change between two runs
    const period = `lifecycle-${auth.id}`;
    expect(holdExpiry.name).toBe('expire-holds');
    const first = await runJob(t.ctx, holdExpiry, period);
    expect(first.ran).toBe(true);
    const second = await runJob(t.ctx, holdExpiry, period);
    expect(second.ran).toBe(false);
    // another period: nothing left to expire for this card
    await runJob(t.ctx, holdExpiry, 'another-period');
    const expiries = await t.ctx.db
      .select()
      .from(cardTransactions)
      .where(and(eq(cardTransactions.authorizationId, auth.id), eq(cardTransactions.kind, 'expiry')));
    expect(expiries).toHaveLength(1);
    expect(await cardLedger(t, card.id)).toEqual({ available: 10_000, held: 0 });
    await expectFiguresAgree(staff, card.id);
  });
});

describe('concurrency, retries and who may simulate', () => {
  it('two clearings of one authorisation at once: one clears and closes, the other is refused', async () => {
    const { staff, card } = await setup();
    const auth = (await pay(staff, card.id, '30.00')).body.data.transaction;
    const both = await Promise.all([
      stepOn(staff, auth.id, 'clear', { amount: '30.00' }),
      stepOn(staff, auth.id, 'clear', { amount: '30.00' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await cardLedger(t, card.id)).toEqual({ available: 7_000, held: 0 });
    await expectFiguresAgree(staff, card.id);
  });

  it('a message whose answer the issuer lost is sent again and moves money once', async () => {
    const faulty = await startTestApp({ issuerFaults: { message: 'fail' } });
    try {
      const { staff, card } = await setup();
      const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, card.id));
      const auth = (await pay(staff, card.id, '25.00')).body.data.transaction;
      // the faulty instance's sandbox dies after the platform posted the clearing
      const lost = await faulty.ctx.issuer.clear(await refOf(auth.id), 2_500, true).catch((e) => e);
      expect(lost).toBeInstanceOf(Error);
      expect(await cardLedger(t, card.id)).toEqual({ available: 7_500, held: 0 });
      expect(await issuerBalance(t, card.id)).toBe(7_500);
      const pending = await t.ctx.db
        .select()
        .from(sandboxMessages)
        .where(eq(sandboxMessages.cardToken, row!.issuerToken));
      expect(pending.filter((m) => m.state === 'pending')).toHaveLength(1);
      // a force-post lost the same way does move the issuer's balance once it is resumed
      await faulty.ctx.issuer
        .forcePost(row!.issuerToken, { amount: 1_000, merchant: 'M', mcc: '5999', country: 'GH' })
        .catch(() => null);
      expect(await cardLedger(t, card.id)).toEqual({ available: 6_500, held: 0 });
      expect(await issuerBalance(t, card.id)).toBe(7_500);
      expect(await t.ctx.issuer.resume(0)).toBeGreaterThanOrEqual(2);
      expect(await cardLedger(t, card.id)).toEqual({ available: 6_500, held: 0 });
      expect(await issuerBalance(t, card.id)).toBe(6_500);
      expect(await t.ctx.issuer.resume(0)).toBe(0);
      await expectFiguresAgree(staff, card.id);
    } finally {
      await faulty.close();
    }
  });

  it('staff reach any card; a portal session none (403); unknown ids are 404; bad input is 422 per field', async () => {
    const { a, staff, card } = await setup();
    expect((await pay(a, card.id, '1.00')).status).toBe(403);
    expect((await pay(staff, randomUUID(), '1.00')).status).toBe(404);
    expect((await stepOn(staff, randomUUID(), 'reverse')).status).toBe(404);
    const badAuth = await t.api('POST', '/sandbox/authorizations', {
      token: staff.token,
      body: { card_id: card.id, amount: '-1', merchant: '', mcc: '58', country: 'Ghana', partial_allowed: 'maybe' },
    });
    expect(badAuth.status).toBe(422);
    expect(Object.keys(badAuth.body.error).sort()).toEqual(['amount', 'country', 'mcc', 'merchant', 'partial_allowed']);
    expect(badAuth.body.error.mcc).toEqual(['MCC is four digits such as 5812']);
    const auth = (await pay(staff, card.id, '10.00')).body.data.transaction;
    expect((await stepOn(staff, auth.id, 'increment', { amount: '0' })).body.error.amount).toBeDefined();
    expect((await stepOn(staff, auth.id, 'reverse', { amount: '1.001' })).body.error.amount).toBeDefined();
    const badClear = await stepOn(staff, auth.id, 'clear', { close_authorization: 'yes' });
    expect(Object.keys(badClear.body.error).sort()).toEqual(['amount', 'close_authorization']);
    const badRefund = await t.api('POST', '/sandbox/refunds', {
      token: staff.token,
      body: { card_id: 'x', amount: '1.00', merchant: 'M', mcc: 'abcd', country: 'GH', transaction_id: 'y' },
    });
    expect(Object.keys(badRefund.body.error).sort()).toEqual(['card_id', 'mcc', 'transaction_id']);
    const notAPayment = await refund(staff, card.id, '1.00', { transaction_id: randomUUID() });
    expect(notAPayment.status).toBe(422);
    expect(Object.keys(notAPayment.body.error)).toEqual(['transaction_id']);
    const badForce = await t.api('POST', '/sandbox/force-posts', { token: staff.token, body: {} });
    expect(Object.keys(badForce.body.error).sort()).toEqual(['amount', 'card_id', 'country', 'mcc', 'merchant']);
    expect(await cardLedger(t, card.id)).toEqual({ available: 9_000, held: 1_000 });
  });
});

async function refOf(authId: string) {
  const [r] = await t.ctx.db.select().from(cardTransactions).where(eq(cardTransactions.id, authId));
  return r!.issuerReference!;
}
