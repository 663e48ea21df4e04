import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../server/seed/admin';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  logIn,
  newCompany,
  newIndividual,
  randomIp,
  uniqueEmail,
  verifyByMail,
} from './support/actors';
import { charge, newCard, verifyAccount } from './support/cards';
import { JPEG_1PX, PDF_MINI, PNG_1PX, form } from './support/files';
import { fundWallet } from './support/money';
import { decide, startTopup, topupRow, tronTopupReady } from './support/wallet';
import { parseCsv } from '../support/csv';

/**
 * CSV injection (OWASP): user text in every CSV export reaches staff spreadsheets. Payloads from
 * OWASP's list go in through the API (names, emails, company names, transfer references, card
 * nicknames and cardholders, merchants, reasons, client names); every export must write them
 * with a leading apostrophe, so no cell starts with = + - @ tab or CR unless it is a plain number
 * the server wrote (a negative amount stays "-12.50").
 */

const PAYLOADS = [
  "-2+3+cmd|' /C calc'!A0",
  "=cmd|' /C calc'!A0",
  "+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example/?x=1","Click")',
  '\t=1+1',
  '\r=1+1',
  '=1+1;=2',
  `-3+3+"cmd"|',=1+1`,
] as const;
const [MINUS, EQUALS, PLUS, AT, HYPERLINK, TAB, CR, SEMI, QUOTED] = PAYLOADS;
/** The API trims text fields; what each payload must look like in a cell. */
const NEUTRALISED = PAYLOADS.map((p) => `'${p.trim()}`);

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

let t: TestApp;
let customer: Actor;
let payee: Actor;
let company: Actor;
let staff: Actor;
let cardId: string;

async function exportOf(path: string, token: string) {
  const res = await fetch(`${t.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  expect(res.headers.get('content-type'), path).toMatch(/^text\/csv/);
  const [header, ...rows] = parseCsv(text);
  return { text, header: header!, rows };
}

const multipart = (p: string, token: string, body: FormData) =>
  fetch(`${t.url}/api/v1${p}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
  );

const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r as { status: number; body: any };
};

/** An Individual registered through the API with this email (one a spreadsheet would run). */
async function individualWithEmail(email: string, names: Record<string, string>): Promise<Actor> {
  const ip = randomIp();
  const body = { ...names, email, password: PASSWORD, confirm_password: PASSWORD, phone_number: '+233241112233' };
  await ok(t.api('POST', '/account/individuals/register', { ip, body }), 201);
  await verifyByMail(t, email);
  const s = await logIn(t, email, PASSWORD, undefined, ip);
  return {
    id: s.session.user.id,
    email,
    password: PASSWORD,
    token: s.token,
    secret: s.secret,
    ip,
    session: s.session,
    companyId: null,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  const tag = randomUUID().slice(0, 8);
  // an Individual whose name and email are formulas
  customer = await individualWithEmail(`-2+3+${tag}@example.com`, { first_name: MINUS, last_name: HYPERLINK });
  payee = await newIndividual(t, { first_name: SEMI, last_name: AT });
  company = await newCompany(t);
  const superEmail = `-2+3+super.${tag}@example.com`;
  await createStaff(t.ctx.db, {
    email: superEmail,
    password: PASSWORD,
    role: 'Super-Admin',
    firstName: 'Staff',
    lastName: 'Super',
  });
  const s = await logIn(t, superEmail, PASSWORD);
  staff = {
    id: s.session.user.id,
    email: superEmail,
    password: PASSWORD,
    token: s.token,
    secret: s.secret,
    ip: '10.0.0.1',
    session: s.session,
    companyId: null,
  };
  const C = company.companyId!;
  await fundWallet(t, customer.id, 200_000);

  // user text in through the API
  await ok(
    t.api('PUT', `/companies/${C}`, {
      token: company.token,
      body: { company_name: MINUS, company_website: 'https://volta.example.com', company_phone: '+233302111222' },
    }),
  );
  await ok(
    t.api('POST', `/company/users/${C}`, {
      token: company.token,
      body: {
        first_name: PLUS,
        last_name: QUOTED,
        phone_number: '+233245556677',
        email: uniqueEmail('member'),
        role: 'user',
      },
    }),
    201,
  );
  await ok(
    t.api('POST', '/account/admins', {
      token: staff.token,
      body: {
        first_name: MINUS,
        last_name: SEMI,
        phone_number: '+233241112233',
        email: `+cmd.${randomUUID().slice(0, 8)}@example.com`,
        role: 'admin',
      },
    }),
    201,
  );
  await ok(
    t.api('POST', '/wallet/transfer', {
      token: customer.token,
      body: { wallet_id: payee.id, amount: '12.50', reference: MINUS },
    }),
  );
  await ok(
    t.api('POST', '/wallet/transfer', {
      token: customer.token,
      body: { wallet_id: payee.id, amount: '1.25', reference: TAB },
    }),
  );
  const denied = await tronTopupReady(t, customer, '40.00');
  await ok(decide(t, staff, denied.id, 'deny', MINUS));
  // a mobile-money top-up (its Name is the customer's)
  const momo = await startTopup(t, customer, '15.00', 'momo');
  expect((await topupRow(t, customer, momo.reference)).name).toContain(MINUS);
  const { card } = await newCard(t, customer, { nickname: MINUS, first_name: EQUALS, last_name: PLUS });
  cardId = card.id;
  const paid = await ok(charge(t, staff, card.id, '3.00', MINUS), 201);
  // a dispute of that payment (issue 36): its export carries the card's nickname and the merchant
  const paymentId = paid.body.data.transaction.id as string;
  await ok(t.api('POST', `/sandbox/authorizations/${paymentId}/settle`, { token: staff.token }));
  await ok(
    t.api('POST', `/card-transactions/${paymentId}/disputes`, {
      token: customer.token,
      body: { reason: 'duplicate', amount: '3.00', explanation: EQUALS },
    }),
    201,
  );
  await ok(charge(t, staff, card.id, '2.00', CR), 201);
  await ok(t.api('POST', `/cards/flag/${card.id}`, { token: staff.token, body: { reason: AT } }));

  // verifications: a rejected KYC (reason) and a pending KYB (company name)
  const kyc = form(
    { id_type: 'passport', issued_id: 'G1234567' },
    { address_proof: { data: PDF_MINI, name: 'bill.pdf' }, selfie_image: { data: JPEG_1PX, name: 'me.jpg' } },
  );
  await ok(multipart(`/individuals/kyc/${customer.id}`, customer.token, kyc), 201);
  const pending = await ok(
    t.api('GET', `/verification/get-individuals?state=pending&per_page=100&name=${encodeURIComponent('cmd')}`, {
      token: staff.token,
    }),
  );
  const mine = (pending.body.data as { id: string; account_id: string }[]).find((v) => v.account_id === customer.id)!;
  expect(mine).toBeDefined();
  await ok(
    t.api('POST', '/verification/decide', {
      token: staff.token,
      body: { verification_id: mine.id, decision: 'reject', reason: MINUS },
    }),
  );
  const kyb = form(
    {
      registered_name: MINUS,
      company_profile: HYPERLINK,
      tax_number: 'C0012345',
      incorporation_date: '2015-06-30',
      operation_countries: 'GH, NG',
      publicly_listed: 'false',
    },
    {
      shareholder_passport: { data: PNG_1PX, name: 'passport.png' },
      incorporation_certificate: { data: PDF_MINI, name: 'cert.pdf' },
    },
  );
  const submitted = await multipart(`/company/kyb/${C}`, company.token, kyb);
  expect(submitted.status, JSON.stringify(submitted.body)).toBeLessThan(300);

  // a company-specific fee (its Company column), and API credentials named as a formula
  const defaults = await ok(t.api('GET', '/fees?for=default&per_page=100', { token: staff.token }));
  const load = (defaults.body.data as { id: string; name: string }[]).find((f) => f.name === 'card-load-media')!;
  await ok(
    t.api('PUT', `/fees/${load.id}`, { token: staff.token, body: { value: '1.00', for: 'company', for_id: C } }),
  );
  await verifyAccount(t, company);
  await ok(
    t.api('POST', '/third-party/clients', {
      token: company.token,
      body: { name: MINUS, redirect_uri: null, identifier: C },
    }),
    201,
  );
}, 120_000);
afterAll(() => t.close());

describe('CSV exports neutralise formulas', () => {
  it('write user text that starts a formula with a leading apostrophe in every export, and keep amounts numbers', async () => {
    const C = company.companyId!;
    const A = customer.id;
    const exports: Array<{ path: string; token: string; carries: boolean }> = [
      // the customer's own reports
      { path: `/reports/view-wallet-transactions?format=csv&wallet=${A}`, token: customer.token, carries: true },
      { path: `/reports/view-wallet-transfers?format=csv&wallet=${A}`, token: customer.token, carries: true },
      { path: `/reports/view-wallet-topups?format=csv&wallet=${A}`, token: customer.token, carries: true },
      { path: `/cards/individual/${A}?format=csv`, token: customer.token, carries: true },
      { path: `/reports/view-cards-transactions?format=csv&card=${cardId}`, token: customer.token, carries: true },
      { path: '/fees?format=csv', token: customer.token, carries: false },
      { path: '/disputes?format=csv', token: customer.token, carries: true },
      // the company's
      { path: `/company/users/${C}?format=csv`, token: company.token, carries: true },
      { path: `/fees?format=csv&for=company&for_id=${C}`, token: company.token, carries: true },
      { path: `/cards/company/${C}?format=csv`, token: company.token, carries: false },
      { path: '/third-party/webhook-deliveries?format=csv', token: company.token, carries: false },
      // staff
      { path: '/individuals?format=csv', token: staff.token, carries: true },
      { path: '/companies?format=csv', token: staff.token, carries: true },
      { path: '/verification/get-individuals?format=csv', token: staff.token, carries: true },
      { path: '/verification/get-companies?format=csv', token: staff.token, carries: true },
      { path: '/account/admins?format=csv', token: staff.token, carries: true },
      { path: `/audit-logs?format=csv&actor=${staff.id}`, token: staff.token, carries: true },
      { path: '/cards?format=csv', token: staff.token, carries: true },
      { path: `/cards/individual/${A}?format=csv`, token: staff.token, carries: true },
      { path: '/wallet/list-topups?format=csv', token: staff.token, carries: true },
      { path: '/wallet/list-momo-topups?format=csv', token: staff.token, carries: true },
      { path: `/reports/view-wallet-transactions?format=csv&wallet=${A}`, token: staff.token, carries: true },
      { path: `/reports/view-wallet-transfers?format=csv&wallet=${A}`, token: staff.token, carries: true },
      { path: `/reports/view-wallet-topups?format=csv&wallet=${A}`, token: staff.token, carries: true },
      { path: `/reports/view-cards-transactions?format=csv&card=${cardId}`, token: staff.token, carries: true },
      { path: `/fees?format=csv&for=company&for_id=${C}`, token: staff.token, carries: true },
      { path: '/third-party/clients?format=csv', token: staff.token, carries: true },
      { path: '/disputes?format=csv', token: staff.token, carries: true },
      { path: '/third-party/webhook-deliveries?format=csv', token: staff.token, carries: false },
    ];

    // every GET the OpenAPI document offers as CSV is exported here
    const doc = (await (await fetch(`${t.url}/api/docs/json`)).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    const csvPaths = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get?.parameters?.some((p) => p.in === 'query' && p.name === 'format'))
      .map(([p]) => p.replace(/^\/api\/v1/, '').replace(/\{[^}]+\}/g, '*'));
    const covered = new Set(exports.map((e) => e.path.split('?')[0]!.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '*')));
    expect(csvPaths.length).toBeGreaterThan(10);
    for (const p of csvPaths) expect([...covered], `the export ${p} is checked`).toContain(p);

    const seen = new Set<string>();
    for (const e of exports) {
      const { header, rows, text } = await exportOf(e.path, e.token);
      expect(header.length, e.path).toBeGreaterThan(1);
      for (const row of rows) {
        for (const [i, cell] of row.entries()) {
          const runs = FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell);
          expect(runs, `${e.path} ${header[i]}: ${JSON.stringify(cell)} would run as a formula`).toBe(false);
        }
      }
      const cells = rows.flat();
      const found = NEUTRALISED.filter((n) => cells.some((c) => c.startsWith(n)));
      for (const f of found) seen.add(f);
      if (e.carries)
        expect(
          cells.some((c) => /^'[=+\-@]/.test(c)),
          `${e.path} carries user text that starts a formula, neutralised`,
        ).toBe(true);
      // a cell holding a ; is quoted too, for spreadsheets that split on it
      for (const c of cells.filter((x) => x.includes(';')))
        expect(text, e.path).toContain(`"${c.replace(/"/g, '""')}"`);
    }
    // every payload was met (trimmed: the tab and CR ones arrive as =1+1)
    for (const p of [MINUS, EQUALS, PLUS, AT, HYPERLINK, SEMI, QUOTED]) expect([...seen], p).toContain(`'${p}`);
    expect([...seen]).toContain(`'${TAB.trim()}`);
    expect(CR.trim()).toBe(TAB.trim());
  });

  it('keeps the amounts and balances the server writes as plain numbers', async () => {
    const { header, rows } = await exportOf(
      `/reports/view-wallet-transactions?format=csv&wallet=${customer.id}`,
      customer.token,
    );
    const amount = header.indexOf('Amount');
    const transfer = rows.find((r) => r.includes(`'${MINUS}`))!;
    expect(transfer[header.indexOf('Direction')]).toBe('debit');
    expect(transfer[amount]).toBe('12.50');
    for (const h of ['Balance Before', 'Balance After', 'Total Fees'])
      expect(transfer[header.indexOf(h)]).toMatch(PLAIN_NUMBER);

    const cards = await exportOf(`/cards/individual/${customer.id}?format=csv`, customer.token);
    const row = cards.rows.find((r) => r[cards.header.indexOf('Card Nickname')] === `'${MINUS}`)!;
    expect(row[cards.header.indexOf('Card Name')]).toBe(`'${EQUALS} ${PLUS}`);
    expect(row[cards.header.indexOf('Balance (USD)')]).toMatch(/^\d+\.\d{2}$/);

    const tx = await exportOf(`/reports/view-cards-transactions?format=csv&card=${cardId}`, customer.token);
    const merchant = tx.header.indexOf('Merchant');
    const paid = tx.rows.find((r) => r[merchant] === `'${MINUS}`)!;
    expect(paid[tx.header.indexOf('Amount')]).toMatch(/^-?3\.00$/);
  });
});
