import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardTransactions, cards, companies, topups, users } from '../../server/db/schema';
import { dayRange } from '../../server/lib/dates';
import { createCardAccounts } from '../../server/modules/cards/accounts';
import { PLATFORM, createWallet, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { type Interval, series, statistics } from '../../server/modules/statistics/queries';
import { uniqueEmail } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { type PrivateDatabase, privatePostgres } from './support/private-db';
import { rawSeries, rawStatistics } from './support/statistics-raw';

/**
 * The Statistics screen's figures from the totals kept per UTC day (migration 0055) against the same figures computed
 * from the rows (the server's queries before it): equal for every range and chart period, over a history of two years
 * with movements on the edges of days, cards, top-ups and card transactions of every kind, then changed (top-ups
 * decided, payments settled and reversed, cards frozen, deleted and re-purposed, rows removed) and compared again.
 * A database of its own: the figures count every row of the tables.
 */

const T = (iso: string) => new Date(iso);
const DAY = 86_400_000;
let t: TestApp;
let own: PrivateDatabase | null = null;
const cardIds: string[] = [];
const topupIds: string[] = [];
const cardTxIds: string[] = [];

const RANGES: Array<[string | undefined, string | undefined]> = [
  [undefined, undefined],
  ['2011-01-01', undefined],
  [undefined, '2011-06-30'],
  ['2011-06-10', '2011-06-10'],
  ['2011-03-01', '2011-03-31'],
  ['2011-01-01', '2011-12-31'],
  ['2010-07-04', '2011-02-13'],
  ['2012-06-01', '2012-12-31'],
  ['2009-01-01', '2009-12-31'],
  ['2010-01-01', '9999-12-31'],
];
const INTERVALS: Interval[] = ['day', 'week', 'month'];

async function compareAll() {
  for (const [start, end] of RANGES) {
    const r = dayRange(start, end);
    expect(await statistics(t.ctx.db, r), `statistics ${start} - ${end}`).toEqual(await rawStatistics(t.ctx.db, r));
    for (const interval of INTERVALS) {
      const sorted = (s: Awaited<ReturnType<typeof series>>) => ({
        ...s,
        topups: [...s.topups].sort((a, b) => `${a.period}${a.method}`.localeCompare(`${b.period}${b.method}`)),
        card_transactions: [...s.card_transactions].sort((a, b) =>
          `${a.period}${a.status}`.localeCompare(`${b.period}${b.status}`),
        ),
        fees: [...s.fees].sort((a, b) => `${a.period}${a.kind}`.localeCompare(`${b.period}${b.kind}`)),
      });
      expect(sorted(await series(t.ctx.db, r, interval)), `series ${interval} ${start} - ${end}`).toEqual(
        sorted(await rawSeries(t.ctx.db, r, interval)),
      );
    }
  }
}

beforeAll(async () => {
  own = await privatePostgres();
  t = await startTestApp({}, { postgresUrl: own?.url, ownPglite: true });
  const user = async (role: string, companyId: string | null) => {
    const id = crypto.randomUUID();
    await t.ctx.db.insert(users).values({
      id,
      email: uniqueEmail('kept'),
      firstName: 'Kept',
      lastName: role,
      role,
      companyId,
      state: 'Verified',
      emailVerifiedAt: T('2010-01-01T00:00:00Z'),
      createdAt: T('2010-01-01T00:00:00Z'),
    });
    return id;
  };
  const ind = await user('Individual', null);
  const co = crypto.randomUUID();
  await t.ctx.db.insert(companies).values({
    id: co,
    companyName: 'Kept Co',
    companyWebsite: 'https://kept.example.com',
    companyEmail: uniqueEmail('keptco'),
    companyPhone: '+233302000000',
    state: 'Verified',
  });
  const coUser = await user('Company-Admin', co);
  const owners = [
    { id: ind, by: ind },
    { id: co, by: coUser },
  ];
  const wallets: string[] = [];
  for (const o of owners) {
    await createWallet(t.ctx.db, o.id);
    wallets.push((await findWallet(t.ctx.db, o.id))!.id);
  }

  // Twelve cards over two years, every purpose, type and state; each wallet's.
  const PURPOSES = ['general', 'media', 'tokencard'] as const;
  const accounts: Array<{ card: string; hold: string }> = [];
  for (let i = 0; i < 12; i++) {
    const id = crypto.randomUUID();
    const o = owners[i % 2]!;
    const at = new Date(T('2010-01-01T00:00:00Z').getTime() + i * 61 * DAY + (i % 3 === 0 ? 0 : DAY - 1));
    await t.ctx.db.insert(cards).values({
      id,
      walletId: o.id,
      createdBy: o.by,
      firstName: 'Kept',
      lastName: 'Card',
      nickname: `kept-${i}`,
      purpose: PURPOSES[i % 3]!,
      type: i % 2 ? 'basic' : 'premium',
      issuerToken: `kept-${id}`,
      last4: '4242',
      maskedNumber: '4242 **** **** 4242',
      expMonth: 12,
      expYear: 2014,
      billing: {},
      state: i % 4 === 3 ? 'Deactivated' : 'Active',
      deletedAt: i % 5 === 4 ? at : null,
      createdAt: at,
      updatedAt: at,
    });
    cardIds.push(id);
    accounts.push(await createCardAccounts(t.ctx.db, id));
  }

  // 300 movements, each at its own instant, some on a day's first or last millisecond: deposits, issuance and card
  // funding, maintenance, holds, withdrawals, and the odd kind the screen does not show.
  const KINDS = ['deposit', 'issuance', 'topup', 'maintenance', 'card_authorization', 'withdraw', 'api_fee', 'refund'];
  for (let i = 0; i < 300; i++) {
    const base = T('2010-01-01T00:00:00Z').getTime() + Math.floor((i * 730 * DAY) / 300);
    const at = new Date(i % 7 === 0 ? base - (base % DAY) : i % 7 === 1 ? base - (base % DAY) + DAY - 1 : base);
    const wallet = wallets[i % 2]!;
    const acc = accounts[i % 12]!;
    const kind = i < 4 ? 'deposit' : KINDS[i % KINDS.length]!;
    const fee = (i * 37) % 500;
    const legs =
      kind === 'deposit' || kind === 'refund' || kind === 'api_fee'
        ? [
            { accountId: PLATFORM.tronDeposits, amount: -(100_000 + i) },
            { accountId: wallet, amount: 100_000 + i - fee },
            { accountId: PLATFORM.feeIncome, amount: fee },
          ]
        : kind === 'card_authorization'
          ? [
              { accountId: acc.card, amount: -(10 + i) },
              { accountId: acc.hold, amount: 10 + i },
            ]
          : kind === 'maintenance' || kind === 'withdraw'
            ? [
                { accountId: acc.card, amount: -(50 + fee) },
                { accountId: wallet, amount: 50 },
                { accountId: PLATFORM.feeIncome, amount: fee },
              ]
            : [
                { accountId: wallet, amount: -(5_000 + fee) },
                { accountId: acc.card, amount: 5_000 },
                { accountId: PLATFORM.feeIncome, amount: fee },
              ];
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind,
        reference: `KEPT-${i}`,
        meta: { fees_total: fee },
        legs,
        at,
        mayGoNegative: [acc.card],
      }),
    );
  }

  // Top-ups of every state, some undecided; card transactions of every kind and status.
  const STATES = ['Approved', 'Approved', 'Denied', 'Pending', 'Approved'];
  for (let i = 0; i < 60; i++) {
    const id = crypto.randomUUID();
    const at = new Date(T('2010-01-01T00:00:00Z').getTime() + i * 12 * DAY + (i % 3) * (DAY / 2) - (i % 2));
    await t.ctx.db.insert(topups).values({
      id,
      walletId: owners[i % 2]!.id,
      reference: `KEPT-TP-${i}`,
      code: String(100000 + i),
      method: i % 2 ? 'Tron' : 'Momo',
      amount: 1_000 + i * 13,
      state: STATES[i % 5]!,
      createdBy: owners[i % 2]!.by,
      decidedAt: i % 5 === 3 || i % 11 === 0 ? null : at,
      createdAt: at,
      updatedAt: at,
    });
    topupIds.push(id);
  }
  const CT = [
    ['authorization', 'approved'],
    ['authorization', 'settled'],
    ['authorization', 'declined'],
    ['authorization', 'reversed'],
    ['settlement', 'settled'],
    ['reversal', 'settled'],
  ] as const;
  for (let i = 0; i < 90; i++) {
    const id = crypto.randomUUID();
    const at = new Date(T('2010-01-01T00:00:00Z').getTime() + i * 8 * DAY + (i % 2 ? DAY - 1 : 0));
    await t.ctx.db.insert(cardTransactions).values({
      id,
      cardId: cardIds[i % 12]!,
      kind: CT[i % 6]![0],
      status: CT[i % 6]![1],
      amount: 100 + i * 7,
      merchant: 'Kept Shop',
      country: 'GH',
      description: 'Kept purchase',
      createdAt: at,
      updatedAt: at,
    });
    cardTxIds.push(id);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

describe('statistics from kept day totals', () => {
  it('answers as the rows do, for every range and chart period', async () => {
    // The history reaches every figure: none of the year's is zero.
    const year = await statistics(t.ctx.db, dayRange('2011-01-01', '2011-12-31'));
    for (const [k, v] of Object.entries(year)) expect([0, '0.00'], k).not.toContain(v);
    await compareAll();
  });

  it('still does after top-ups are decided, payments settled, cards changed and rows removed', async () => {
    const db = t.ctx.db;
    // Pending top-ups approved on another day; an approved one denied; one removed.
    for (const [i, id] of topupIds.entries()) {
      if (i % 5 === 3)
        await db
          .update(topups)
          .set({ state: 'Approved', decidedAt: T('2011-06-10T23:59:59.999Z') })
          .where(eq(topups.id, id));
      if (i % 10 === 0) await db.update(topups).set({ state: 'Denied' }).where(eq(topups.id, id));
    }
    await db.delete(topups).where(eq(topups.id, topupIds[1]!));
    // Authorisations settled and reversed, amounts corrected, one moved to another day, one removed.
    for (const [i, id] of cardTxIds.entries()) {
      if (i % 6 === 0 && i % 12 === 0)
        await db.update(cardTransactions).set({ status: 'settled' }).where(eq(cardTransactions.id, id));
      if (i % 6 === 0 && i % 12 === 6)
        await db.update(cardTransactions).set({ status: 'reversed' }).where(eq(cardTransactions.id, id));
      if (i % 9 === 1) await db.update(cardTransactions).set({ amount: 4_321 }).where(eq(cardTransactions.id, id));
    }
    await db
      .update(cardTransactions)
      .set({ createdAt: T('2011-06-10T00:00:00Z') })
      .where(eq(cardTransactions.id, cardTxIds[0]!));
    await db.update(cardTransactions).set({ description: 'only text' }).where(eq(cardTransactions.id, cardTxIds[2]!));
    await db.delete(cardTransactions).where(eq(cardTransactions.id, cardTxIds[3]!));
    // Cards frozen, deleted, and one re-purposed (nothing in the app does; the balances by purpose follow it).
    await db.update(cards).set({ state: 'Frozen' }).where(eq(cards.id, cardIds[0]!));
    await db
      .update(cards)
      .set({ deletedAt: T('2012-01-01T00:00:00Z') })
      .where(eq(cards.id, cardIds[1]!));
    await db.update(cards).set({ purpose: 'tokencard' }).where(eq(cards.id, cardIds[2]!));
    await db.update(cards).set({ type: 'basic', state: 'Active' }).where(eq(cards.id, cardIds[3]!));
    await compareAll();
  });
});
