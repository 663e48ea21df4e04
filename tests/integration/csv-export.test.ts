import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@shared/money';
import { ledgerAccounts } from '../../server/db/schema';
import { findWallet } from '../../server/modules/ledger/accounts';
import { type Actor, newCompany, newIndividual, newStaff, uniqueEmail } from './support/actors';
import { type TestApp, startTestApp } from './support/app';

/**
 * CSV exports (`format=csv` on the list endpoints): a customer's wallet report of 50,000 ledger
 * movements written straight into the database streams out in chunks with bounded memory, and
 * matches the report's rows and filters exactly: amounts as exact decimals, dates in ISO 8601.
 */

const N = 50_000;
const BASE = Date.parse('2012-01-01T00:00:00.000Z');
const STEP_MS = 90_000;
const kindOf = (i: number) => (i % 3 === 0 ? 'refund' : 'deposit');
/** The CSV writes each kind by the name both apps show. */
const KIND_NAMES: Record<string, string> = { refund: 'Refund', deposit: 'Wallet Top Up' };
const amountOf = (i: number) => 100 + ((i * 37) % 9973);
const feeOf = (i: number) => i % 5;

let t: TestApp;
let customer: Actor;
let other: Actor;
let admin: Actor;
let superAdmin: Actor;
let company: Actor;
let prefix: string;

/** The movements as this test generates them: reference, kind, amount, balances and time, oldest first. */
function movements() {
  const rows: Array<{
    i: number;
    ref: string;
    kind: string;
    amount: number;
    fee: number;
    before: number;
    after: number;
    at: string;
  }> = [];
  let balance = 0;
  for (let i = 1; i <= N; i++) {
    const amount = amountOf(i);
    rows.push({
      i,
      ref: `${prefix}${String(i).padStart(6, '0')}`,
      kind: kindOf(i),
      amount,
      fee: feeOf(i),
      before: balance,
      after: balance + amount,
      at: new Date(BASE + i * STEP_MS).toISOString(),
    });
    balance += amount;
  }
  return rows;
}

/** A CSV body as rows of cells (the fixtures hold no quoted cells), without the BOM. */
function parse(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((l) => l.length)
    .map((l) => l.split(','));
}

const csvGet = (path: string, token?: string) =>
  fetch(`${t.url}/api/v1${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

beforeAll(async () => {
  t = await startTestApp();
  [customer, other, admin, superAdmin, company] = await Promise.all([
    newIndividual(t),
    newIndividual(t),
    newStaff(t, 'Admin'),
    newStaff(t, 'Super-Admin'),
    newCompany(t),
  ]);
  prefix = `CSV${Date.now().toString(36).toUpperCase()}-`;
  const wallet = (await findWallet(t.ctx.db, customer.id))!;
  // A source account of this test's own, standing for money from outside (may go negative).
  const source = crypto.randomUUID();
  await t.ctx.db.insert(ledgerAccounts).values({
    id: source,
    kind: 'csv_test_source',
    ownerId: crypto.randomUUID(),
    currency: 'USDT',
    allowNegative: true,
  });
  const base = new Date(BASE).toISOString();
  const total = movements().reduce((s, m) => s + m.amount, 0);
  // One transaction: the ledger's guards check the entries against the balances at commit.
  await t.ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into ledger_transfers (id, kind, reference, description, meta, created_at)
      select md5(${prefix} || i)::uuid, case when i % 3 = 0 then 'refund' else 'deposit' end, ${prefix} || lpad(i::text, 6, '0'),
             'CSV load test', jsonb_build_object('fees_total', i % 5), ${base}::timestamptz + i * interval '90 seconds'
      from generate_series(1, ${N}) as g(i)`);
    await tx.execute(sql`
      insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
      select gen_random_uuid(), md5(${prefix} || i)::uuid, acc, sign * amount, sign * (run - amount), sign * run, ${base}::timestamptz + i * interval '90 seconds'
      from (
        select i, (100 + (i * 37) % 9973)::bigint as amount, sum((100 + (i * 37) % 9973)::bigint) over (order by i) as run
        from generate_series(1, ${N}) as g(i)
      ) m
      cross join (values (${wallet.id}::uuid, 1), (${source}::uuid, -1)) as legs(acc, sign)`);
    await tx.execute(sql`update ledger_accounts set balance = ${total} where id = ${wallet.id}`);
    await tx.execute(sql`update ledger_accounts set balance = ${-total} where id = ${source}`);
  });
}, 300_000);

afterAll(async () => {
  await t?.close();
});

describe('CSV export of a large report', () => {
  it('streams 50,000 rows in chunks with bounded memory, every row as the ledger holds it', async () => {
    (globalThis as { gc?: () => void }).gc?.();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    const res = await csvGet(`/reports/view-wallet-transactions?wallet=${customer.id}&format=csv`, customer.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="wallet-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers.get('content-length')).toBeNull(); // streamed, not buffered

    // Read it as a client would, line by line, keeping only what the checks need.
    const want = movements().reverse(); // newest first, as the report lists them
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    let chunks = 0;
    let rest = '';
    let line = -1;
    let mismatches = 0;
    let firstMismatch = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks++;
      peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      rest += decoder.decode(value, { stream: true });
      const lines = rest.split('\r\n');
      rest = lines.pop()!;
      for (const l of lines) {
        if (line === -1) {
          expect(l.replace(/^\uFEFF/, '')).toBe(
            'Reference,Transaction Type,Direction,Amount,Total Fees,Associated Card,Description,Balance Before,Balance After,Date',
          );
        } else {
          const m = want[line]!;
          const expected = [
            m.ref,
            KIND_NAMES[m.kind],
            'credit',
            formatMoney(m.amount),
            formatMoney(m.fee),
            '',
            'CSV load test',
            formatMoney(m.before),
            formatMoney(m.after),
            m.at,
          ].join(',');
          if (l !== expected) {
            mismatches++;
            firstMismatch ||= `row ${line}: ${l} != ${expected}`;
          }
        }
        line++;
      }
    }
    expect(rest).toBe('');
    expect(firstMismatch).toBe('');
    expect(mismatches).toBe(0);
    expect(line).toBe(N);
    // Many chunks arrived (the server wrote batches as it read them), and memory stayed far below
    // what holding 50,000 rows as objects would take.
    expect(chunks).toBeGreaterThan(10);
    expect(peak).toBeLessThan(96 * 1024 * 1024);
  });

  it("honours the report's filters: type and inclusive UTC days, the same rows as the paged report", async () => {
    const q = `wallet=${customer.id}&type=refund&start_date=2012-01-10&end_date=2012-02-05`;
    const res = await csvGet(`/reports/view-wallet-transactions?${q}&format=csv`, customer.token);
    expect(res.status).toBe(200);
    const rows = parse(await res.text());
    const from = Date.parse('2012-01-10T00:00:00.000Z');
    const to = Date.parse('2012-02-06T00:00:00.000Z');
    const want = movements()
      .filter((m) => m.kind === 'refund' && Date.parse(m.at) >= from && Date.parse(m.at) < to)
      .reverse();
    expect(want.length).toBeGreaterThan(1000);
    expect(rows.length - 1).toBe(want.length);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[3], r[7], r[8], r[9]])).toEqual(
      want.map((m) => [m.ref, 'Refund', formatMoney(m.amount), formatMoney(m.before), formatMoney(m.after), m.at]),
    );
    // Every amount is an exact decimal with two places; every date ISO 8601 in UTC.
    for (const r of rows.slice(1)) {
      expect(r[3]).toMatch(/^\d+\.\d{2}$/);
      expect(r[9]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    // The same set as the JSON report with the same filters.
    const json = await t.api('GET', `/reports/view-wallet-transactions?${q}&per_page=100`, { token: customer.token });
    expect(json.body.total).toBe(want.length);
    expect(json.body.data.map((r: { trans_ref: string }) => r.trans_ref)).toEqual(want.slice(0, 100).map((m) => m.ref));
  });

  it('includes the first and the last instant of the range and nothing outside', async () => {
    // Movement i is at BASE + 90 s × i: 2012-01-02T00:00:00.000Z is i = 960, the start of that day.
    const res = await csvGet(
      `/reports/view-wallet-transactions?wallet=${customer.id}&start_date=2012-01-02&end_date=2012-01-02&format=csv`,
      customer.token,
    );
    const rows = parse(await res.text()).slice(1);
    expect(rows.length).toBe(960);
    expect(rows[rows.length - 1]![9]).toBe('2012-01-02T00:00:00.000Z');
    expect(rows[0]![9]).toBe('2012-01-02T23:58:30.000Z');
  });

  it("never exports another customer's wallet, and asks for a sign-in", async () => {
    expect(
      (await csvGet(`/reports/view-wallet-transactions?wallet=${customer.id}&format=csv`, other.token)).status,
    ).toBe(404);
    expect((await csvGet(`/reports/view-wallet-transactions?wallet=${customer.id}&format=csv`)).status).toBe(401);
    // Staff may export any wallet's report.
    const staff = await csvGet(
      `/reports/view-wallet-transactions?wallet=${customer.id}&type=refund&start_date=2012-01-01&end_date=2012-01-01&format=csv`,
      admin.token,
    );
    expect(staff.status).toBe(200);
    expect(parse(await staff.text()).length - 1).toBe(
      movements().filter((m) => m.kind === 'refund' && m.at < '2012-01-02').length,
    );
  });
});

describe('CSV exports added for the back-office lists', () => {
  it('audit trail: Super-Admin only, filtered like the list', async () => {
    expect((await csvGet('/audit-logs?format=csv', admin.token)).status).toBe(403);
    const emails = [uniqueEmail('csvadmin'), uniqueEmail('csvadmin')];
    for (const email of emails) {
      const made = await t.api('POST', '/account/admins', {
        token: superAdmin.token,
        body: { first_name: 'Csv', last_name: 'Admin', email, phone_number: '+233241234567', role: 'admin' },
      });
      expect(made.status).toBe(201);
    }
    const one = parse(
      await (
        await csvGet(
          `/audit-logs?format=csv&action=admin.create&object_id=${encodeURIComponent(emails[0]!)}`,
          superAdmin.token,
        )
      ).text(),
    );
    expect(one.length - 1).toBe(1);
    expect(one[1]![4]).toBe('admin.create');
    expect(one[1]![6]).toBe(emails[0]);
    const res = await csvGet('/audit-logs?format=csv&action=admin.create', superAdmin.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await res.text();
    const rows = text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(rows[0]).toBe('Date,Actor Id,Actor Email,Actor Role,Action,Object Type,Object Id,Status,IP,Details');
    // Only that action (other files may add some of their own on a shared PostgreSQL).
    expect(rows.length - 1).toBeGreaterThanOrEqual(2);
    for (const r of rows.slice(1)) {
      expect(r).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,/);
      expect(r.split(',')[4]).toBe('admin.create');
    }
  });

  it('third-party clients (staff) and webhook deliveries (staff and the Company-Admin)', async () => {
    const clients = await csvGet('/third-party/clients?format=csv', admin.token);
    expect(clients.status).toBe(200);
    expect((await clients.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'Name,Client Id,Company Id,Company,State,Last Used,Callback Url,Webhook Health,Last Webhook Status,Failed Events,Pending Events,Created,Last Modified',
    );
    const deliveries = await csvGet('/third-party/webhook-deliveries?format=csv', company.token);
    expect(deliveries.status).toBe(200);
    expect((await deliveries.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'Message Id,Type,State,Attempts,Last Status Code,Last Error,Next Attempt,Delivered,Created',
    );
    expect((await csvGet('/third-party/webhook-deliveries?format=csv', customer.token)).status).toBe(403);
    const staffDeliveries = await csvGet('/third-party/webhook-deliveries?format=csv', admin.token);
    expect(staffDeliveries.status).toBe(200);
    await staffDeliveries.text();
  });

  it('a refusal of an export is a whole error answer, never a CSV cut off after its 200', async () => {
    // No such company (staff) and not one's own company (a customer): the list's own 404, in the one error shape.
    for (const [path, token] of [
      [`/company/users/${randomUUID()}?format=csv`, superAdmin.token],
      [`/company/users/${randomUUID()}?format=csv`, company.token],
    ] as const) {
      const res = await csvGet(path, token);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()).message).toEqual(expect.any(String));
    }
    const own = await csvGet(`/company/users/${company.companyId}?format=csv`, company.token);
    expect(own.status).toBe(200);
    expect((await own.text()).replace(/^\uFEFF/, '').split('\r\n')[1]).toContain(company.email);
  });
});
