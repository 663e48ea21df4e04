import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxAuthorizationBody } from '@shared/contract';
import { categoryOf } from '@shared/merchant-categories';
import { auditLog, cards } from '../../server/db/schema';
import { seal } from '../../server/lib/crypto';
import { type DecisionEndpoint, askCompany, decisionEndpointOf } from '../../server/modules/cards/company-decision';
import type { ControlledPayment } from '../../server/modules/cards/controls/decline';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  type Answer,
  apiCompany,
  generateCredentials,
  signatureValid,
  startReceiver,
  thirdPartyRow,
  verifiedCompany,
} from './support/api';
import { type TestApp, startTestApp } from './support/app';
import { newCard } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const PATH = '/third-party/authorization-decision';
type Body = Record<string, unknown>;
const get = (token: string, app = t) => app.api('GET', PATH, { token });
const put = (token: string, body: Body, app = t) => app.api('PUT', PATH, { token, body });
const remove = (token: string, app = t) => app.api('DELETE', PATH, { token });
const valid = (over: Body = {}): Body => ({
  url: 'http://127.0.0.1:9/decide',
  timeout_ms: 500,
  on_timeout: 'decline',
  ...over,
});

async function receiverAnswering(answer: Answer) {
  const r = await startReceiver(t, answer);
  closers.push(r.close);
  return r;
}
const reply =
  (status: number, body: unknown, delayMs = 0): Answer =>
  (_r, res) => {
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    }, delayMs);
  };

describe('the decision endpoint routes', () => {
  it('set, read, change (same secret), remove, and a new one gets a new secret; each change audited', async () => {
    const admin = await verifiedCompany(t);
    expect((await get(admin.token)).body).toEqual({ data: null });
    const early = await put(admin.token, valid());
    expect(early.status).toBe(409); // credentials first: the request is signed for them
    expect(early.body.message).toMatch(/API credentials/);
    await generateCredentials(t, admin);

    const saved = await put(admin.token, valid());
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({
      url: 'http://127.0.0.1:9/decide',
      timeout_ms: 500,
      on_timeout: 'decline',
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      last_failure: null,
      last_failure_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const secret = saved.body.data.signing_secret;
    expect((await get(admin.token)).body.data).toEqual(saved.body.data);

    const changed = await put(
      admin.token,
      valid({ url: ' http://127.0.0.1:9/other ', timeout_ms: 2000, on_timeout: 'approve' }),
    );
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      url: 'http://127.0.0.1:9/other',
      timeout_ms: 2000,
      on_timeout: 'approve',
      signing_secret: secret,
    });

    const removed = await remove(admin.token);
    expect(removed.status).toBe(202);
    expect(removed.body.data).toBe('Authorisation decision endpoint removed');
    expect((await get(admin.token)).body.data).toBeNull();
    expect((await remove(admin.token)).status).toBe(404);
    const again = await put(admin.token, valid());
    expect(again.body.data.signing_secret).not.toBe(secret);

    const trail = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'company'), eq(auditLog.objectId, admin.companyId!)))
      .orderBy(auditLog.createdAt);
    expect(trail.map((r) => r.action)).toEqual([
      'decision-endpoint.set',
      'decision-endpoint.set',
      'decision-endpoint.remove',
      'decision-endpoint.set',
    ]);
    expect(trail[1]).toMatchObject({
      actorId: admin.id,
      actorRole: 'Company-Admin',
      details: expect.objectContaining({ url: 'http://127.0.0.1:9/other', on_timeout: 'approve', via: 'session' }),
    });
  });

  it("the company's API token manages it too, without seeing the signing secret", async () => {
    const { admin, token } = await apiCompany(t);
    const saved = await put(token, valid());
    expect(saved.status).toBe(200);
    expect(saved.body.data.signing_secret).toBeNull();
    expect((await get(token)).body.data.url).toBe('http://127.0.0.1:9/decide');
    expect((await get(admin.token)).body.data.signing_secret).toMatch(/^whsec_/);
    expect((await remove(token)).status).toBe(202);
    expect((await get(admin.token)).body.data).toBeNull();
  });

  it('refuses individuals, company users, staff and unverified companies; each company sees only its own', async () => {
    const { admin } = await apiCompany(t);
    const other = await apiCompany(t);
    expect((await put(admin.token, valid({ url: 'http://127.0.0.1:9/mine' }))).status).toBe(200);
    expect((await put(other.admin.token, valid({ url: 'http://127.0.0.1:9/theirs' }))).status).toBe(200);
    expect((await get(admin.token)).body.data.url).toBe('http://127.0.0.1:9/mine');
    expect((await get(other.token)).body.data.url).toBe('http://127.0.0.1:9/theirs');
    expect((await remove(other.token)).status).toBe(202);
    expect((await get(admin.token)).body.data.url).toBe('http://127.0.0.1:9/mine');

    const member = await newCompanyMember(t, admin, 'user');
    const individual = await newIndividual(t);
    const staff = await newStaff(t);
    const superAdmin = await newStaff(t, 'Super-Admin');
    for (const who of [member, individual, staff, superAdmin] as Actor[]) {
      for (const res of [await get(who.token), await put(who.token, valid()), await remove(who.token)]) {
        expect(res.status, who.email).toBe(403);
        expect(res.body.message).toEqual(expect.any(String));
      }
    }
    expect((await get(admin.token)).body.data.url).toBe('http://127.0.0.1:9/mine');

    const unverified = await newCompany(t); // KYB not approved
    expect((await get(unverified.token)).status).toBe(403);
    expect((await put(unverified.token, valid())).status).toBe(403);
    expect((await get('nope')).status).toBe(401);
  });

  it('staff read it, without its secret, on the third party of the company', async () => {
    const { admin, creds } = await apiCompany(t);
    const staff = await newStaff(t);
    expect((await thirdPartyRow(t, staff, creds.clientId)).decision_endpoint).toBeNull();
    expect((await put(admin.token, valid({ on_timeout: 'approve', timeout_ms: 800 }))).status).toBe(200);
    const row = await thirdPartyRow(t, staff, creds.clientId);
    expect(row.decision_endpoint).toEqual({
      url: 'http://127.0.0.1:9/decide',
      timeout_ms: 800,
      on_timeout: 'approve',
      last_failure: null,
      last_failure_at: null,
    });
    expect(JSON.stringify(row)).not.toContain('whsec_');
  });

  it('answers 422 on each bad field', async () => {
    const { admin } = await apiCompany(t);
    const cases: Array<[string, Body]> = [
      ['url', { url: undefined }],
      ['url', { url: '' }],
      ['url', { url: '   ' }],
      ['url', { url: 42 }],
      ['url', { url: `http://127.0.0.1/${'a'.repeat(500)}` }],
      ['url', { url: 'not a url' }],
      ['url', { url: 'ftp://127.0.0.1/decide' }],
      ['url', { url: 'http://user:pw@127.0.0.1/decide' }],
      ['timeout_ms', { timeout_ms: undefined }],
      ['timeout_ms', { timeout_ms: 99 }],
      ['timeout_ms', { timeout_ms: 2001 }],
      ['timeout_ms', { timeout_ms: 150.5 }],
      ['timeout_ms', { timeout_ms: '500' }],
      ['timeout_ms', { timeout_ms: null }],
      ['on_timeout', { on_timeout: undefined }],
      ['on_timeout', { on_timeout: 'maybe' }],
      ['on_timeout', { on_timeout: true }],
    ];
    for (const [field, over] of cases) {
      const res = await put(admin.token, valid(over));
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(res.body.error[field]?.[0], JSON.stringify(over)).toEqual(expect.any(String));
    }
    expect((await get(admin.token)).body.data).toBeNull();
    for (const edge of [100, 2000]) expect((await put(admin.token, valid({ timeout_ms: edge }))).status).toBe(200);
  });

  it('goes with the credentials: revoking them removes the endpoint', async () => {
    const { admin } = await apiCompany(t);
    expect((await put(admin.token, valid())).status).toBe(200);
    expect(
      (await t.api('DELETE', `/third-party/clients/${admin.companyId}`, { token: admin.token })).status,
    ).toBeLessThan(300);
    expect((await get(admin.token)).body.data).toBeNull();
    expect((await put(admin.token, valid())).status).toBe(409);
  });
});

/** A funded company with credentials and a card; its card row as the authorisation path reads it. */
async function companyCard() {
  const c = await apiCompany(t);
  await fundWallet(t, c.admin.companyId!, 100_000);
  const card = await newCard(t, c.admin);
  const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, card.card.id));
  return { ...c, card: row! };
}

const PAYMENT: ControlledPayment = {
  amount: 2000,
  currency: 'USD',
  merchant: 'Accra Mall',
  mcc: '5411',
  country: 'GH',
};

describe('asking the company (askCompany) against a real endpoint', () => {
  async function setUp(answer: Answer, over: Body = {}) {
    const c = await companyCard();
    const receiver = await receiverAnswering(answer);
    const saved = await put(c.admin.token, valid({ url: receiver.url, ...over }));
    expect(saved.status).toBe(200);
    const endpoint = (await decisionEndpointOf(t.ctx.db, c.card))!;
    expect(endpoint).toMatchObject({ companyId: c.admin.companyId, url: receiver.url });
    return { ...c, receiver, endpoint, secret: saved.body.data.signing_secret as string };
  }
  const ask = (endpoint: DecisionEndpoint, card: typeof cards.$inferSelect, payment = PAYMENT) =>
    askCompany(t.ctx, endpoint, card, payment, crypto.randomUUID());
  /** The call, timed from outside. */
  async function timed(endpoint: DecisionEndpoint, card: typeof cards.$inferSelect) {
    const started = performance.now();
    const decision = await ask(endpoint, card);
    return { decision, elapsed: performance.now() - started };
  }

  it('finds no endpoint for a card whose company has none, nor for an individual', async () => {
    const c = await companyCard();
    expect(await decisionEndpointOf(t.ctx.db, c.card)).toBeNull();
    const person = await newIndividual(t);
    await fundWallet(t, person.id, 100_000);
    const card = await newCard(t, person);
    const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, card.card.id));
    expect(await decisionEndpointOf(t.ctx.db, row!)).toBeNull();
  });

  it('approves: a signed request with the card, amount, merchant, MCC and country', async () => {
    const s = await setUp(reply(200, { approved: true }));
    const transactionId = crypto.randomUUID();
    const decision = await askCompany(t.ctx, s.endpoint, s.card, PAYMENT, transactionId);
    expect(decision).toEqual({ decidedBy: 'company', approved: true, ms: expect.any(Number) });
    expect(s.receiver.received).toHaveLength(1);
    const got = s.receiver.received[0]!;
    expect(got.path).toBe('/hooks');
    expect(got.headers['content-type']).toBe('application/json');
    const id = got.headers['webhook-id'] as string;
    const ts = got.headers['webhook-timestamp'] as string;
    expect(id).toMatch(/^msg_/);
    expect(Number(ts)).toBe(Math.floor(t.clock.now().getTime() / 1000));
    // the endpoint checks our signature with the secret it was shown
    expect(signatureValid(s.secret, id, ts, got.body, got.headers['webhook-signature'] as string)).toBe(true);
    expect(signatureValid(s.secret, id, ts, `${got.body} `, got.headers['webhook-signature'] as string)).toBe(false);
    expect(JSON.parse(got.body)).toEqual({
      type: 'card.authorization.request',
      timestamp: expect.any(String),
      data: {
        transaction_id: transactionId,
        card_id: s.card.id,
        card: {
          masked_number: s.card.maskedNumber,
          last4: s.card.last4,
          purpose: 'media',
          nickname: s.card.nickname,
        },
        amount: '20.00',
        currency: 'USD',
        merchant: 'Accra Mall',
        mcc: '5411',
        merchant_category: categoryOf('5411'),
        country: 'GH',
      },
    });
    expect(got.body).not.toContain(s.card.issuerToken);
  });

  it('declines, and approves part of the payment', async () => {
    const no = await setUp(reply(200, { approved: false }));
    expect(await ask(no.endpoint, no.card)).toMatchObject({ decidedBy: 'company', approved: false });
    expect((await ask(no.endpoint, no.card)).amount).toBeUndefined();

    const part = await setUp(reply(200, { approved: true, amount: '12.34' }));
    expect(await ask(part.endpoint, part.card)).toEqual({
      decidedBy: 'company',
      approved: true,
      amount: 1234,
      ms: expect.any(Number),
    });
    const whole = await setUp(reply(201, { approved: true, amount: '20.00' }));
    expect(await ask(whole.endpoint, whole.card)).toEqual({
      decidedBy: 'company',
      approved: true,
      ms: expect.any(Number),
    });
  });

  it('slow: an answer after the deadline applies on_timeout within the deadline plus 100 ms', async () => {
    for (const on_timeout of ['decline', 'approve'] as const) {
      const s = await setUp(reply(200, { approved: on_timeout === 'decline' }, 1500), { timeout_ms: 200, on_timeout });
      const { decision, elapsed } = await timed(s.endpoint, s.card);
      expect(decision).toMatchObject({ decidedBy: 'stand_in', approved: on_timeout === 'approve' });
      expect(elapsed).toBeGreaterThanOrEqual(195);
      expect(elapsed).toBeLessThan(300);
      expect(decision.ms).toBeLessThan(300);
    }
  });

  it('a server that accepts and never answers, or trickles its body, cannot hold the decision', async () => {
    const silent = await setUp(() => undefined, { timeout_ms: 150 });
    const a = await timed(silent.endpoint, silent.card);
    expect(a.decision).toMatchObject({ decidedBy: 'stand_in', approved: false });
    expect(a.elapsed).toBeLessThan(250);

    const trickle = await setUp(
      (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"appr');
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 20);
        res.on('close', () => clearInterval(timer));
      },
      { timeout_ms: 150, on_timeout: 'approve' },
    );
    const b = await timed(trickle.endpoint, trickle.card);
    expect(b.decision).toMatchObject({ decidedBy: 'stand_in', approved: true });
    expect(b.elapsed).toBeLessThan(250);
  });

  it('down: a refused connection applies on_timeout at once, and the failure is shown to the company', async () => {
    const s = await setUp(reply(200, { approved: true }), { on_timeout: 'approve' });
    // nothing listens on this port any more
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = { ...s.endpoint, url: `http://127.0.0.1:${port}/decide` };
    const { decision, elapsed } = await timed(down, s.card);
    expect(decision).toMatchObject({ decidedBy: 'stand_in', approved: true });
    expect(elapsed).toBeLessThan(300);
    await expect
      .poll(async () => (await get(s.admin.token)).body.data.last_failure)
      .toMatch(/could not be reached \(ECONNREFUSED\)/);
    expect((await get(s.admin.token)).body.data.last_failure_at).toEqual(expect.any(String));
  });

  it('bad replies (not JSON, not a decision, an error status, more than asked) apply on_timeout', async () => {
    const cases: Array<[Answer, RegExp]> = [
      [reply(200, 'yes please'), /not JSON/],
      [reply(200, { ok: true }), /no approved/],
      [reply(200, { approved: 'yes' }), /no approved/],
      [reply(200, 'null'), /no approved/],
      [reply(500, { approved: true }), /answered 500/],
      [reply(302, { approved: true }), /answered 302/],
      [reply(200, { approved: true, amount: '20.01' }), /more than the payment/],
      [reply(200, { approved: true, amount: '-1' }), /not an amount/],
      [reply(200, { approved: true, amount: 'lots' }), /not an amount/],
      [reply(200, { approved: true, amount: '1.234' }), /not an amount/],
    ];
    for (const [answer, why] of cases) {
      const s = await setUp(answer, { on_timeout: 'decline' });
      expect(await ask(s.endpoint, s.card), String(why)).toMatchObject({ decidedBy: 'stand_in', approved: false });
      await expect.poll(async () => (await get(s.admin.token)).body.data.last_failure).toMatch(why);
    }
  });
});

describe('private networks (SSRF) in a production-configured app', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await startTestApp({ env: 'production' });
  });
  afterAll(() => prod?.close());

  it('refuses private and non-https URLs when saved, and does not call one at decision time', async () => {
    const admin = await verifiedCompany(prod);
    await generateCredentials(prod, admin);
    const refused: Array<[string, RegExp]> = [
      ['http://93.184.216.34/decide', /must use https/],
      ['https://127.0.0.1/decide', /public address/],
      ['https://10.0.0.7/decide', /public address/],
      ['https://169.254.169.254/latest', /public address/],
      ['https://[::1]/decide', /public address/],
      ['https://[::ffff:127.0.0.1]/decide', /public address/],
      ['https://localhost/decide', /public address|does not resolve/],
    ];
    for (const [url, why] of refused) {
      const res = await put(admin.token, valid({ url }), prod);
      expect(res.status, url).toBe(422);
      expect(res.body.error.url[0], url).toMatch(why);
    }
    expect((await get(admin.token, prod)).body.data).toBeNull();

    // A saved URL that now points at this machine (DNS changed, say) is not called: the stand-in decides.
    const receiver = await startReceiver(prod, reply(200, { approved: true }));
    closers.push(receiver.close);
    const card = {
      id: crypto.randomUUID(),
      walletId: admin.companyId!,
      maskedNumber: '4111 11** **** 1111',
      last4: '1111',
      purpose: 'media',
      nickname: 'x',
    } as typeof cards.$inferSelect;
    // http refused in production; an IP literal checked as written; a name checked on the address it resolves to
    for (const url of [
      receiver.url,
      receiver.url.replace('http:', 'https:'),
      receiver.url.replace('http://127.0.0.1', 'https://localhost'),
    ]) {
      const endpoint: DecisionEndpoint = {
        companyId: admin.companyId!,
        url,
        timeoutMs: 500,
        onTimeout: 'approve',
        signingSecret: seal('whsec_AAAA', prod.ctx.config.encryptionKey),
      };
      expect(await askCompany(prod.ctx, endpoint, card, PAYMENT, crypto.randomUUID())).toMatchObject({
        decidedBy: 'stand_in',
        approved: true,
      });
    }
    expect(receiver.received).toHaveLength(0);
  });
});

/**
 * End to end through the sandbox issuer: these run once the authorisation pipeline asks the company
 * (issue 32's lifecycle work: the sandbox body takes `mcc`).
 */
const pipelineReady = 'mcc' in sandboxAuthorizationBody.shape;
describe.runIf(pipelineReady)('decisions through POST /sandbox/authorizations', () => {
  let staff: Actor;
  beforeAll(async () => {
    staff = await newStaff(t);
  });
  const authorize = (cardId: string, amount = '20.00', over: Body = {}) =>
    t.api('POST', '/sandbox/authorizations', {
      token: staff.token,
      body: { card_id: cardId, amount, merchant: 'Accra Mall', mcc: '5411', country: 'GH', currency: 'USD', ...over },
    });
  async function setUp(answer: Answer, over: Body = {}) {
    const c = await companyCard();
    const receiver = await receiverAnswering(answer);
    expect((await put(c.admin.token, valid({ url: receiver.url, ...over }))).status).toBe(200);
    return { ...c, receiver };
  }

  it('the company approves, declines, approves part', async () => {
    const yes = await setUp(reply(200, { approved: true }));
    const a = await authorize(yes.card.id);
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ approved: true, approved_amount: '20.00', decline_code: null });
    expect(a.body.data.transaction).toMatchObject({
      decided_by: 'company',
      decision_ms: expect.any(Number),
      mcc: '5411',
    });
    expect(yes.receiver.received).toHaveLength(1);
    expect(JSON.parse(yes.receiver.received[0]!.body).data.transaction_id).toBe(a.body.data.transaction.id);

    const no = await setUp(reply(200, { approved: false }));
    const d = await authorize(no.card.id);
    expect(d.body.data).toMatchObject({ approved: false, decline_code: 'declined_by_company' });
    expect(d.body.data.transaction).toMatchObject({ decided_by: 'company', status: 'declined' });

    const part = await setUp(reply(200, { approved: true, amount: '12.34' }));
    const p = await authorize(part.card.id);
    expect(p.body.data).toMatchObject({ approved: true, approved_amount: '12.34' });
  });

  it('slow or down: on_timeout decides (stand_in) and the answer comes within the deadline plus 100 ms', async () => {
    const slow = await setUp(reply(200, { approved: false }, 2000), { timeout_ms: 300, on_timeout: 'approve' });
    const timedAuthorize = async (cardId: string) => {
      const started = performance.now();
      const res = await authorize(cardId);
      return { res, ms: performance.now() - started };
    };
    // What an authorisation costs this machine right now without asking anyone (the test machine may be busy).
    const plain = await companyCard();
    await timedAuthorize(plain.card.id);
    const { res: alone, ms: platformOnly } = await timedAuthorize(plain.card.id);
    const platformDecisionMs: number = alone.body.data.transaction.decision_ms;
    const { res: s, ms } = await timedAuthorize(slow.card.id);
    expect(s.body.data).toMatchObject({ approved: true });
    expect(s.body.data.transaction).toMatchObject({ decided_by: 'stand_in' });
    // the decision is made within the deadline plus 100 ms, whatever the endpoint does, beside the platform's own
    // checks (what they take on this machine at this moment: the suite runs beside other work) ...
    expect(s.body.data.transaction.decision_ms).toBeGreaterThanOrEqual(300);
    expect(s.body.data.transaction.decision_ms).toBeLessThan(400 + platformDecisionMs);
    // ... and the answer takes no more than that beside what any authorisation takes on this machine
    expect(ms).toBeLessThan(400 + platformOnly);

    const bad = await setUp(reply(500, 'oops'), { on_timeout: 'decline' });
    const b = await authorize(bad.card.id);
    expect(b.body.data).toMatchObject({ approved: false, decline_code: 'declined_by_company' });
    expect(b.body.data.transaction).toMatchObject({ decided_by: 'stand_in' });
  });

  it('is not asked about a payment the platform declines itself, nor for a company without an endpoint', async () => {
    const s = await setUp(reply(200, { approved: true }));
    const tooMuch = await authorize(s.card.id, '99999.00');
    expect(tooMuch.body.data).toMatchObject({ approved: false, decline_code: 'insufficient_funds' });
    expect(tooMuch.body.data.transaction.decided_by).toBe('platform');
    expect(s.receiver.received).toHaveLength(0);

    const plain = await companyCard();
    const p = await authorize(plain.card.id);
    expect(p.body.data.transaction).toMatchObject({ decided_by: 'platform' });
  });
});
