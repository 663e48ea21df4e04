import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementSource } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { auditLog, ledgerAccounts, statementItems } from '../../server/db/schema';
import { PLATFORM } from '../../server/modules/ledger/accounts';
import { DEFAULT_SOURCES } from '../../server/modules/statements/sources';
import { type Actor, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { form } from './support/files';

let t: TestApp;
let finance: Actor;
const SLOW = 120_000;

beforeAll(async () => {
  t = await startTestApp();
  finance = await newStaff(t, 'Finance');
  // Sources are shared settings: each test file starts from what it sets.
  for (const source of ['chain', 'momo'] as const) {
    const d = DEFAULT_SOURCES[source];
    const r = await t.api('PUT', `/statement-sources/${source}`, {
      token: finance.token,
      body: { mapping: d.mapping, rules: { ...d.rules, tolerance: formatMoney(d.rules.tolerance) } },
    });
    expect(r.status).toBe(200);
  }
});
afterAll(() => t.close());

const DAY = 86_400_000;
const hex = (n: number) => randomBytes(n).toString('hex');
const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);
/** A day of its own in the past, far from the other files' movements (which are at the clock's now). */
const ownDay = () => Date.UTC(1995, 0, 1) + randomInt(0, 9000) * DAY;

interface Planted {
  reference: string;
  /** cents, positive: money into the platform */
  amount: number;
  at: number;
  hash?: string;
}

/**
 * Posts movements on a platform account against an account of the test's own, through the ledger's one
 * writer (cw_post_transfers), 500 transfers a call: a deposit debits the platform account that stands
 * for the outside world, as a credited top-up does.
 */
async function postMovements(account: string, list: Planted[]) {
  const other = randomUUID();
  await t.ctx.db
    .insert(ledgerAccounts)
    .values({ id: other, kind: 'statement_test', ownerId: randomUUID(), currency: 'USDT', allowNegative: true });
  const arr = (type: string, values: unknown[]) =>
    sql`array[${sql.join(
      values.map((v) => sql`${v}::${sql.raw(type)}`),
      sql`, `,
    )}]`;
  await t.ctx.db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(sql`${ledgerAccounts.id} in (${account}, ${other})`)
      .orderBy(ledgerAccounts.id)
      .for('update');
    const balance = new Map(locked.map((a) => [a.id, a.balance]));
    for (let i = 0; i < list.length; i += 500) {
      const chunk = list.slice(i, i + 500);
      const ids = chunk.map(() => randomUUID());
      const entries = chunk.flatMap((m, k) => [
        { transfer: k + 1, account, amount: -m.amount },
        { transfer: k + 1, account: other, amount: m.amount },
      ]);
      await tx.execute(
        sql`select cw_post_transfers(${sql.join(
          [
            arr('uuid', ids),
            arr(
              'text',
              chunk.map(() => 'deposit'),
            ),
            arr(
              'text',
              chunk.map((m) => m.reference),
            ),
            arr(
              'text',
              chunk.map(() => 'Statement test deposit'),
            ),
            arr(
              'jsonb',
              chunk.map((m) => JSON.stringify(m.hash ? { transaction_hash: m.hash } : {})),
            ),
            arr(
              'uuid',
              chunk.map(() => null),
            ),
            arr(
              'timestamptz',
              chunk.map((m) => iso(m.at)),
            ),
            arr(
              'uuid',
              entries.map(() => randomUUID()),
            ),
            arr(
              'int',
              entries.map((e) => e.transfer),
            ),
            arr(
              'uuid',
              entries.map((e) => e.account),
            ),
            arr(
              'bigint',
              entries.map((e) => e.amount),
            ),
            arr('uuid', [account, other]),
            arr('bigint', [balance.get(account)!, balance.get(other)!]),
          ],
          sql`, `,
        )})`,
      );
      for (const e of entries) balance.set(e.account, balance.get(e.account)! + e.amount);
    }
  });
}

async function upload(
  source: StatementSource,
  csv: string,
  fields: Record<string, string> = {},
  who: Actor = finance,
  name = 'statement.csv',
) {
  const res = await fetch(`${t.url}/api/v1/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}` },
    body: form({ source, ...fields }, { file: { data: Buffer.from(csv), name, type: 'text/csv' } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const lines = async (id: string, query = '') => {
  const all: any[] = [];
  for (let page = 1; ; page++) {
    const r = await t.api('GET', `/statements/${id}/lines?per_page=100&page=${page}${query}`, { token: finance.token });
    expect(r.status).toBe(200);
    all.push(...r.body.data);
    if (page >= r.body.last_page) return all;
  }
};

/** A TronGrid export: value in millionths of USDT, with some millionths below a cent as the chain carries them. */
const tronCsv = (rows: Array<{ hash: string; at: number; cents: number }>) =>
  [
    'transaction_id,block_timestamp,from,to,value',
    ...rows.map(
      (r) =>
        `${r.hash},${r.at},TXsender${hex(4)},TXours${hex(4)},${BigInt(r.cents) * 10_000n + BigInt(randomInt(0, 10_000))}`,
    ),
  ].join('\n');

const momoCsv = (rows: Array<{ at: number; cents: number; reference: string }>) =>
  ['date,reference,amount', ...rows.map((r) => `${iso(r.at)},${r.reference},${formatMoney(r.cents)}`)].join('\n');

describe('POST /statements: a TronGrid export of 10,000 lines with three planted mismatches', () => {
  it('reports exactly those three, in under 10 seconds; the same file again changes nothing', {
    timeout: SLOW,
  }, async () => {
    const day = ownDay();
    const movements: Planted[] = Array.from({ length: 10_000 }, (_, i) => ({
      reference: `TST-${hex(6).toUpperCase()}`,
      amount: randomInt(100, 500_000),
      at: day + 1_800_000 + i * 8_000,
      hash: hex(32),
    }));
    await postMovements(PLATFORM.tronDeposits, movements);
    const off = movements[100]!;
    const notOnTheirs = movements[200]!;
    const notInOurs = { hash: hex(32), at: day + 3_600_000, cents: 12_345 };
    const rows = movements
      .filter((m) => m !== notOnTheirs)
      .map((m) => ({
        hash: m.hash!,
        at: m.at + randomInt(0, 60_000),
        cents: m === off ? m.amount + 500 : m.amount,
      }));
    rows.splice(5_000, 0, notInOurs);
    expect(rows).toHaveLength(10_000);
    const csv = tronCsv(rows);

    const started = performance.now();
    const r = await upload('chain', csv, { start_date: dayOf(day), end_date: dayOf(day) });
    const took = performance.now() - started;
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(took).toBeLessThan(10_000);
    const s = r.body.data;
    expect(s).toMatchObject({
      lines: 10_000,
      existing: false,
      counts: { matched: 9_998, missing_ours: 2, missing_theirs: 1, open: 3 },
    });

    const open = await lines(s.id, '&open=true');
    expect(open).toHaveLength(3);
    const ours = open.filter((l) => l.status === 'missing_ours');
    expect(ours.map((l) => l.reference).sort()).toEqual([off.hash, notInOurs.hash].sort());
    const amountOff = ours.find((l) => l.reference === off.hash)!;
    expect(amountOff.ledger).toEqual([
      expect.objectContaining({ reference: off.reference, amount: formatMoney(off.amount) }),
    ]);
    expect(amountOff.reason).toContain('the amounts differ by 5.00');
    expect(ours.find((l) => l.reference === notInOurs.hash)!.ledger).toEqual([]);
    const theirs = open.filter((l) => l.status === 'missing_theirs');
    expect(theirs).toEqual([
      expect.objectContaining({
        line: null,
        reference: notOnTheirs.reference,
        amount: formatMoney(notOnTheirs.amount),
      }),
    ]);
    const matched = await t.api('GET', `/statements/${s.id}/lines?status=matched&per_page=5`, { token: finance.token });
    expect(matched.body.total).toBe(9_998);
    expect(matched.body.data[0].ledger).toHaveLength(1);

    // The same bytes again: the same statement, nothing new written.
    const again = await upload('chain', csv, { start_date: dayOf(day), end_date: dayOf(day) });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: s.id, existing: true, counts: s.counts });
    const [{ n }] = (await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(statementItems)
      .where(eq(statementItems.statementId, s.id))) as [{ n: number }];
    expect(n).toBe(10_001);
    const list = await t.api('GET', '/statements?source=chain&per_page=100', { token: finance.token });
    expect(list.body.data.filter((x: { content_hash: string }) => x.content_hash === s.content_hash)).toHaveLength(1);
  });
});

describe('matching rules', () => {
  /** Momo movements on a day of their own, and a statement of them. */
  async function momoDay(amounts: number[]) {
    const day = ownDay();
    const ms = amounts.map((amount, i) => ({
      reference: `TOP-${hex(5).toUpperCase()}`,
      amount,
      at: day + 36_000_000 + i * 60_000,
    }));
    await postMovements(PLATFORM.momoDeposits, ms);
    return { day, ms, period: { start_date: dayOf(day), end_date: dayOf(day) } };
  }
  const rules = (r: Partial<{ tolerance: string; window_hours: number; reference: string; one_to_many: boolean }>) =>
    JSON.stringify({ tolerance: '0.00', window_hours: 24, reference: 'off', one_to_many: false, ...r });

  it('amount: within the tolerance matches, beyond it does not', async () => {
    const { ms, period } = await momoDay([10_000]);
    const csv = momoCsv([{ at: ms[0]!.at, cents: 10_050, reference: 'x' }]);
    const within = await upload('momo', csv, { ...period, rules: rules({ tolerance: '0.50' }) });
    expect(within.body.data.counts).toMatchObject({ matched: 1, missing_ours: 0, missing_theirs: 0 });
    const beyond = await upload('momo', `${csv}\n`, { ...period, rules: rules({ tolerance: '0.49' }) });
    expect(beyond.status).toBe(201);
    expect(beyond.body.data.counts).toMatchObject({ matched: 0, missing_ours: 1, missing_theirs: 1 });
  });

  it('time: within the window matches, outside it does not', async () => {
    const { ms, period } = await momoDay([2_500]);
    const csv = momoCsv([{ at: ms[0]!.at + 30 * 3_600_000, cents: 2_500, reference: 'x' }]);
    const inside = await upload('momo', csv, { ...period, rules: rules({ window_hours: 36 }) });
    expect(inside.body.data.counts).toMatchObject({ matched: 1, missing_theirs: 0 });
    const outside = await upload('momo', `${csv}\n`, { ...period, rules: rules({ window_hours: 24 }) });
    expect(outside.body.data.counts).toMatchObject({ matched: 0, missing_ours: 1, missing_theirs: 1 });
  });

  it('reference contains: the line whose reference carries ours takes that movement, not its twin', async () => {
    const { ms, period } = await momoDay([7_000, 7_000]);
    const csv = momoCsv([
      { at: ms[0]!.at, cents: 7_000, reference: `"Payment ${ms[1]!.reference} received"` },
      { at: ms[0]!.at, cents: 7_000, reference: 'Payment 998877 received' },
    ]);
    const r = await upload('momo', csv, { ...period, rules: rules({ reference: 'contains' }) });
    expect(r.body.data.counts).toMatchObject({ matched: 1, missing_ours: 1, missing_theirs: 1 });
    const all = await lines(r.body.data.id);
    expect(all.find((l) => l.line === 2).ledger[0].reference).toBe(ms[1]!.reference);
    expect(all.find((l) => l.status === 'missing_theirs').reference).toBe(ms[0]!.reference);
    // With the rule off, the amounts and times alone match both.
    const off = await upload('momo', `${csv}\n`, { ...period, rules: rules({ reference: 'off' }) });
    expect(off.body.data.counts).toMatchObject({ matched: 2, missing_ours: 0, missing_theirs: 0 });
  });

  it('one-to-many: one line against two movements summing to it, and two lines against one movement', async () => {
    const { ms, period } = await momoDay([1_000, 2_000, 1_200]);
    const csv = momoCsv([
      { at: ms[1]!.at, cents: 3_000, reference: 'batch' },
      { at: ms[2]!.at, cents: 500, reference: 'part 1' },
      { at: ms[2]!.at, cents: 700, reference: 'part 2' },
    ]);
    const without = await upload('momo', csv, { ...period, rules: rules({ one_to_many: false }) });
    expect(without.body.data.counts).toMatchObject({ matched: 0, missing_ours: 3, missing_theirs: 3 });
    const grouped = await upload('momo', `${csv}\n`, { ...period, rules: rules({ one_to_many: true }) });
    expect(grouped.body.data.counts).toMatchObject({ matched: 3, missing_ours: 0, missing_theirs: 0 });
    const all = await lines(grouped.body.data.id);
    expect(all[0].ledger.map((m: { reference: string }) => m.reference).sort()).toEqual(
      [ms[0]!.reference, ms[1]!.reference].sort(),
    );
    expect(all[1].ledger[0].reference).toBe(ms[2]!.reference);
    expect(all[2].ledger[0].reference).toBe(ms[2]!.reference);
  });
});

describe('a source’s mapping', () => {
  it('is kept per source and read on the next upload: semicolons, day-first dates, decimal commas, a direction column', async () => {
    const day = ownDay();
    const m = { reference: `TOP-${hex(5).toUpperCase()}`, amount: 123_456, at: day + 43_200_000 };
    await postMovements(PLATFORM.momoDeposits, [m]);
    const d = new Date(m.at);
    const when = `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()} 12:00`;
    const put = await t.api('PUT', '/statement-sources/momo', {
      token: finance.token,
      body: {
        mapping: {
          delimiter: ';',
          date_column: 'Value date',
          date_format: 'dd/mm/yyyy',
          amount_column: 'Amount',
          amount_scale: null,
          decimal_separator: ',',
          sign: 'direction',
          direction_column: 'Type',
          in_values: ['CR'],
          reference_column: 'Narrative',
        },
        rules: { tolerance: '0.00', window_hours: 2, reference: 'contains', one_to_many: false },
      },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const got = await t.api('GET', '/statement-sources/momo', { token: finance.token });
    expect(got.body.data.mapping.date_column).toBe('Value date');
    expect(got.body.data.updated_at).not.toBeNull();
    const csv = `Value date;Narrative;Type;Amount\n${when};Deposit ${m.reference};CR;1.234,56\n`;
    const r = await upload('momo', csv, { start_date: dayOf(day), end_date: dayOf(day) });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data.counts).toMatchObject({ matched: 1, missing_ours: 0, missing_theirs: 0 });
    // Back to the defaults for the other tests of this file.
    const dm = DEFAULT_SOURCES.momo;
    await t.api('PUT', '/statement-sources/momo', {
      token: finance.token,
      body: { mapping: dm.mapping, rules: { ...dm.rules, tolerance: '0.00' } },
    });
  });

  it('refuses a direction sign without its column, on the field', async () => {
    const r = await t.api('PUT', '/statement-sources/issuer', {
      token: finance.token,
      body: {
        mapping: { ...DEFAULT_SOURCES.issuer.mapping, sign: 'direction', direction_column: null },
        rules: { ...DEFAULT_SOURCES.issuer.rules, tolerance: '0.00' },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error).toHaveProperty(['mapping.direction_column']);
  });
});

describe('resolving an unmatched item', () => {
  it('takes a note, once, is audited, and leaves matched lines alone', async () => {
    const day = ownDay();
    const m = { reference: `TOP-${hex(5).toUpperCase()}`, amount: 4_200, at: day + 40_000_000 };
    await postMovements(PLATFORM.momoDeposits, [m]);
    const csv = momoCsv([
      { at: m.at, cents: 4_200, reference: m.reference },
      { at: m.at, cents: 999, reference: 'OP-UNKNOWN-1' },
    ]);
    const s = (await upload('momo', csv, { start_date: dayOf(day), end_date: dayOf(day) })).body.data;
    expect(s.counts).toMatchObject({ matched: 1, missing_ours: 1, open: 1 });
    const [open] = await lines(s.id, '&status=missing_ours');
    const path = `/statements/${s.id}/lines/${open.id}/resolve`;
    expect((await t.api('POST', path, { token: finance.token, body: { note: ' ' } })).status).toBe(422);
    const done = await t.api('POST', path, {
      token: finance.token,
      body: { note: 'Operator reversed it on the next day.' },
    });
    expect(done.status).toBe(200);
    expect(done.body.data.resolved).toMatchObject({ note: 'Operator reversed it on the next day.', by: finance.email });
    expect((await t.api('POST', path, { token: finance.token, body: { note: 'again' } })).status).toBe(409);
    const [matched] = await lines(s.id, '&status=matched');
    const m2 = await t.api('POST', `/statements/${s.id}/lines/${matched.id}/resolve`, {
      token: finance.token,
      body: { note: 'x' },
    });
    expect(m2.status).toBe(409);
    expect((await t.api('GET', `/statements/${s.id}`, { token: finance.token })).body.data.counts.open).toBe(0);
    const audit = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'statement.resolve'), eq(auditLog.objectId, open.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ note: 'Operator reversed it on the next day.' });
    const uploaded = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'statement.upload'), eq(auditLog.objectId, s.id)));
    expect(uploaded).toHaveLength(1);
    const unknown = await t.api('POST', `/statements/${s.id}/lines/${randomUUID()}/resolve`, {
      token: finance.token,
      body: { note: 'x' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('roles', () => {
  it('Finance and the Super-Admin upload and resolve; readers read; others are refused', async () => {
    const [support, admin, auditor, superAdmin] = await Promise.all([
      newStaff(t, 'Support'),
      newStaff(t, 'Admin'),
      newStaff(t, 'Auditor'),
      newStaff(t, 'Super-Admin'),
    ]);
    const csv = momoCsv([{ at: ownDay(), cents: 100, reference: `R-${hex(6)}` }]);
    expect((await upload('momo', csv, {}, admin)).status).toBe(403);
    expect((await upload('momo', csv, {}, auditor)).status).toBe(403);
    const ok = await upload('momo', csv, {}, superAdmin);
    expect(ok.status).toBe(201);
    expect((await t.api('GET', '/statements', { token: support.token })).status).toBe(403);
    expect((await t.api('GET', '/statements', { token: auditor.token })).status).toBe(200);
    expect((await t.api('GET', `/statements/${ok.body.data.id}/lines`, { token: admin.token })).status).toBe(200);
    const [line] = await lines(ok.body.data.id, '&open=true');
    const resolve = (who: Actor) =>
      t.api('POST', `/statements/${ok.body.data.id}/lines/${line.id}/resolve`, {
        token: who.token,
        body: { note: 'n' },
      });
    expect((await resolve(auditor)).status).toBe(403);
    expect((await resolve(admin)).status).toBe(403);
    expect((await resolve(superAdmin)).status).toBe(200);
    const put = await t.api('PUT', '/statement-sources/chain', { token: admin.token, body: {} });
    expect(put.status).toBe(403);
  });
});

describe('bad input', () => {
  it('a missing column names the line and the column', async () => {
    const r = await upload('chain', 'transaction_id,when,value\nabc,1,2\n');
    expect(r.status).toBe(422);
    expect(r.body.error.file).toEqual(['Line 1: the date column "block_timestamp" is missing from the header']);
  });

  it('unparsable amounts and dates name each line and column', async () => {
    const csv = [
      'transaction_id,block_timestamp,from,to,value',
      `${hex(32)},1700000000000,a,b,12.5`,
      `${hex(32)},yesterday,a,b,100`,
    ].join('\r\n');
    const r = await upload('chain', csv);
    expect(r.status).toBe(422);
    expect(r.body.error.file).toEqual([
      'Line 2, column "value": "12.5" is not an amount',
      'Line 3, column "block_timestamp": "yesterday" is not a date in the format unix_ms',
    ]);
  });

  it('no file, an empty file, an unknown source, a bad period, bad rules: each on its field', async () => {
    const noFile = await fetch(`${t.url}/api/v1/statements`, {
      method: 'POST',
      headers: { authorization: `Bearer ${finance.token}` },
      body: form({ source: 'chain' }, {}),
    });
    expect(noFile.status).toBe(422);
    expect(((await noFile.json()) as any).error.file).toEqual(['Choose a CSV file']);
    expect((await upload('chain', 'transaction_id,block_timestamp,value\n')).body.error.file).toEqual([
      'The file has a header but no lines',
    ]);
    const source = await upload('bank' as StatementSource, 'a\n1');
    expect(source.status).toBe(422);
    expect(source.body.error).toHaveProperty('source');
    const period = await upload('chain', 'x', { start_date: '2026-02-10', end_date: '2026-02-01' });
    expect(period.body.error).toHaveProperty('end_date');
    const badRules = await upload('chain', 'x', { rules: '{"tolerance":"-1"}' });
    expect(badRules.status).toBe(422);
    const json = await t.api('POST', '/statements', { token: finance.token, body: { source: 'chain' } });
    expect(json.status).toBe(415);
    const lineQuery = await t.api('GET', `/statements/${randomUUID()}/lines?status=lost`, { token: finance.token });
    expect(lineQuery.status).toBe(422);
    expect((await t.api('GET', `/statements/${randomUUID()}`, { token: finance.token })).status).toBe(404);
  });
});
