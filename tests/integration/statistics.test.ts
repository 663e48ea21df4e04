import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatMoney } from '@shared/money';
import { cardTransactions, cards, companies, topups, users } from '../../server/db/schema';
import { createCardAccounts } from '../../server/modules/cards/accounts';
import { PLATFORM, createWallet, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { type Actor, newIndividual, newStaff, uniqueEmail } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { type PrivateDatabase, privatePostgres } from './support/private-db';

/**
 * GET /reports/view-statistics against fixtures written straight into the database in June 2011,
 * each figure checked against a sum computed here from the fixtures themselves, not by the server's
 * SQL. On PostgreSQL the file has a database of its own: balances "as of the end of the range" count
 * every earlier movement, and other files date theirs wherever their story needs (1994, 2003…).
 */

const T = (iso: string) => new Date(iso);
const RANGE = { start: '2011-06-10', end: '2011-06-20' };
const FROM = T('2011-06-10T00:00:00.000Z');
const TO = T('2011-06-21T00:00:00.000Z'); // end day inclusive: up to, not including, the next midnight
const inRange = (at: Date, from = FROM, to = TO) => at >= from && at < to;

type Purpose = 'general' | 'media' | 'tokencard';
interface CardFx {
  id: string;
  walletId: string;
  owner: 'company' | 'individual';
  purpose: Purpose;
  type: 'basic' | 'premium';
  state: 'Active' | 'Deactivated';
  deleted: boolean;
  at: Date;
  accounts: { card: string; hold: string };
}
interface Movement {
  kind: string;
  at: Date;
  fee: number;
  legs: Array<{ accountId: string; amount: number }>;
}
interface TopupFx {
  method: 'Tron' | 'Momo';
  state: string;
  amount: number;
  decidedAt: Date | null;
}
interface CardTxFx {
  cardId: string;
  kind: string;
  status: string;
  amount: number;
  at: Date;
}

let t: TestApp;
let own: PrivateDatabase | null = null;
let admin: Actor;
let superAdmin: Actor;
let customer: Actor;
const fx = {
  cards: [] as CardFx[],
  movements: [] as Movement[],
  topups: [] as TopupFx[],
  cardTx: [] as CardTxFx[],
  accountKind: new Map<string, { kind: string; purpose?: Purpose }>(),
};

async function insertUser(role: string, companyId: string | null) {
  const [u] = await t.ctx.db
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email: uniqueEmail('stats'),
      firstName: 'Stat',
      lastName: role,
      role,
      companyId,
      state: 'Verified',
      emailVerifiedAt: T('2011-05-01T00:00:00Z'),
      createdAt: T('2011-05-01T00:00:00Z'),
    })
    .returning();
  return u!;
}

/** Movements are posted afterwards in time order, so each entry's balance after is the balance at its time. */
async function move(kind: string, at: Date, fee: number, legs: Movement['legs']) {
  fx.movements.push({ kind, at, fee, legs });
}

async function postMovements() {
  const inOrder = [...fx.movements].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const m of inOrder) {
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: m.kind,
        reference: `STAT-${crypto.randomUUID()}`,
        meta: { fees_total: m.fee },
        legs: m.legs,
        at: m.at,
      }),
    );
  }
}

async function addCard(
  walletId: string,
  owner: CardFx['owner'],
  createdBy: string,
  c: Pick<CardFx, 'purpose' | 'type' | 'state' | 'deleted' | 'at'>,
) {
  const id = crypto.randomUUID();
  await t.ctx.db.insert(cards).values({
    id,
    walletId,
    createdBy,
    firstName: 'Stat',
    lastName: 'Card',
    nickname: `stat-${id.slice(0, 8)}`,
    purpose: c.purpose,
    type: c.type,
    issuerToken: `stat-${id}`,
    last4: '4242',
    maskedNumber: '4242 **** **** 4242',
    expMonth: 12,
    expYear: 2014,
    billing: {},
    state: c.state,
    deletedAt: c.deleted ? c.at : null,
    createdAt: c.at,
    updatedAt: c.at,
  });
  const accounts = await createCardAccounts(t.ctx.db, id);
  fx.accountKind.set(accounts.card, { kind: 'card', purpose: c.purpose });
  fx.accountKind.set(accounts.hold, { kind: 'card_hold', purpose: c.purpose });
  const card: CardFx = { id, walletId, owner, accounts, ...c };
  fx.cards.push(card);
  return card;
}

async function addTopup(walletId: string, createdBy: string, tp: TopupFx) {
  const ref = `STAT-${crypto.randomUUID().slice(0, 12)}`;
  await t.ctx.db.insert(topups).values({
    id: crypto.randomUUID(),
    walletId,
    reference: ref,
    code: ref.slice(-6),
    method: tp.method,
    amount: tp.amount,
    state: tp.state,
    createdBy,
    decidedAt: tp.decidedAt,
    createdAt: T('2011-06-01T00:00:00Z'),
    updatedAt: tp.decidedAt ?? T('2011-06-01T00:00:00Z'),
  });
  fx.topups.push(tp);
}

async function addCardTx(tx: CardTxFx) {
  await t.ctx.db.insert(cardTransactions).values({
    id: crypto.randomUUID(),
    cardId: tx.cardId,
    kind: tx.kind,
    status: tx.status,
    amount: tx.amount,
    merchant: 'Stat Shop',
    country: 'GH',
    description: `${tx.kind} at Stat Shop`,
    createdAt: tx.at,
    updatedAt: tx.at,
  });
  fx.cardTx.push(tx);
}

beforeAll(async () => {
  own = await privatePostgres();
  t = await startTestApp({}, { postgresUrl: own?.url, ownPglite: true });
  [admin, superAdmin, customer] = await Promise.all([
    newStaff(t, 'Admin'),
    newStaff(t, 'Super-Admin'),
    newIndividual(t),
  ]);

  const ind = await insertUser('Individual', null);
  const [co] = await t.ctx.db
    .insert(companies)
    .values({
      id: crypto.randomUUID(),
      companyName: 'Stat Co',
      companyWebsite: 'https://stat.example.com',
      companyEmail: uniqueEmail('statco'),
      companyPhone: '+233302000000',
      state: 'Verified',
    })
    .returning();
  const coUser = await insertUser('Company-Admin', co!.id);
  await createWallet(t.ctx.db, ind.id);
  await createWallet(t.ctx.db, co!.id);
  const indWallet = (await findWallet(t.ctx.db, ind.id))!.id;
  const coWallet = (await findWallet(t.ctx.db, co!.id))!.id;
  fx.accountKind.set(indWallet, { kind: 'wallet' });
  fx.accountKind.set(coWallet, { kind: 'wallet' });

  // Deposits (wallet top-up fees), before, at the edges of and after the range.
  const deposit = (wallet: string, at: string, amount: number, fee: number) =>
    move('deposit', T(at), fee, [
      { accountId: PLATFORM.tronDeposits, amount: -amount },
      { accountId: wallet, amount: amount - fee },
      { accountId: PLATFORM.feeIncome, amount: fee },
    ]);
  await deposit(indWallet, '2011-06-01T12:00:00.000Z', 500_000, 2_500);
  await deposit(coWallet, '2011-06-09T23:59:59.999Z', 1_000_000, 5_000); // the last instant before the range
  await deposit(indWallet, '2011-06-10T00:00:00.000Z', 20_001, 101); // the first instant of the range
  await deposit(coWallet, '2011-06-15T08:30:00.000Z', 333_333, 1_667);

  // Cards of every kind: before, inside and after the range.
  const c1 = await addCard(ind.id, 'individual', ind.id, {
    purpose: 'media',
    type: 'premium',
    state: 'Active',
    deleted: false,
    at: T('2011-06-02T10:00:00Z'),
  });
  const c2 = await addCard(co!.id, 'company', coUser.id, {
    purpose: 'general',
    type: 'basic',
    state: 'Active',
    deleted: false,
    at: T('2011-06-10T00:00:00.000Z'),
  });
  const c3 = await addCard(co!.id, 'company', coUser.id, {
    purpose: 'tokencard',
    type: 'premium',
    state: 'Deactivated',
    deleted: false,
    at: T('2011-06-12T09:00:00Z'),
  });
  const c4 = await addCard(ind.id, 'individual', ind.id, {
    purpose: 'media',
    type: 'basic',
    state: 'Active',
    deleted: true,
    at: T('2011-06-20T23:59:59.999Z'),
  });
  const c5 = await addCard(co!.id, 'company', coUser.id, {
    purpose: 'general',
    type: 'premium',
    state: 'Active',
    deleted: false,
    at: T('2011-06-21T00:00:00.000Z'),
  });

  // Issuance, card top-ups, withdrawals and maintenance, with their fees.
  const issue = (card: CardFx, wallet: string, at: Date, amount: number, fee: number) =>
    move('issuance', at, fee, [
      { accountId: wallet, amount: -(amount + fee) },
      { accountId: card.accounts.card, amount },
      { accountId: PLATFORM.feeIncome, amount: fee },
    ]);
  await issue(c1, indWallet, T('2011-06-02T10:00:00Z'), 10_000, 350);
  await issue(c2, coWallet, T('2011-06-10T00:00:00.000Z'), 25_000, 775);
  await issue(c3, coWallet, T('2011-06-12T09:00:00Z'), 7_050, 301);
  await issue(c4, indWallet, T('2011-06-20T23:59:59.999Z'), 300, 103);
  await issue(c5, coWallet, T('2011-06-21T00:00:00.000Z'), 9_999, 299);
  await move('topup', T('2011-06-14T00:00:00Z'), 125, [
    { accountId: indWallet, amount: -5_125 },
    { accountId: c1.accounts.card, amount: 5_000 },
    { accountId: PLATFORM.feeIncome, amount: 125 },
  ]);
  await move('withdraw', T('2011-06-16T00:00:00Z'), 57, [
    { accountId: c3.accounts.card, amount: -1_057 },
    { accountId: coWallet, amount: 1_000 },
    { accountId: PLATFORM.feeIncome, amount: 57 },
  ]);
  for (const [card, at] of [
    [c1, '2011-06-09T23:59:59.999Z'],
    [c1, '2011-06-11T00:00:00Z'],
    [c2, '2011-06-20T12:00:00Z'],
    [c2, '2011-06-21T00:00:00.000Z'],
  ] as const) {
    await move('maintenance', T(at), 200, [
      { accountId: card.accounts.card, amount: -200 },
      { accountId: PLATFORM.feeIncome, amount: 200 },
    ]);
  }
  // An approved authorisation holds money on the card (card → card_hold).
  await move('card_authorization', T('2011-06-18T00:00:00Z'), 0, [
    { accountId: c2.accounts.card, amount: -4_321 },
    { accountId: c2.accounts.hold, amount: 4_321 },
  ]);

  await postMovements();

  // Top-up requests: counted once approved, by the day of the decision.
  await addTopup(ind.id, ind.id, {
    method: 'Tron',
    state: 'Approved',
    amount: 500_000,
    decidedAt: T('2011-06-09T23:59:59.999Z'),
  });
  await addTopup(ind.id, ind.id, {
    method: 'Tron',
    state: 'Approved',
    amount: 20_001,
    decidedAt: T('2011-06-10T00:00:00.000Z'),
  });
  await addTopup(co!.id, coUser.id, {
    method: 'Momo',
    state: 'Approved',
    amount: 333_333,
    decidedAt: T('2011-06-20T23:59:59.999Z'),
  });
  await addTopup(co!.id, coUser.id, {
    method: 'Momo',
    state: 'Denied',
    amount: 777_777,
    decidedAt: T('2011-06-15T00:00:00Z'),
  });
  await addTopup(co!.id, coUser.id, { method: 'Tron', state: 'Hash-provided', amount: 1_234, decidedAt: null });
  await addTopup(co!.id, coUser.id, {
    method: 'Tron',
    state: 'Approved',
    amount: 9_999,
    decidedAt: T('2011-06-21T00:00:00.000Z'),
  });

  // Card payments: approved and settled authorisations count; declines, reversals and settlement rows do not.
  await addCardTx({
    cardId: c1.id,
    kind: 'authorization',
    status: 'approved',
    amount: 1_999,
    at: T('2011-06-10T00:00:00.000Z'),
  });
  await addCardTx({
    cardId: c2.id,
    kind: 'authorization',
    status: 'settled',
    amount: 4_321,
    at: T('2011-06-18T00:00:00Z'),
  });
  await addCardTx({
    cardId: c2.id,
    kind: 'settlement',
    status: 'settled',
    amount: 4_321,
    at: T('2011-06-19T00:00:00Z'),
  });
  await addCardTx({
    cardId: c3.id,
    kind: 'authorization',
    status: 'declined',
    amount: 99_999,
    at: T('2011-06-13T00:00:00Z'),
  });
  await addCardTx({
    cardId: c1.id,
    kind: 'authorization',
    status: 'reversed',
    amount: 700,
    at: T('2011-06-14T00:00:00Z'),
  });
  await addCardTx({
    cardId: c1.id,
    kind: 'authorization',
    status: 'approved',
    amount: 1_001,
    at: T('2011-06-09T23:59:59.999Z'),
  });
  await addCardTx({
    cardId: c2.id,
    kind: 'authorization',
    status: 'approved',
    amount: 2_002,
    at: T('2011-06-20T23:59:59.999Z'),
  });
  await addCardTx({
    cardId: c2.id,
    kind: 'authorization',
    status: 'approved',
    amount: 3_003,
    at: T('2011-06-21T00:00:00.000Z'),
  });
});

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

/** Every figure, computed from the fixtures for [from, to): balances by replaying the ledger legs up to `to`. */
function expected(from: Date, to: Date) {
  const within = (at: Date | null) => !!at && inRange(at, from, to);
  const balance = new Map<string, number>();
  for (const m of fx.movements)
    if (m.at < to)
      for (const l of m.legs)
        if (fx.accountKind.has(l.accountId)) balance.set(l.accountId, (balance.get(l.accountId) ?? 0) + l.amount);
  const sumBal = (pred: (k: { kind: string; purpose?: Purpose }) => boolean) =>
    [...balance].filter(([id]) => pred(fx.accountKind.get(id)!)).reduce((s, [, v]) => s + v, 0);
  const isCard = (k: { kind: string }) => k.kind === 'card' || k.kind === 'card_hold';
  const feeKinds = ['issuance', 'topup', 'withdraw', 'maintenance'];
  const moves = fx.movements.filter((m) => within(m.at));
  const approved = fx.topups.filter((tp) => tp.state === 'Approved' && within(tp.decidedAt));
  const paid = fx.cardTx.filter(
    (c) => c.kind === 'authorization' && (c.status === 'approved' || c.status === 'settled') && within(c.at),
  );
  const made = fx.cards.filter((c) => within(c.at));
  const maint = moves.filter((m) => m.kind === 'maintenance');
  const sum = <X>(xs: X[], f: (x: X) => number) => xs.reduce((s, x) => s + f(x), 0);
  return {
    total_wallet_balance: formatMoney(sumBal((k) => k.kind === 'wallet')),
    total_card_balance: formatMoney(sumBal(isCard)),
    total_fees_amount: formatMoney(
      sum(
        moves.filter((m) => feeKinds.includes(m.kind)),
        (m) => m.fee,
      ),
    ),
    total_topups_fees: formatMoney(
      sum(
        moves.filter((m) => m.kind === 'deposit'),
        (m) => m.fee,
      ),
    ),
    total_card_balance_general: formatMoney(sumBal((k) => isCard(k) && k.purpose === 'general')),
    total_card_balance_media: formatMoney(sumBal((k) => isCard(k) && k.purpose === 'media')),
    total_card_balance_tokencard: formatMoney(sumBal((k) => isCard(k) && k.purpose === 'tokencard')),
    total_topups_amount: formatMoney(sum(approved, (tp) => tp.amount)),
    total_topups: approved.length,
    total_transactions: paid.length,
    total_transactions_amount: formatMoney(sum(paid, (c) => c.amount)),
    total_cards: made.length,
    total_activated_cards: made.filter((c) => !c.deleted && c.state === 'Active').length,
    total_deactivated_cards: made.filter((c) => !c.deleted && c.state !== 'Active').length,
    total_deleted_cards: made.filter((c) => c.deleted).length,
    total_basic_cards: made.filter((c) => c.type === 'basic').length,
    total_premium_cards: made.filter((c) => c.type === 'premium').length,
    total_general_cards: made.filter((c) => c.purpose === 'general').length,
    total_media_cards: made.filter((c) => c.purpose === 'media').length,
    total_company_cards: made.filter((c) => c.owner === 'company').length,
    total_individual_cards: made.filter((c) => c.owner === 'individual').length,
    total_maintenance: maint.length,
    total_maintenance_amount: formatMoney(sum(maint, (m) => m.fee)),
  };
}

const stats = (token: string, q = '') => t.api('GET', `/reports/view-statistics${q}`, { token });

describe('GET /reports/view-statistics', () => {
  it('answers every figure of back-office §3, each equal to an independent computation over the range', async () => {
    const res = await stats(admin.token, `?start_date=${RANGE.start}&end_date=${RANGE.end}`);
    expect(res.status).toBe(200);
    const want = expected(FROM, TO);
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(want).sort());
    expect(res.body.data).toEqual(want);
    // Hand-checked anchors, so the expectation itself cannot drift: the range holds two cards
    // created at its very edges and one in between, one maintenance charge, three approved
    // authorisations are not all inside it.
    expect(res.body.data.total_cards).toBe(3);
    expect(res.body.data.total_topups).toBe(2);
    expect(res.body.data.total_topups_amount).toBe('3533.34');
    expect(res.body.data.total_transactions).toBe(3);
    expect(res.body.data.total_transactions_amount).toBe('83.22');
    expect(res.body.data.total_maintenance).toBe(2);
    expect(res.body.data.total_maintenance_amount).toBe('4.00');
    expect(res.body.data.total_topups_fees).toBe('17.68');
  });

  it('counts whole UTC days: both the start and the end day are included, nothing past midnight after the end', async () => {
    const oneDay = await stats(admin.token, '?start_date=2011-06-10&end_date=2011-06-10');
    expect(oneDay.status).toBe(200);
    expect(oneDay.body.data).toEqual(expected(FROM, T('2011-06-11T00:00:00.000Z')));
    expect(oneDay.body.data.total_cards).toBe(1); // created at 00:00:00.000 of the day
    expect(oneDay.body.data.total_topups_amount).toBe('200.01');

    const lastDay = await stats(admin.token, '?start_date=2011-06-20&end_date=2011-06-20');
    expect(lastDay.body.data).toEqual(expected(T('2011-06-20T00:00:00.000Z'), TO));
    expect(lastDay.body.data.total_cards).toBe(1); // created at 23:59:59.999
    expect(lastDay.body.data.total_transactions_amount).toBe('20.02');

    const dayAfter = await stats(admin.token, '?start_date=2011-06-21&end_date=2011-06-21');
    expect(dayAfter.body.data).toEqual(expected(TO, T('2011-06-22T00:00:00.000Z')));
    expect(dayAfter.body.data.total_cards).toBe(1);
    expect(dayAfter.body.data.total_transactions_amount).toBe('30.03');
  });

  it('gives balances as of the end of the range', async () => {
    const before = await stats(admin.token, '?start_date=2011-06-01&end_date=2011-06-09');
    expect(before.body.data.total_wallet_balance).toBe(expected(T('2011-06-01T00:00:00Z'), FROM).total_wallet_balance);
    // Everything up to 2011-06-09 23:59:59.999: two deposits net of fees, one issuance, one maintenance charge.
    expect(before.body.data.total_wallet_balance).toBe(formatMoney(497_500 + 995_000 - 10_350));
    expect(before.body.data.total_card_balance).toBe(formatMoney(10_000 - 200));
    expect(before.body.data.total_card_balance_media).toBe(formatMoney(9_800));
  });

  it('without dates covers everything (on a database of its own)', async () => {
    if (inject('postgresUrl')) return; // a shared PostgreSQL holds other files' data too
    const res = await stats(superAdmin.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expected(T('1970-01-01T00:00:00Z'), T('2100-01-01T00:00:00Z')));
  });

  it('series add up to the figures', async () => {
    const res = await t.api(
      'GET',
      `/reports/view-statistics-series?start_date=${RANGE.start}&end_date=${RANGE.end}&interval=day`,
      { token: admin.token },
    );
    expect(res.status).toBe(200);
    const cents = (s: string) => Math.round(Number(s) * 100);
    const want = expected(FROM, TO);
    const topups = res.body.data.topups as Array<{ period: string; amount: string; count: number }>;
    expect(topups.reduce((s, r) => s + cents(r.amount), 0)).toBe(cents(want.total_topups_amount));
    expect(topups.map((r) => r.period).sort()).toEqual(['2011-06-10', '2011-06-20']);
    const fees = res.body.data.fees as Array<{ kind: string; amount: string }>;
    expect(fees.filter((f) => f.kind === 'maintenance').reduce((s, f) => s + cents(f.amount), 0)).toBe(
      cents(want.total_maintenance_amount),
    );
  });

  it('is for staff only', async () => {
    expect((await stats(superAdmin.token, `?start_date=${RANGE.start}&end_date=${RANGE.end}`)).status).toBe(200);
    expect((await stats(customer.token)).status).toBe(403);
    expect((await t.api('GET', '/reports/view-statistics-series', { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/reports/view-statistics')).status).toBe(401);
  });

  it('refuses a malformed date', async () => {
    const res = await stats(admin.token, '?start_date=2011-13-45');
    expect(res.status).toBe(422);
  });
});
