import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { charge, newCard, verifyAccount } from './support/cards';
import { JPEG_1PX, PDF_MINI, form } from './support/files';
import { approvals } from '../../server/db/schema';
import { fundWallet } from './support/money';
import { startTopup, walletOf } from './support/wallet';

/**
 * The OpenAPI document works with code generators and validators: it is a valid OpenAPI document,
 * its schemas compile in a strict JSON Schema validator (Ajv), every operation is named, and every
 * real answer of every documented GET, for every role, matches its documented schema.
 */

type Schema = Record<string, unknown>;
type Parameter = { in: string; name: string; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
type Doc = {
  openapi: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

let t: TestApp;
let doc: Doc;
const actors: Record<string, Actor> = {};
/** Ids each role reads: its own, or (staff) a customer's. */
const ids: Record<string, Record<string, string>> = {};

const ROLES = ['Super-Admin', 'Admin', 'Individual', 'Company-Admin', 'Company-User'] as const;
const MUTATIONS = ['post', 'put', 'patch', 'delete'];
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

beforeAll(async () => {
  t = await startTestApp();
  doc = (await (await fetch(`${t.url}/api/docs/json`)).json()) as Doc;

  const [superAdmin, admin, individual, company, applicant] = await Promise.all([
    newStaff(t, 'Super-Admin'),
    newStaff(t, 'Admin'),
    newIndividual(t),
    newCompany(t),
    newIndividual(t),
  ]);
  const member = await newCompanyMember(t, company);
  Object.assign(actors, {
    'Super-Admin': superAdmin,
    Admin: admin,
    Individual: individual,
    'Company-Admin': company,
    'Company-User': member,
  });

  // Rows in every list: cards with and without a spending control, payments, transfers, top-ups,
  // a KYC waiting for review, API credentials and webhook events.
  const cards: Record<string, string> = {};
  const topups: Record<string, string> = {};
  for (const a of [individual, company]) {
    await verifyAccount(t, a);
    await fundWallet(t, walletOf(a), 100_000);
    cards[a.id] = (await newCard(t, a)).card.id;
    await newCard(t, a, { type: 'basic', purpose: 'general', spending_limit: undefined, spending_control: undefined });
    topups[a.id] = (await startTopup(t, a, '25.00')).reference;
  }
  const creds = await t.api('POST', '/third-party/clients', {
    token: company.token,
    body: { name: 'Volta Trading Ltd', redirect_uri: null, identifier: company.companyId },
  });
  expect(creds.status).toBe(201);
  expect(
    (
      await t.api('POST', '/third-party/callback-request', {
        token: company.token,
        body: { callback_url: 'https://hooks.example.com/cardwallet', active: true },
      })
    ).status,
  ).toBe(200);
  for (const amount of ['5.00', '900000.00'])
    expect((await charge(t, admin, cards[company.id]!, amount)).status).toBe(201);
  // A card dispute (issue 36) of a payment cleared on the Individual's card (no callback: no webhook events).
  const disputed = (await charge(t, admin, cards[individual.id]!, '3.00')).body.data.transaction.id as string;
  await t.api('POST', `/sandbox/authorizations/${disputed}/settle`, { token: admin.token });
  const dispute = await t.api('POST', `/card-transactions/${disputed}/disputes`, {
    token: individual.token,
    body: { reason: 'duplicate', amount: '3.00', explanation: 'Charged twice.' },
  });
  expect(dispute.status).toBe(201);
  // A matched statement (issue 36): one TronGrid line nobody has, so its lines list is not empty.
  const statement = await fetch(`${t.url}/api/v1/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${superAdmin.token}` },
    body: form(
      { source: 'chain' },
      {
        file: {
          data: Buffer.from(
            `transaction_id,block_timestamp,from,to,value\n${'ab'.repeat(32)},${Date.now() - 3600_000},TXa,TXb,1500000\n`,
          ),
          name: 'trongrid.csv',
          type: 'text/csv',
        },
      },
    ),
  });
  expect(statement.status).toBe(201);
  const statementId = ((await statement.json()) as { data: { id: string } }).data.id;
  expect((await charge(t, admin, cards[individual.id]!, '5.00')).status).toBe(201);
  expect(
    (
      await t.api('POST', '/wallet/transfer', {
        token: company.token,
        body: { wallet_id: walletOf(individual), amount: '10.00', reference: 'Invoice 12' },
      })
    ).status,
  ).toBe(200);
  const kyc = form(
    { id_type: 'passport', issued_id: 'G1234567' },
    { address_proof: { data: PDF_MINI, name: 'bill.pdf' }, selfie_image: { data: JPEG_1PX, name: 'me.jpg' } },
  );
  expect(
    (
      await fetch(`${t.url}/api/v1/individuals/kyc/${applicant.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${applicant.token}` },
        body: kyc,
      })
    ).status,
  ).toBe(201);
  const pending = await t.api('GET', '/verification/get-individuals', { token: admin.token });
  const verification = pending.body.data[0].id as string;
  // A request held for a second person (issue 33), inserted as the gate would: policies are global here.
  const approval = crypto.randomUUID();
  await t.ctx.db.insert(approvals).values({
    id: approval,
    action: 'card.withdraw',
    targetType: 'card',
    targetId: cards[company.id]!,
    amount: 500,
    summary: 'Withdraw USD 5.00 from card •••• 4242 of Volta Trading Ltd',
    method: 'POST',
    path: '/api/v1/cards/withdraw-funds',
    body: { card: cards[company.id]!, amount: '5.00' },
    initiatorId: admin.id,
    initiatorEmail: admin.email,
    expiresAt: new Date(Date.now() + 3600_000),
  });

  for (const role of ROLES) {
    const a = actors[role]!;
    const staff = role === 'Admin' || role === 'Super-Admin';
    const owner = staff || role === 'Company-User' ? company : a;
    ids[role] = {
      companyId: company.companyId!,
      'company/fees': company.companyId!,
      'account-balance': walletOf(staff ? company : a),
      'cards/individual': walletOf(individual),
      'cards/company': walletOf(company),
      card: cards[role === 'Individual' ? individual.id : company.id]!,
      reference: topups[owner.id] ?? topups[company.id]!,
      verification,
      approval,
      dispute: dispute.body.data.id,
      statement: statementId,
    };
  }
}, 180_000);
afterAll(() => t?.close());

describe('the OpenAPI document as tools read it', () => {
  it('is a valid OpenAPI document', async () => {
    const res = await new Validator().validate(structuredClone(doc) as never);
    expect(res.errors ?? [], 'OpenAPI schema errors').toEqual([]);
    expect(res.valid).toBe(true);
  });

  it('names every operation: a unique operationId and a summary', () => {
    const problems = operations().flatMap(({ path, method, op }) => [
      ...(op.operationId ? [] : [`${method.toUpperCase()} ${path}: no operationId`]),
      ...(op.summary?.trim() ? [] : [`${method.toUpperCase()} ${path}: no summary`]),
    ]);
    expect(problems).toEqual([]);
    const ids = operations().map(({ op }) => op.operationId);
    expect(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      'operationIds used twice',
    ).toEqual([]);
  });

  it('declares the Idempotency-Key header on every authenticated mutation', () => {
    const missing = operations()
      .filter(({ method, op }) => MUTATIONS.includes(method) && op.security?.length)
      .filter(({ op }) => !op.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'))
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
    const helpdesk = doc.paths['/api/v1/account/helpdesk']!.post!;
    expect(helpdesk.parameters?.map((p) => p.name)).toContain('Idempotency-Key');
  });

  it('gives every request body field a real schema (money too), never {}', () => {
    const empty: string[] = [];
    const walk = (s: unknown, where: string) => {
      if (!s || typeof s !== 'object') return;
      const props = (s as { properties?: Record<string, Schema> }).properties ?? {};
      for (const [name, p] of Object.entries(props)) {
        if (!Object.keys(p).filter((k) => k !== 'description').length) empty.push(`${where}.${name}`);
        walk(p, `${where}.${name}`);
      }
      for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
        for (const sub of ((s as Record<string, unknown>)[k] as unknown[] | undefined) ?? []) walk(sub, where);
    };
    for (const { path, method, op } of operations())
      for (const [type, c] of Object.entries(op.requestBody?.content ?? {}))
        walk(c.schema, `${method.toUpperCase()} ${path} (${type})`);
    expect(empty).toEqual([]);
    const transfer = doc.paths['/api/v1/wallet/transfer']!.post!.requestBody!.content['application/json']!.schema as {
      properties: Record<string, Schema>;
    };
    expect(JSON.stringify(transfer.properties.amount)).toMatch(/pattern/);
  });

  it('says where the API is (servers)', () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    expect(doc.servers![0]!.url).toBe(t.ctx.config.appUrl);
  });

  it('compiles every schema in a strict JSON Schema validator (no keyword the version does not have)', () => {
    const ajv = validatorFor(doc);
    const failures: string[] = [];
    for (const name of Object.keys(doc.components.schemas)) {
      try {
        ajv.getSchema(`${DOC_ID}#/components/schemas/${name}`);
      } catch (e) {
        failures.push(`${name}: ${(e as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('describes the card webhook events: type, timestamp and the card data with its available balance', () => {
    // what each step of an authorisation's life adds (issue 32)
    const step = { step_id: crypto.randomUUID(), held: '0.00' };
    const STEP_FIELDS: Record<string, Record<string, unknown>> = {
      approved: { requested_amount: '5.00' },
      incremented: { ...step, authorized_amount: '10.00' },
      partially_reversed: step,
      cleared: { ...step, released: '0.00' },
      expired: { step_id: step.step_id },
      refunded: { original_transaction_id: null },
    };
    // issue 32: every step of an authorisation's life has its event
    const events = [
      'approved',
      'declined',
      'incremented',
      'partially_reversed',
      'reversed',
      'cleared',
      'settled',
      'expired',
      'refunded',
      'force_posted',
    ]
      .map((s) => `card.authorization.${s}`)
      .concat(
        ['frozen', 'unfrozen', 'flagged', 'unflagged', 'suspended', 'unsuspended', 'deleted', 'terminated'].map(
          (s) => `card.${s}`,
        ),
      )
      .concat(['created', 'submitted', 'updated', 'won', 'lost', 'withdrawn'].map((s) => `card.dispute.${s}`));
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual(events.sort());
    const ajv = validatorFor(doc);
    for (const type of events) {
      const op = doc.webhooks![type]!.post!;
      expect(op.operationId && op.summary, type).toBeTruthy();
      const validate = ajv.compile({
        $ref: `${DOC_ID}#/webhooks/${pointer(type)}/post/requestBody/content/application~1json/schema`,
      });
      const data = {
        card_id: crypto.randomUUID(),
        nickname: 'Travel',
        last4: '4242',
        brand: 'Visa',
        type: 'premium',
        available_balance: '12.50',
      };
      const extra: Record<string, unknown> = type.includes('dispute')
        ? {
            dispute_id: crypto.randomUUID(),
            transaction_id: crypto.randomUUID(),
            merchant: 'Jumia',
            reason: 'duplicate',
            amount: '5.00',
            state:
              type.endsWith('created') || type.endsWith('updated')
                ? 'submitted'
                : type.endsWith('submitted')
                  ? 'under_review'
                  : type.slice(13),
            provisional_credit: '0.00',
            credited: '0.00',
          }
        : type.includes('authorization')
          ? {
              transaction_id: crypto.randomUUID(),
              amount: '5.00',
              currency: 'USD',
              merchant: 'Jumia',
              country: 'GH',
              mcc: '5999',
              ...(type.endsWith('declined')
                ? { decline_reason: 'Insufficient funds on the card.', decline_code: 'insufficient_funds' }
                : {}),
              ...STEP_FIELDS[type.replace('card.authorization.', '')],
            }
          : type.endsWith('frozen')
            ? { state: type === 'card.frozen' ? 'Deactivated' : 'Active' }
            : /deleted|terminated/.test(type)
              ? { reason: 'Lost', remaining: '0.00', outcome: 'refund' }
              : { reason: 'Review' };
      const event = { type, timestamp: '2026-01-31T09:30:00.000Z', data: { ...data, ...extra } };
      expect(validate(event), `${type}: ${describeErrors(validate.errors, event)}`).toBe(true);
      const { available_balance: _, ...withoutBalance } = event.data;
      expect(validate({ ...event, data: withoutBalance }), `${type} without available_balance`).toBe(false);
      expect(validate({ ...event, type: 'card.other' }), `${type} with another type`).toBe(false);
    }
  });

  it('describes the card events the server really sent, every field of them', async () => {
    const ajv = validatorFor(doc);
    const res = await t.api('GET', '/third-party/webhook-deliveries', { token: actors['Company-Admin']!.token });
    const events = (res.body.data as Array<{ type: string; payload: { data: Record<string, unknown> } }>).map(
      (e) => e.payload as { type: string; data: Record<string, unknown> },
    );
    expect(events.map((e) => e.type).sort()).toEqual(['card.authorization.approved', 'card.authorization.declined']);
    for (const event of events) {
      const body = `#/webhooks/${pointer(event.type)}/post/requestBody/content/application~1json/schema`;
      const validate = ajv.compile({ $ref: `${DOC_ID}${body}` });
      expect(validate(event), `${event.type}: ${describeErrors(validate.errors, event)}`).toBe(true);
      const data = (
        doc.webhooks![event.type]!.post!.requestBody!.content['application/json']!.schema as {
          properties: { data: { allOf: Schema[] } };
        }
      ).properties.data;
      const documented = [doc.components.schemas.CardEventData!, data.allOf[1]!].flatMap((s) =>
        Object.keys((s.properties as object | undefined) ?? {}),
      );
      expect(
        Object.keys(event.data).filter((k) => !documented.includes(k)),
        `${event.type}: fields sent but not documented`,
      ).toEqual([]);
    }
  });
});

describe('every documented GET answer matches the document (Ajv), for every role', () => {
  it('validates each 200 JSON answer against its documented schema', async () => {
    const ajv = validatorFor(doc);
    const problems: string[] = [];
    const validated = new Set<string>();
    for (const role of ROLES) {
      for (const [path, ops] of Object.entries(doc.paths)) {
        const op = ops.get;
        const documented = op?.responses['200']?.content?.['application/json'];
        if (!op || !documented) continue;
        const url = fill(path, role) + queryFor(op, role);
        const res = await t.api('GET', url.replace('/api/v1', ''), { token: actors[role]!.token });
        if (res.status !== 200) continue;
        let validate: ValidateFunction;
        try {
          validate = ajv.compile({
            $ref: `${DOC_ID}#/paths/${pointer(path)}/get/responses/200/content/application~1json/schema`,
          });
        } catch (e) {
          problems.push(`${role} GET ${url}\n  the documented schema does not compile: ${(e as Error).message}`);
          continue;
        }
        if (validate(res.body)) validated.add(path);
        else problems.push(`${role} GET ${url}\n${describeErrors(validate.errors, res.body)}`);
      }
    }
    expect(problems.join('\n\n')).toBe('');
    // Every GET with a JSON answer was checked with at least one role (files and redirects are not JSON).
    const jsonGets = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get?.responses['200']?.content?.['application/json'])
      .map(([p]) => p);
    expect(jsonGets.filter((p) => !validated.has(p))).toEqual([]);
  });
});

// ---- Helpers -------------------------------------------------------------------------------

const DOC_ID = 'https://cardwallet.test/openapi.json';
const pointer = (segment: string) =>
  segment.replace(/~/g, '~0').replace(/\//g, '~1').replace(/[{}]/g, encodeURIComponent);

/**
 * A strict validator holding the whole document, so `#/components/schemas/...` resolve as they are
 * written. OpenAPI 3.1 schemas are JSON Schema 2020-12 (plus its own few keywords); 3.0 schemas are
 * read with Ajv's draft-07 and OpenAPI's `nullable`.
 */
function validatorFor(d: Doc): Ajv {
  const is31 = d.openapi.startsWith('3.1');
  const ajv = is31
    ? new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true })
    : new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  // the OpenAPI document's own words, and the OpenAPI schema keywords that are annotations only
  ajv.addVocabulary([
    'openapi',
    'info',
    'servers',
    'paths',
    'webhooks',
    'components',
    'tags',
    'security',
    'externalDocs',
    'discriminator',
    'xml',
    'example',
  ]);
  ajv.addSchema({ ...structuredClone(d), $id: DOC_ID } as unknown as Schema);
  return ajv as unknown as Ajv;
}

/** Ajv's errors with the offending values, one per line. */
function describeErrors(errors: ErrorObject[] | null | undefined, data: unknown): string {
  return (errors ?? [])
    .slice(0, 15)
    .map((e) => {
      const value = e.instancePath
        .split('/')
        .slice(1)
        .reduce<unknown>(
          (v, k) => (v as Record<string, unknown> | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')],
          data,
        );
      return `  at ${e.instancePath || '(root)'}: ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''} — got ${JSON.stringify(value)?.slice(0, 120)}`;
    })
    .join('\n');
}

function fill(path: string, role: string): string {
  const own = ids[role]!;
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'companyId') return own.companyId!;
    if (name === 'reference') return own.reference!;
    if (path.includes('/company/fees/')) return own['company/fees']!;
    if (path.includes('/account-balance/') || path.includes('/deposit-address/')) return own['account-balance']!;
    // any wallet that can receive names its owner; a customer's own does
    if (path.includes('/wallet/recipient/')) return own['account-balance']!;
    if (path.includes('/cards/individual/')) return own['cards/individual']!;
    if (path.includes('/cards/company/')) return own['cards/company']!;
    if (path.startsWith('/api/v1/cards/')) return own.card!;
    if (path.includes('/verification/details/')) return own.verification!;
    if (path.startsWith('/api/v1/approvals/')) return own.approval!;
    if (path.startsWith('/api/v1/disputes/')) return own.dispute!;
    if (path.startsWith('/api/v1/statement-sources/')) return 'chain';
    if (path.startsWith('/api/v1/statements/')) return own.statement!;
    return crypto.randomUUID();
  });
}

/** The required query parameters, filled in. */
function queryFor(op: Operation, role: string): string {
  const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name);
  const known: Record<string, string> = { card: ids[role]!.card! };
  const pairs = required.map((n) => `${n}=${encodeURIComponent(known[n] ?? '')}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}
