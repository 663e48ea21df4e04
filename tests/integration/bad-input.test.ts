import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, newCompany, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { newCard, verifyAccount } from './support/cards';
import { JPEG_1PX, PDF_MINI, form } from './support/files';
import { fundWallet } from './support/money';
import { walletOf } from './support/wallet';

/**
 * Bad input is never a 500: whatever a caller puts in a query string (NUL bytes, huge or negative
 * numbers, repeated or bracketed keys, any unicode, broken percent-encoding, impossible dates), every
 * GET of the OpenAPI document answers below 500, and every refusal is the one JSON error shape.
 */

type Param = { in: string; name: string; schema?: { enum?: unknown[]; anyOf?: Array<{ enum?: unknown[] }> } };
type Doc = { paths: Record<string, Record<string, { parameters?: Param[] }>> };

let t: TestApp;
let doc: Doc;
const actors: Record<string, Actor> = {};

beforeAll(async () => {
  t = await startTestApp();
  doc = (await (await fetch(`${t.url}/api/docs/json`)).json()) as Doc;
  const [superAdmin, admin, individual, company] = await Promise.all([
    newStaff(t, 'Super-Admin'),
    newStaff(t, 'Admin'),
    newIndividual(t),
    newCompany(t),
  ]);
  Object.assign(actors, { 'Super-Admin': superAdmin, Admin: admin, Individual: individual, 'Company-Admin': company });
  // Something to find, so filters run over rows and not only over empty tables.
  for (const a of [individual, company]) {
    await verifyAccount(t, a);
    await fundWallet(t, walletOf(a), 50_000);
    await newCard(t, a);
  }
}, 120_000);
afterAll(() => t?.close());

/** Each path parameter as the actor would fill it: an id of their own (staff: a customer's). */
function idFor(name: string, path: string, actor: Actor): string {
  const company = actors['Company-Admin']!;
  const individual = actors.Individual!;
  const customer =
    actor.session.user.role === 'Admin' || actor.session.user.role === 'Super-Admin'
      ? path.includes('individual')
        ? individual
        : company
      : actor;
  if (name === 'companyId' || path.includes('/company/')) return customer.companyId ?? company.companyId!;
  return walletOf(customer);
}

const SPECIAL = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e308',
  '-1e308',
  '9'.repeat(40),
  '-9007199254740993',
  'NaN',
  'Infinity',
  '0x10',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '[object Object]',
  "'; drop table users; --",
  '%',
  '\\',
  '..',
  '2024-02-30',
  '2024-13-01',
  '0000-00-00',
  '99999-01-01',
  '-0001-01-01',
  '2024-01-01T25:61:00Z',
  '1970-01-01',
  '9999-12-31',
  'yesterday',
  '2024-1-1',
  '20240101',
  '2024-01-01 00:00',
  '00000000-0000-0000-0000-000000000000',
  'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  'x'.repeat(3000),
  '\u0000',
  'a\u0000b',
  '\u202e\u0301é\ud83d\ude00',
];
/** Percent-encodings no decoder accepts: sent as they are. */
const BROKEN = ['%', '%zz', '%00', '%C0%80', '%ED%A0%80', '%FF', '%E2%82', '%%', '%0'];

/** percent-encodes a JS string, lone surrogates too (as the bytes of an unpaired surrogate). */
const enc = (s: string) =>
  [...s].map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch))).join('');

const enumsOf = (p: Param) =>
  [...(p.schema?.enum ?? []), ...(p.schema?.anyOf ?? []).flatMap((s) => s.enum ?? [])].map(String);

const text = (p: Param) =>
  fc.oneof(
    fc.constantFrom(...SPECIAL),
    ...(enumsOf(p).length ? [fc.constantFrom(...enumsOf(p))] : []),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ maxLength: 8 }).map((s) => `${s}\u0000${s}`),
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map(String),
    fc.double().map(String),
    fc.uuid(),
    fc
      .tuple(fc.date({ noInvalidDate: true }), fc.constantFrom(10, 19, 24))
      .map(([d, n]) => d.toISOString().slice(0, n)),
  );

/** What one query parameter becomes on the wire: pairs of raw (already encoded) key and value. */
const sent = (p: Param) =>
  fc.oneof(
    text(p).map((v) => [`${p.name}=${enc(v)}`]),
    fc.constantFrom(...BROKEN).map((v) => [`${p.name}=${v}`]),
    // an array: the key repeated
    fc.array(text(p), { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v) => `${p.name}=${enc(v)}`)),
    // an "object": a bracketed key
    fc
      .tuple(fc.constantFrom('', 'a', '0', '__proto__', 'constructor'), text(p))
      .map(([k, v]) => [`${p.name}[${k}]=${enc(v)}`]),
  );

/** Keys no route declares, some aimed at prototype pollution. */
const EXTRA = fc.constantFrom(
  [],
  ['__proto__=x'],
  ['constructor=x'],
  ['toString=x'],
  ['__proto__[polluted]=1'],
  ['%00=1'],
  ['=1'],
  ['&&'],
);

/** A whole query string, raw: each documented parameter absent or sent in one of the ways above. */
function queryOf(params: Param[]) {
  return fc
    .tuple(fc.record(Object.fromEntries(params.map((p) => [p.name, sent(p)])), { requiredKeys: [] }), EXTRA)
    .map(([byName, extra]) => [...Object.values(byName).flat(), ...extra].join('&'));
}

type Problem = string | null;

/** The answer is below 500, and a refusal is JSON `{message, error}` (error a string or a map of messages). */
async function check(method: string, url: string, token: string): Promise<Problem> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}` } });
  const body = await res.text();
  if (res.status >= 500) return `${res.status} ${body.slice(0, 300)}`;
  if (res.status < 400) return null;
  if (!/^application\/json/.test(res.headers.get('content-type') ?? ''))
    return `${res.status} is not JSON: ${res.headers.get('content-type')}`;
  const json = JSON.parse(body) as { message?: unknown; error?: unknown };
  const errorOk =
    typeof json.error === 'string' ||
    (typeof json.error === 'object' &&
      json.error !== null &&
      Object.values(json.error).every((m) => Array.isArray(m) && m.every((s) => typeof s === 'string')));
  if (typeof json.message !== 'string' || !json.message || !errorOk)
    return `${res.status} is not {message, error}: ${body.slice(0, 300)}`;
  return null;
}

/** Random query strings per GET and role, on top of the fixed examples: enough to vary, few enough to stay quick. */
const RANDOM_RUNS = 12;

const ROLES = ['Super-Admin', 'Admin', 'Individual', 'Company-Admin'] as const;

describe('every GET of the OpenAPI document, with generated query values', () => {
  it('is documented with query parameters (sanity check of what is fuzzed)', () => {
    const withQuery = Object.entries(doc.paths).filter(([, ops]) => ops.get?.parameters?.some((p) => p.in === 'query'));
    expect(withQuery.length).toBeGreaterThan(20);
  });

  for (const role of ROLES) {
    it(`never answers 5xx, and refuses in the one error shape, as ${role}`, async () => {
      const actor = actors[role]!;
      let requests = 0;
      for (const [path, ops] of Object.entries(doc.paths)) {
        const params = (ops.get?.parameters ?? []).filter((p) => p.in === 'query');
        if (!ops.get || !params.length) continue;
        const pathIds = fc.constantFrom('own', 'random');
        const examples = params.flatMap((p) =>
          [`${p.name}=a%00b`, `${p.name}=${'9'.repeat(400)}`, `${p.name}=1&${p.name}=2`, `${p.name}[a]=1`].map(
            (qs): [string, string] => [qs, 'own'],
          ),
        );
        await fc.assert(
          fc.asyncProperty(queryOf(params), pathIds, async (qs, which) => {
            const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) =>
              which === 'own' ? idFor(name, path, actor) : randomUUID(),
            );
            requests++;
            const problem = await check('GET', `${t.url}${filled}?${qs}`, actor.token);
            if (problem) throw new Error(`GET ${filled}?${qs}\n  → ${problem}`);
          }),
          // Besides the random runs (examples count in numRuns): each parameter once with a NUL, huge, repeated and bracketed.
          { numRuns: examples.length + RANDOM_RUNS, endOnFailure: true, examples },
        );
      }
      expect(requests).toBeGreaterThan(200);
    });
  }
});

describe('a NUL byte (PostgreSQL text cannot hold one)', () => {
  const filters: Array<[string, string, string]> = [
    ['Admin', '/cards', 'search'],
    ['Admin', '/individuals', 'name'],
    ['Admin', '/companies', 'name'],
    ['Admin', '/verification/get-individuals', 'name'],
    ['Admin', '/verification/get-companies', 'name'],
    ['Super-Admin', '/audit-logs', 'actor'],
    ['Super-Admin', '/audit-logs', 'action'],
    ['Super-Admin', '/audit-logs', 'object_type'],
    ['Super-Admin', '/audit-logs', 'object_id'],
  ];
  for (const [role, path, field] of filters) {
    it(`in ${path}?${field} is a 422 naming the field`, async () => {
      const res = await t.api('GET', `${path}?${field}=ab%00cd`, { token: actors[role]!.token });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error)).toEqual([field]);
      expect(res.body.message).toMatch(/NUL/);
    });
  }

  it('in a JSON body text field is a 422 naming the field, signed in or not', async () => {
    const company = actors['Company-Admin']!;
    const transfer = await t.api('POST', '/wallet/transfer', {
      token: company.token,
      body: { wallet_id: walletOf(actors.Individual!), amount: '1.00', reference: 'rent\u0000' },
    });
    expect(transfer.status).toBe(422);
    expect(Object.keys(transfer.body.error)).toEqual(['reference']);

    const register = await t.api('POST', '/account/individuals/register', {
      body: {
        first_name: 'A\u0000',
        last_name: 'B',
        email: `nul.${Date.now()}@example.com`,
        password: 'Str0ng!Passw0rd',
        confirm_password: 'Str0ng!Passw0rd',
        phone_number: '+233241112233',
      },
    });
    expect(register.status).toBe(422);
    expect(Object.keys(register.body.error)).toEqual(['first_name']);

    const nested = await t.api('POST', '/third-party/clients', {
      token: company.token,
      body: { name: 'ok', redirect_uri: 'https://x.example/\u0000', identifier: company.companyId },
    });
    expect(nested.status).toBe(422);
    expect(nested.body.error).toHaveProperty('redirect_uri');
  });

  it('in a multipart form field is a 422 naming the field', async () => {
    const a = await newIndividual(t);
    const fd = form(
      { id_type: 'passport', issued_id: 'G123\u00004567' },
      { address_proof: { data: PDF_MINI, name: 'bill.pdf' }, selfie_image: { data: JPEG_1PX, name: 'me.jpg' } },
    );
    const res = await fetch(`${t.url}/api/v1/individuals/kyc/${a.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}` },
      body: fd,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(((await res.json()) as { error: object }).error)).toEqual(['issued_id']);
  });

  it('in a path reference finds nothing (404)', async () => {
    const res = await t.api('GET', '/wallet/topup/TOP%00123', { token: actors.Individual!.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });
});

describe('days at the ends of the calendar', () => {
  it('reads up to 9999-12-31, and refuses a day before 1900 on its field', async () => {
    const staff = actors.Admin!.token;
    const last = await t.api('GET', '/reports/view-statistics?start_date=2026-01-01&end_date=9999-12-31', {
      token: staff,
    });
    expect(last.status).toBe(200);
    const series = await t.api('GET', '/reports/view-statistics-series?end_date=9999-12-31&interval=month', {
      token: staff,
    });
    expect(series.status).toBe(200);
    const zero = await t.api('GET', '/reports/view-statistics?start_date=0000-01-01', { token: staff });
    expect(zero.status).toBe(422);
    expect(zero.body.error).toEqual({ start_date: ['Start date must be a date such as 2026-01-31'] });
  });
});
