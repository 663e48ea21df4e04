import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayMoney } from '@shared/money';
import { ledgerAccounts } from '../../server/db/schema';
import { PLATFORM, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import { pdfText } from '../support/pdf-text';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { rows } from './support/cards';
import { fundWallet } from './support/money';
import { walletOf } from './support/wallet';

/**
 * GET /reports/wallet-statement: a PDF whose balances are the ledger's. Its text is read back with
 * pdf.js and every figure is checked against the ledger itself: the opening balance (postings
 * before the first instant), each movement (amount, fees, balance after it) and the closing
 * balance (postings before the last instant). Owners and staff get it; another account's wallet
 * is 404; bad input on every field is a 422 naming the field.
 */

let t: TestApp;
let owner: Actor;
let other: Actor;
let coAdmin: Actor;
let coUser: Actor;
let admin: Actor;
let superAdmin: Actor;

const PERIOD = { start: '2025-03-01', end: '2025-03-03' };
const FROM = new Date('2025-03-01T00:00:00.000Z');
const TO = new Date('2025-03-04T00:00:00.000Z');

/** The owner's history around the period: edges on both sides of both instants. */
const HISTORY = [
  { at: '2025-02-27T10:00:00.000Z', cents: 10_000, kind: 'deposit', fees: 50 },
  { at: '2025-02-28T23:59:59.999Z', cents: 500, kind: 'deposit', fees: 0 }, // the last instant before: opening
  { at: '2025-03-01T00:00:00.000Z', cents: 2_000, kind: 'deposit', fees: 10 }, // the first instant: in the period
  { at: '2025-03-02T12:30:00.000Z', cents: -3_000, kind: 'issuance', fees: 200, card: '**** **** **** 4242' },
  { at: '2025-03-03T23:59:59.999Z', cents: -150, kind: 'transfer', fees: 0 }, // the last instant of end_date
  { at: '2025-03-04T00:00:00.000Z', cents: 700, kind: 'deposit', fees: 0 }, // after the period
];

const statementUrl = (q: Record<string, string | undefined>) => {
  const params = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));
  return `${t.url}/api/v1/reports/wallet-statement?${params}`;
};
const getStatement = (token: string | undefined, q: Record<string, string | undefined>) =>
  fetch(statementUrl(q), { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The statement as text, after checking it is a PDF attachment. */
async function statementOf(token: string, q: Record<string, string>) {
  const res = await getStatement(token, q);
  if (res.status !== 200) throw new Error(`statement ${res.status} ${await res.text()}`);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-disposition')).toBe(
    `attachment; filename="wallet-statement-${q.start_date}-to-${q.end_date}.pdf"`,
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
  return pdfText(bytes);
}

/** The ledger's own figures for a wallet: its balance at an instant, and its entries in [from, to). */
async function ledgerBalanceAt(walletId: string, at: Date): Promise<number> {
  const [r] = await rows(
    t,
    sql`select coalesce(sum(e.amount), 0)::text as b from ledger_entries e join ledger_accounts a on a.id = e.account_id
    where a.kind = 'wallet' and a.owner_id = ${walletId} and e.created_at < ${at.toISOString()}::timestamptz`,
  );
  return Number(r!.b);
}
async function ledgerEntriesIn(walletId: string, from: Date, to: Date) {
  return (await rows(
    t,
    sql`select tr.reference, e.amount::text as amount, e.balance_after::text as after, coalesce(tr.meta->>'fees_total', '0') as fees, e.created_at
    from ledger_entries e join ledger_accounts a on a.id = e.account_id join ledger_transfers tr on tr.id = e.transfer_id
    where a.kind = 'wallet' and a.owner_id = ${walletId} and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${to.toISOString()}::timestamptz
    order by e.created_at, e.seq`,
  )) as Array<{ reference: string; amount: string; after: string; fees: string; created_at: string | Date }>;
}

const REF = /^[A-Z]{3}-[0-9A-Z]{10}$/;
/** The statement's movement lines: [date, reference, details, fees, amount, balance]. */
const movementLines = (lines: string[][]) => lines.filter((l) => REF.test(l[1] ?? ''));
const summaryValue = (lines: string[][], label: RegExp) => {
  const line = lines.find((l) => label.test(l[0] ?? ''));
  if (!line) throw new Error(`no line ${label}`);
  return line[1];
};
const cellsOf = (cents: number) => (cents > 0 ? `+${displayMoney(cents)}` : displayMoney(cents));

/** Checks a statement's figures against the ledger between two instants. */
async function expectMatchesLedger(text: { lines: string[][] }, walletId: string, from: Date, to: Date) {
  const opening = await ledgerBalanceAt(walletId, from);
  const closing = await ledgerBalanceAt(walletId, to);
  expect(summaryValue(text.lines, /^Opening balance at /)).toBe(`USDT ${displayMoney(opening)}`);
  expect(summaryValue(text.lines, /^Closing balance (at|when)/)).toBe(`USDT ${displayMoney(closing)}`);
  const entries = await ledgerEntriesIn(walletId, from, to);
  const lines = movementLines(text.lines);
  expect(lines.map((l) => l[1])).toEqual(entries.map((e) => e.reference));
  let running = opening;
  for (const [i, e] of entries.entries()) {
    running += Number(e.amount);
    const at = new Date(e.created_at).toISOString();
    expect(lines[i]!.slice(3), e.reference).toEqual([
      displayMoney(Number(e.fees)),
      cellsOf(Number(e.amount)),
      displayMoney(running),
    ]);
    expect(lines[i]![0]).toBe(at.slice(0, 16).replace('T', ' '));
    // the balance after each line is the ledger's balance just after that posting
    expect(running).toBe(Number(e.after));
    expect(running).toBe(await ledgerBalanceAt(walletId, new Date(new Date(at).getTime() + 1)));
  }
  expect(running).toBe(closing);
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, other, coAdmin, admin, superAdmin] = await Promise.all([
    newIndividual(t, { first_name: 'Abena', last_name: 'Ɔsei-Mensah' }),
    newIndividual(t),
    newCompany(t),
    newStaff(t, 'Admin'),
    newStaff(t, 'Super-Admin'),
  ]);
  coUser = await newCompanyMember(t, coAdmin, 'user');
  const wallet = (await findWallet(t.ctx.db, owner.id))!;
  for (const h of HISTORY) {
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: h.kind,
        reference: newReference('TST'),
        description: `Statement test ${h.kind}`,
        meta: { fees_total: h.fees, ...(h.card ? { card_number: h.card } : {}) },
        at: new Date(h.at),
        legs: [
          { accountId: wallet.id, amount: h.cents },
          { accountId: PLATFORM.tronDeposits, amount: -h.cents },
        ],
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the statement is the ledger', () => {
  it('answers a PDF attachment with the holder, the period, and opening, movements and closing as the ledger holds them', async () => {
    const pdf = await statementOf(owner.token, { wallet: owner.id, start_date: PERIOD.start, end_date: PERIOD.end });
    expect(pdf.text).toContain('Wallet statement');
    // Helvetica cannot draw Ɔ: the statement writes the Latin letter read in its place.
    expect(pdf.lines).toContainEqual(['Account holder', 'Abena Osei-Mensah (Individual)']);
    expect(pdf.lines).toContainEqual(['Wallet ID', owner.id]);
    expect(pdf.lines).toContainEqual(['Period', '1 Mar 2025 to 3 Mar 2025, both days included']);
    expect(pdf.text).toContain('All dates and times are in UTC');
    expect(summaryValue(pdf.lines, /^Opening balance at 1 Mar 2025 00:00 UTC$/)).toBe('USDT 105.00');
    expect(summaryValue(pdf.lines, /^Closing balance at the end of 3 Mar 2025 \(UTC\)$/)).toBe('USDT 93.50');
    expect(summaryValue(pdf.lines, /^Money in$/)).toBe('USDT 20.00');
    expect(summaryValue(pdf.lines, /^Money out$/)).toBe('USDT -31.50');
    expect(summaryValue(pdf.lines, /^Fees \(already counted in the amounts\)$/)).toBe('USDT 2.10');
    const lines = movementLines(pdf.lines);
    expect(lines.map((l) => l.slice(0, 1).concat(l.slice(2)))).toEqual([
      ['2025-03-01 00:00', 'Wallet Top Up', '0.10', '+20.00', '125.00'],
      ['2025-03-02 12:30', 'Card Issuance', '2.00', '-30.00', '95.00'],
      ['2025-03-03 23:59', 'Transfer', '0.00', '-1.50', '93.50'],
    ]);
    expect(pdf.text).toContain('Card **** **** **** 4242 · Statement test issuance');
    expect(pdf.info.Title).toBe('Wallet statement, Abena Osei-Mensah, 2025-03-01 to 2025-03-03');
    await expectMatchesLedger(pdf, owner.id, FROM, TO);
  });

  it('matches the ledger at other instants too: a period with nothing in it, and one day', async () => {
    const empty = await statementOf(owner.token, {
      wallet: owner.id,
      start_date: '2025-01-01',
      end_date: '2025-01-31',
    });
    expect(summaryValue(empty.lines, /^Opening balance/)).toBe('USDT 0.00');
    expect(summaryValue(empty.lines, /^Closing balance at/)).toBe('USDT 0.00');
    expect(empty.text).toContain('No movements in this period.');
    const day = await statementOf(owner.token, { wallet: owner.id, start_date: '2025-03-04', end_date: '2025-03-04' });
    await expectMatchesLedger(day, owner.id, new Date('2025-03-04T00:00:00Z'), new Date('2025-03-05T00:00:00Z'));
    expect(summaryValue(day.lines, /^Closing balance/)).toBe('USDT 100.50');
  });

  it('takes a period that has not ended yet up to now, says so, and includes money moved through the API today', async () => {
    await fundWallet(t, walletOf(coAdmin), 50_000);
    const sent = await t.api('POST', '/wallet/transfer', {
      token: coAdmin.token,
      body: { wallet_id: owner.id, amount: '12.34', reference: 'Statement test' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const today = t.clock.now().toISOString().slice(0, 10);
    const before = Date.now();
    const pdf = await statementOf(coUser.token, { wallet: walletOf(coAdmin), start_date: today, end_date: today });
    expect(pdf.lines).toContainEqual(['Account holder', 'Volta Trading Ltd (Company)']);
    expect(pdf.text).toMatch(/Closing balance at .* UTC, when this statement was made/);
    expect(movementLines(pdf.lines)).toHaveLength(2);
    expect(summaryValue(pdf.lines, /^Closing balance/)).toBe('USDT 487.66');
    await expectMatchesLedger(
      pdf,
      walletOf(coAdmin),
      new Date(`${today}T00:00:00Z`),
      new Date(Math.max(before, t.clock.now().getTime())),
    );
    const mine = await statementOf(owner.token, { wallet: owner.id, start_date: today, end_date: today });
    expect(movementLines(mine.lines).map((l) => l[4])).toEqual(['+12.34']);
  });

  it('stays whole while transfers commit during the read: opening + movements = closing in every statement', async () => {
    await fundWallet(t, walletOf(coAdmin), 10_000);
    const today = t.clock.now().toISOString().slice(0, 10);
    const start = new Date(t.clock.now().getTime() - 300 * 86_400_000).toISOString().slice(0, 10);
    const transfers = Array.from({ length: 8 }, () =>
      t.api('POST', '/wallet/transfer', { token: coAdmin.token, body: { wallet_id: owner.id, amount: '1.00' } }),
    );
    const statements = Array.from({ length: 8 }, () =>
      statementOf(owner.token, { wallet: owner.id, start_date: start, end_date: today }),
    );
    const [sent, read] = await Promise.all([Promise.all(transfers), Promise.all(statements)]);
    expect(sent.map((s) => s.status)).toEqual(Array(8).fill(200));
    for (const pdf of read) {
      const cents = (s: string) => Math.round(Number(s.replace(/[^\d.-]/g, '')) * 100);
      const opening = cents(summaryValue(pdf.lines, /^Opening balance/)!);
      const moved = movementLines(pdf.lines).reduce((s, l) => s + cents(l[4]!), 0);
      expect(opening + moved).toBe(cents(summaryValue(pdf.lines, /^Closing balance/)!));
      expect(opening).toBe(await ledgerBalanceAt(owner.id, new Date(`${start}T00:00:00Z`)));
    }
  });
});

describe('who may have it', () => {
  const q = (wallet: string) => ({ wallet, start_date: PERIOD.start, end_date: PERIOD.end });

  it('the owner, the company’s admin and user, and staff (Admin, Super-Admin)', async () => {
    for (const who of [owner, admin, superAdmin])
      await expectMatchesLedger(await statementOf(who.token, q(owner.id)), owner.id, FROM, TO);
    for (const who of [coAdmin, coUser, admin, superAdmin]) {
      const pdf = await statementOf(who.token, q(walletOf(coAdmin)));
      expect(pdf.lines).toContainEqual(['Account holder', 'Volta Trading Ltd (Company)']);
    }
  });

  it('another account’s wallet, or no wallet at all, is 404 (never 403); no token is 401', async () => {
    for (const [who, wallet] of [
      [other, owner.id],
      [coUser, owner.id],
      [coAdmin, owner.id],
      [owner, walletOf(coAdmin)],
      [owner, coUser.id], // a company user's own id is not a wallet of theirs
      [owner, crypto.randomUUID()],
      [admin, crypto.randomUUID()],
    ] as const) {
      const res = await getStatement(who.token, q(wallet));
      expect(res.status, `${who.email} → ${wallet}`).toBe(404);
      expect(await res.json()).toEqual({ message: 'The wallet was not found.', error: 'The wallet was not found.' });
    }
    expect((await getStatement(undefined, q(owner.id))).status).toBe(401);
  });
});

describe('bad input', () => {
  const today = () => t.clock.now().toISOString().slice(0, 10);
  const cases: Array<[string, () => Record<string, string | undefined>, string, RegExp]> = [
    ['no wallet', () => ({ start_date: PERIOD.start, end_date: PERIOD.end }), 'wallet', /^Wallet is required$/],
    [
      'a wallet that is not an id',
      () => ({ wallet: 'mine', start_date: PERIOD.start, end_date: PERIOD.end }),
      'wallet',
      /^Enter a valid wallet id$/,
    ],
    ['no start date', () => ({ wallet: owner.id, end_date: PERIOD.end }), 'start_date', /^Start date is required$/],
    [
      'an empty start date',
      () => ({ wallet: owner.id, start_date: '', end_date: PERIOD.end }),
      'start_date',
      /^Start date is required$/,
    ],
    [
      'a start date that is no day',
      () => ({ wallet: owner.id, start_date: '2025-02-30', end_date: PERIOD.end }),
      'start_date',
      /^Start date must be a date such as/,
    ],
    [
      'a start date in another format',
      () => ({ wallet: owner.id, start_date: '01/03/2025', end_date: PERIOD.end }),
      'start_date',
      /^Start date must be a date such as/,
    ],
    [
      'a start date before 1900',
      () => ({ wallet: owner.id, start_date: '0001-01-01', end_date: PERIOD.end }),
      'start_date',
      /^Start date must be a date such as/,
    ],
    ['no end date', () => ({ wallet: owner.id, start_date: PERIOD.start }), 'end_date', /^End date is required$/],
    [
      'an end date that is no day',
      () => ({ wallet: owner.id, start_date: PERIOD.start, end_date: 'tomorrow' }),
      'end_date',
      /^End date must be a date such as/,
    ],
    [
      'an end before the start',
      () => ({ wallet: owner.id, start_date: '2025-03-03', end_date: '2025-03-02' }),
      'end_date',
      /^End date must be on or after the start date$/,
    ],
    [
      'more than 366 days',
      () => ({ wallet: owner.id, start_date: '2024-01-01', end_date: '2025-01-01' }),
      'end_date',
      /^A statement covers at most 366 days/,
    ],
    [
      'a start in the future',
      () => ({ wallet: owner.id, start_date: '2999-01-01', end_date: '2999-01-02' }),
      'start_date',
      /^Start date cannot be in the future$/,
    ],
  ];

  it.each(cases)('%s is a 422 naming the field', async (_what, query, field, message) => {
    const res = await getStatement(owner.token, query());
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { message: string; error: Record<string, string[]> };
    expect(Object.keys(body.error)).toContain(field);
    expect(body.error[field]![0]).toMatch(message);
    expect(body.message).toBe(Object.values(body.error)[0]![0]);
  });

  it('a year of 366 days is allowed, and so is a period ending in the future', async () => {
    expect(
      (await getStatement(owner.token, { wallet: owner.id, start_date: '2024-01-01', end_date: '2024-12-31' })).status,
    ).toBe(200);
    expect(
      (await getStatement(owner.token, { wallet: owner.id, start_date: today(), end_date: '2999-01-01' })).status,
    ).toBe(422); // too long
    const end = new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect((await getStatement(owner.token, { wallet: owner.id, start_date: today(), end_date: end })).status).toBe(
      200,
    );
  });

  it('a period with more movements than a statement lists is a 422 on end_date; the most it lists is fine', async () => {
    const busy = await newIndividual(t);
    const wallet = (await findWallet(t.ctx.db, busy.id))!;
    const source = crypto.randomUUID();
    const prefix = `BSY-${Date.now().toString(36).toUpperCase().slice(-4)}`;
    await t.ctx.db.insert(ledgerAccounts).values({
      id: source,
      kind: 'statement_test_source',
      ownerId: crypto.randomUUID(),
      currency: 'USDT',
      allowNegative: true,
    });
    // 5,000 movements on 2 Jan 2024 and one more on 3 Jan, written straight into the ledger.
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into ledger_transfers (id, kind, reference, meta, created_at)
        select md5(${prefix} || i)::uuid, 'deposit', ${prefix} || lpad(i::text, 6, '0'), '{}'::jsonb,
               case when i <= 5000 then timestamptz '2024-01-02T00:00:00Z' + i * interval '10 seconds' else timestamptz '2024-01-03T12:00:00Z' end
        from generate_series(1, 5001) as g(i)`);
      await tx.execute(sql`
        insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
        select gen_random_uuid(), md5(${prefix} || i)::uuid, acc, sign * 100, sign * (i - 1) * 100, sign * i * 100,
               case when i <= 5000 then timestamptz '2024-01-02T00:00:00Z' + i * interval '10 seconds' else timestamptz '2024-01-03T12:00:00Z' end
        from generate_series(1, 5001) as g(i)
        cross join (values (${wallet.id}::uuid, 1), (${source}::uuid, -1)) as legs(acc, sign)`);
      await tx.execute(sql`update ledger_accounts set balance = 500100 where id = ${wallet.id}`);
      await tx.execute(sql`update ledger_accounts set balance = -500100 where id = ${source}`);
    });
    const tooMany = await getStatement(busy.token, {
      wallet: busy.id,
      start_date: '2024-01-02',
      end_date: '2024-01-03',
    });
    expect(tooMany.status).toBe(422);
    expect(((await tooMany.json()) as { error: Record<string, string[]> }).error.end_date).toEqual([
      'This period has more than 5,000 movements: choose a shorter period',
    ]);
    const started = Date.now();
    const full = await statementOf(busy.token, { wallet: busy.id, start_date: '2024-01-02', end_date: '2024-01-02' });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(movementLines(full.lines)).toHaveLength(5000);
    expect(summaryValue(full.lines, /^Closing balance/)).toBe('USDT 5,000.00');
    expect(full.pages).toBeGreaterThan(50);
    expect(full.text).toContain(`Page ${full.pages} of ${full.pages}`);
  }, 180_000);
});
