import Fastify, { type FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as R from '@shared/contract/responses';
import { responseSerializerCompiler } from '../../server/openapi/serializer';
import { type TestApp, startTestApp } from './support/app';

/** The OpenAPI document at /api/docs covers every endpoint, with request and response schemas. */

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  type?: string;
  required?: string[];
};
type Operation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

let t: TestApp;
let doc: Doc;
let routes: string[];

/** Every route of the app, from Fastify's own route tree ("METHOD /path"). */
function registeredRoutes(printout: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of printout.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1]!.length / 4;
    stack.push(m[2]!);
    for (const method of (m[3] ?? '').split(', '))
      if (/^[A-Z]+$/.test(method) && method !== 'HEAD') out.push(`${method} ${stack.join('')}`);
  }
  return out;
}

const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const operationOf = (route: string) => {
  const [method, url] = route.split(' ') as [string, string];
  return doc.paths[openapiPath(url)]?.[method.toLowerCase()];
};

/** A schema with its $ref (or allOf: [$ref]) followed. */
function resolve(s: Schema | undefined): Schema {
  let cur = s ?? {};
  for (let i = 0; i < 10; i++) {
    if (cur.$ref) cur = doc.components.schemas[cur.$ref.replace('#/components/schemas/', '')] ?? {};
    else if (cur.allOf?.length === 1) cur = cur.allOf[0]!;
    else return cur;
  }
  return cur;
}
const jsonOf = (route: string, status: number) =>
  resolve(operationOf(route)?.responses[status]?.content?.['application/json']?.schema);

beforeAll(async () => {
  t = await startTestApp();
  const res = await fetch(`${t.url}/api/docs/json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
  routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) =>
    r.split(' ')[1]!.startsWith('/api/v1/'),
  );
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('is OpenAPI 3 and lists the API routes (sanity check of the route list)', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(routes.length).toBeGreaterThan(80);
    expect(routes).toContain('GET /api/v1/cards/:id');
    expect(routes).toContain('DELETE /api/v1/company/users/:companyId/:userId');
  });

  it('documents exactly the routes that exist (no route missing, no stale operation)', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = routes.map((r) => {
      const [method, url] = r.split(' ') as [string, string];
      return `${method} ${openapiPath(url)}`;
    });
    expect(documented.sort()).toEqual(expected.sort());
  });

  it('has every /api/v1 route, each with a success answer that has a schema', () => {
    const problems: string[] = [];
    for (const route of routes) {
      const op = operationOf(route);
      if (!op) {
        problems.push(`${route}: not in the document`);
        continue;
      }
      const success = Object.entries(op.responses).filter(([s]) => /^2\d\d$/.test(s));
      const redirect = Object.keys(op.responses).some((s) => /^3\d\d$/.test(s));
      if (!success.length && !redirect) problems.push(`${route}: no 2xx or 3xx answer`);
      for (const [status, r] of success) {
        const schemas = Object.values(r.content ?? {}).map((c) => c.schema);
        if (!schemas.length || schemas.some((s) => !s || !Object.keys(s).length))
          problems.push(`${route}: ${status} has no schema`);
        if (!r.description || r.description === 'Default Response')
          problems.push(`${route}: ${status} has no description`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents the input of every route: path ids, paging parameters and request bodies', () => {
    const bodyless = new Set([
      'POST /api/v1/sandbox/authorizations/:id/reverse',
      'POST /api/v1/sandbox/authorizations/:id/settle',
      'POST /api/v1/reconciliation/run',
      'POST /api/v1/account/admins/:id/deactivate',
      'POST /api/v1/account/admins/:id/reactivate',
      'POST /api/v1/approvals/:id/approve',
    ]);
    const problems: string[] = [];
    for (const route of routes) {
      const op = operationOf(route);
      if (!op) continue;
      const [method, url] = route.split(' ') as [string, string];
      const params = op.parameters ?? [];
      for (const [, name] of url.matchAll(/:(\w+)/g)) {
        if (!params.some((p) => p.in === 'path' && p.name === name))
          problems.push(`${route}: path parameter ${name} missing`);
      }
      const ok = Object.entries(op.responses).find(([s]) => /^2/.test(s))?.[1];
      const okSchema = ok?.content?.['application/json']?.schema;
      const isPaged = JSON.stringify(okSchema ?? {}).includes('PageLinks');
      if (isPaged && !['page', 'per_page'].every((n) => params.some((p) => p.in === 'query' && p.name === n)))
        problems.push(`${route}: paged but page/per_page not documented`);
      const takesBody = ['POST', 'PUT', 'PATCH'].includes(method) && !bodyless.has(route);
      if (
        takesBody &&
        !Object.values(op.requestBody?.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length)
      )
        problems.push(`${route}: no request body`);
    }
    expect(problems).toEqual([]);
  });

  it('documents the errors of protected routes in the one error shape', () => {
    const protectedRoutes = routes.filter(
      (r) => (operationOf(r) as { security?: unknown[] } | undefined)?.security?.length,
    );
    expect(protectedRoutes.length).toBeGreaterThan(60);
    for (const route of protectedRoutes) {
      const r401 = operationOf(route)!.responses['401'];
      expect(r401, `${route} 401`).toBeDefined();
      expect(resolve(r401!.content?.['application/json']?.schema)).toBe(doc.components.schemas.ApiError);
    }
    expect(Object.keys(doc.components.schemas.ApiError!.properties!)).toEqual(['message', 'error']);
    const validation = operationOf('POST /api/v1/wallet/transfer')!.responses['422']!;
    expect(validation.description).toMatch(/field/);
    expect(operationOf('POST /api/v1/account/login')!.responses).toHaveProperty('429');
  });

  it('describes a card in detail: number, secrets for the owner, billing, staff sums', () => {
    const body = jsonOf('GET /api/v1/cards/:id', 200);
    const detail = resolve(body.properties!.data);
    expect(Object.keys(detail.properties!)).toEqual(
      expect.arrayContaining(['card', 'details', 'billing', 'additional_data']),
    );
    const card = resolve(detail.properties!.card);
    expect(card.properties).toHaveProperty('card_number');
    expect(card.properties).toHaveProperty('masked_number');
    expect(card.required).toContain('card_number');
    expect(resolve(detail.properties!.details).properties).toHaveProperty('card_cvv');
    expect(Object.keys(resolve(detail.properties!.billing).properties!)).toEqual([
      'AdrLine1',
      'AdrLine2',
      'City',
      'State',
      'Country',
      'ZipCode',
    ]);
    // the entity is a component, not repeated inline
    expect(detail).toBe(doc.components.schemas.ApiCardDetail);
  });

  it('describes paged lists with their rows, links, counts and totals', () => {
    const list = jsonOf('GET /api/v1/cards', 200);
    expect(list.required).toEqual(
      expect.arrayContaining(['data', 'links', 'from', 'to', 'total', 'current_page', 'last_page', 'per_page']),
    );
    expect(resolve(list.properties!.data!.items)).toBe(doc.components.schemas.ApiCard);
    expect(Object.keys(resolve(list.properties!.links).properties!)).toEqual(['first', 'last', 'prev', 'next']);
    const withTotals = jsonOf('GET /api/v1/reports/view-wallet-transactions', 200);
    expect(Object.keys(withTotals.properties!.totals!.properties!)).toEqual(['amount', 'fees']);
    expect(resolve(withTotals.properties!.data!.items)).toBe(doc.components.schemas.ApiWalletTransaction);
  });

  it('says what amounts and timestamps look like', () => {
    const topup = doc.components.schemas.ApiTopup as {
      properties: Record<string, { description?: string; format?: string; pattern?: string }>;
    };
    expect(topup.properties.amount!.description).toMatch(/two decimals/);
    expect(topup.properties.amount!.pattern).toBeDefined();
    expect(topup.properties.created_at!.format).toBe('date-time');
    expect(topup.properties.created_at!.description).toMatch(/UTC/);
  });

  it('describes the answers that are not JSON: the document download and the email link redirect', () => {
    const download = operationOf('GET /api/v1/files/:id')!.responses['200']!;
    expect(Object.keys(download.content!)).toEqual(
      expect.arrayContaining(['application/pdf', 'image/jpeg', 'image/png']),
    );
    const verify = operationOf('GET /api/v1/account/verify-email')!.responses;
    expect(verify['302']!.description).toMatch(/redirect/i);
    expect(verify['302']!.content).toBeUndefined();
    expect(Object.keys(operationOf('POST /api/v1/individuals/kyc/:userId')!.requestBody!.content)).toEqual([
      'multipart/form-data',
    ]);
    expect(Object.keys(operationOf('POST /api/v1/oauth/token')!.requestBody!.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });

  it('shows each entity of the shared response schemas with exactly its fields (one source: a field added there is here)', () => {
    const entities = (Object.values(R) as unknown[]).filter(
      (s): s is z.ZodObject => s instanceof z.ZodObject && !!s.meta()?.id,
    );
    const shown = entities.filter((s) => doc.components.schemas[String(s.meta()!.id)]);
    expect(shown.length).toBeGreaterThan(30);
    for (const s of shown) {
      const id = String(s.meta()!.id);
      expect(Object.keys(doc.components.schemas[id]!.properties ?? {}), id).toEqual(Object.keys(s.shape));
    }
  });

  it('keeps only components the document uses', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.filter((n) => n.endsWith('Input'))).toEqual([]);
    // used by an operation or a webhook
    const text = JSON.stringify([doc.paths, (doc as { webhooks?: unknown }).webhooks]);
    for (const n of names)
      if (!text.includes(`"#/components/schemas/${n}"`))
        expect(JSON.stringify(doc.components.schemas), n).toContain(`"#/components/schemas/${n}"`);
  });
});

describe('answers and their documented schemas', () => {
  it('sends the answer exactly as the handler returned it (no stripping or reordering)', async () => {
    const res = await fetch(`${t.url}/api/v1/health`);
    expect(await res.text()).toBe(JSON.stringify({ data: { status: 'ok', database: t.ctx.database.kind } }));
  });

  const appWith = async (mode: 'enforce' | 'warn' | 'off', answer: unknown) => {
    const app = Fastify({ logger: false });
    const warn = vi.fn();
    app.setSerializerCompiler(responseSerializerCompiler(mode, { warn } as never));
    app.get(
      '/x',
      { schema: { response: { 200: z.strictObject({ data: z.strictObject({ b: z.string(), a: z.number() }) }) } } },
      async () => answer,
    );
    await app.ready();
    return { app, warn };
  };
  const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

  it('in test, fails an answer with a field the schema does not name, or a missing one', async () => {
    const spy = quiet();
    for (const answer of [{ data: { a: 1, b: 'x', secret: 'y' } }, { data: { a: 1 } }]) {
      const { app } = await appWith('enforce', answer);
      expect((await app.inject('/x')).statusCode).toBe(500);
      await app.close();
    }
    expect(spy).toHaveBeenCalledWith(expect.stringContaining('GET /x 200 does not match'));
    spy.mockRestore();
  });

  it('passes a matching answer through unchanged, and in production sends even a drifted one as it is', async () => {
    const good = await appWith('enforce', { data: { a: 1, b: 'x' } });
    expect((await good.app.inject('/x')).body).toBe('{"data":{"a":1,"b":"x"}}');
    const drifted = { data: { a: 1, b: 'x', extra: true } };
    const prod = await appWith('off', drifted);
    const res = await prod.app.inject('/x');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify(drifted));
    const dev = await appWith('warn', drifted);
    expect((await dev.app.inject('/x')).body).toBe(JSON.stringify(drifted));
    expect(dev.warn).toHaveBeenCalledOnce();
    await Promise.all([good.app.close(), prod.app.close(), dev.app.close()]);
  });

  it('refuses to start when an /api/v1 route has no documented responses', async () => {
    const { default: documentedResponses } = await import('../../server/openapi/attach');
    for (const env of ['test', 'development'] as const) {
      const app = Fastify({ logger: false });
      await app.register(documentedResponses, { env });
      await expect(
        app.register(async (a) => a.get('/undocumented', async () => ({})), { prefix: '/api/v1' }).ready(),
      ).rejects.toThrow(/No documented responses for GET \/api\/v1\/undocumented/);
      await app.close();
    }
    const prod = Fastify({ logger: false });
    await prod.register(documentedResponses, { env: 'production' });
    await prod.register(async (a) => a.get('/undocumented', async () => ({ ok: 1 })), { prefix: '/api/v1' });
    expect((await prod.inject('/api/v1/undocumented')).json()).toEqual({ ok: 1 });
    await prod.close();
  });

  it('in test, fails an answer whose status the route does not document', async () => {
    const spy = quiet();
    // no authentication on /health, so a 401 there is not documented
    const { default: documentedResponses } = await import('../../server/openapi/attach');
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(responseSerializerCompiler('enforce', { warn: vi.fn() } as never));
    await app.register(documentedResponses, { env: 'test' });
    // (typed as any schema, so the reply may take a status it does not declare)
    const schema: FastifySchema = { response: { 200: z.strictObject({ data: z.strictObject({ ok: z.boolean() }) }) } };
    await app.register(
      async (a) =>
        a.get('/health', { schema }, async (_req, reply) => reply.status(401).send({ message: 'x', error: 'x' })),
      { prefix: '/api/v1' },
    );
    expect((await app.inject('/api/v1/health')).statusCode).toBe(500);
    expect(spy).toHaveBeenCalledWith(expect.stringContaining('answered 401'));
    spy.mockRestore();
    await app.close();
  });
});
