import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { newStaff, randomIp, startFreshWindow } from './support/actors';
import { apiCompany, mintToken, tokenRequest } from './support/api';
import { cardBody, newCard } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const grant = (c: { clientId: string; secret: string }) => ({
  grant_type: 'client_credentials',
  client_id: c.clientId,
  client_secret: c.secret,
});
const NOT_FOR_API = 'This endpoint is not available to API clients.';

describe('POST /oauth/token', () => {
  it('issues a short-lived bearer token for JSON, form-encoded and HTTP Basic requests', async () => {
    const { admin, creds } = await apiCompany(t);
    const json = await tokenRequest(t, grant(creds));
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ access_token: expect.stringMatching(/^cwat_/), token_type: 'Bearer', expires_in: 900 });
    expect(json.headers.get('cache-control')).toBe('no-store');

    const form = await t.api('POST', '/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(grant(creds)).toString(),
    });
    expect(form.status).toBe(200);
    expect(form.body.token_type).toBe('Bearer');

    const basic = await t.api('POST', '/oauth/token', {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(basic.status).toBe(200);

    const tokens = [json, form, basic].map((r) => r.body.access_token);
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens)
      expect((await t.api('GET', `/wallet/account-balance/${admin.companyId}`, { token })).status).toBe(200);
  });

  it('answers a wrong secret and an unknown client alike: 401 invalid_client', async () => {
    const { creds } = await apiCompany(t);
    const wrong = await tokenRequest(t, { ...grant(creds), client_secret: `${creds.secret.slice(0, -2)}xx` });
    const unknown = await tokenRequest(t, { ...grant(creds), client_id: `cw_${randomUUID()}` });
    const basicWrong = await t.api('POST', '/oauth/token', {
      headers: { authorization: `Basic ${Buffer.from(`${creds.clientId}:nope`).toString('base64')}` },
      body: { grant_type: 'client_credentials' },
      ip: randomIp(),
    });
    for (const r of [wrong, unknown, basicWrong]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual(wrong.body);
      expect(r.headers.get('www-authenticate')).toBe(wrong.headers.get('www-authenticate'));
    }
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.body.access_token).toBeUndefined();
  });

  it('refuses a request without a grant type (invalid_request) and other grants (unsupported_grant_type)', async () => {
    const { creds } = await apiCompany(t);
    const { grant_type: _g, ...noGrant } = grant(creds);
    for (const body of [noGrant, {}]) {
      const r = await tokenRequest(t, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toBe('invalid_request');
    }
    for (const type of ['password', 'authorization_code', 'refresh_token']) {
      const r = await tokenRequest(t, { ...grant(creds), grant_type: type });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('unsupported_grant_type');
    }
  });

  it('limits repeated failures from one address (429 with retry-after), then lets the client in again', async () => {
    const { creds } = await apiCompany(t);
    startFreshWindow(t);
    const ip = randomIp();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof tokenRequest>> | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const r = await tokenRequest(t, { ...grant(creds), client_secret: 'wrong' }, ip);
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(limited, 'no 429 after 40 failures').toBeDefined();
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThan(3);
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    // even the right secret waits at that address
    expect((await tokenRequest(t, grant(creds), ip)).status).toBe(429);
    // but whoever guessed there cannot shut the integrator out of its own servers
    expect((await tokenRequest(t, grant(creds), randomIp())).status).toBe(200);
    t.clock.advance(retryAfter * 1000);
    expect((await tokenRequest(t, grant(creds), ip)).status).toBe(200);
  });

  it('twenty wrong secrets in parallel from one address: five are checked, the rest are 429; the client elsewhere gets in', async () => {
    const { creds } = await apiCompany(t);
    startFreshWindow(t);
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => tokenRequest(t, { ...grant(creds), client_secret: `wrong${i}` }, ip)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect((await tokenRequest(t, grant(creds), randomIp())).status).toBe(200);
  });

  it('stops a client id guessed from many addresses after 100 failures an hour', async () => {
    const { creds } = await apiCompany(t);
    startFreshWindow(t, t.ctx.config.rateLimit.accountWindowSeconds);
    for (let i = 0; i < 100; i++)
      expect((await tokenRequest(t, { ...grant(creds), client_secret: `wrong${i}` })).status).toBe(401);
    const limited = await tokenRequest(t, grant(creds));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(2 * 3600);
  });

  it('issues tokens that expire after 15 minutes', async () => {
    const { admin, creds } = await apiCompany(t);
    const token = await mintToken(t, creds);
    const balance = () => t.api('GET', `/wallet/account-balance/${admin.companyId}`, { token });
    t.clock.advance(14 * 60_000 + 50_000);
    expect((await balance()).status).toBe(200);
    t.clock.advance(10_001);
    const expired = await balance();
    expect(expired.status).toBe(401);
    expect((await t.api('GET', `/cards/company/${admin.companyId}`, { token })).status).toBe(401);
    expect((await balance()).status).toBe(401);
    // a new token works
    expect(
      (await t.api('GET', `/wallet/account-balance/${admin.companyId}`, { token: await mintToken(t, creds) })).status,
    ).toBe(200);
  });
});

describe('what a token may do', () => {
  it('acts for its own company only: its wallet and cards, never another company or staff', async () => {
    const a = await apiCompany(t);
    const b = await apiCompany(t);
    await fundWallet(t, a.admin.companyId!, 100_000);
    await fundWallet(t, b.admin.companyId!, 100_000);
    const bCard = (await newCard(t, b.admin)).card;
    const as = (method: string, path: string, body?: unknown) => t.api(method, path, { token: a.token, body });

    // its own wallet: the same balance the admin sees (read between two of the admin's reads)
    const before = (await t.api('GET', `/wallet/account-balance/${a.admin.companyId}`, { token: a.admin.token })).body
      .data;
    const mine = await as('GET', `/wallet/account-balance/${a.admin.companyId}`);
    const after = (await t.api('GET', `/wallet/account-balance/${a.admin.companyId}`, { token: a.admin.token })).body
      .data;
    expect(mine.status).toBe(200);
    expect([before, after]).toContain(mine.body.data);
    expect((await as('GET', `/cards/company/${a.admin.companyId}`)).status).toBe(200);

    // another company's wallet, cards and reports are not found
    for (const [method, path, body] of [
      ['GET', `/wallet/account-balance/${b.admin.companyId}`],
      ['GET', `/cards/company/${b.admin.companyId}`],
      ['GET', `/cards/${bCard.id}`],
      // issue 32: a token simulates payments on its own company's cards (while the issuer is the sandbox), not another's
      [
        'POST',
        '/sandbox/authorizations',
        { card_id: bCard.id, amount: '1.00', merchant: 'X', mcc: '5999', country: 'GH', currency: 'USD' },
      ],
      [
        'POST',
        '/sandbox/force-posts',
        { card_id: bCard.id, amount: '1.00', merchant: 'X', mcc: '5999', country: 'GH' },
      ],
      ['POST', '/cards/add-funds', { card: bCard.id, amount: '5.00' }],
      ['POST', `/cards/change-status/${bCard.id}`, { status: 'deactivate' }],
      ['DELETE', `/cards/${bCard.id}`],
      ['GET', `/reports/view-cards-transactions?card=${bCard.id}`],
      ['GET', `/reports/view-wallet-transactions?wallet=${b.admin.companyId}`],
    ] as const) {
      expect((await as(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await t.api('GET', `/cards/${bCard.id}`, { token: b.admin.token })).body.data.card).toMatchObject({
      balance: '50.00',
      state: 'Active',
    });

    // staff endpoints, and those not opened to API clients, are refused outright
    for (const [method, path, body] of [
      ['GET', '/cards'],
      ['GET', '/companies'],
      ['GET', '/wallet/list-topups'],
      ['POST', '/sandbox/holds/expire', {}],
      ['POST', `/cards/flag/${bCard.id}`, { reason: 'x' }],
      ['GET', `/company/users/${a.admin.companyId}`],
      [
        'POST',
        `/company/users/${a.admin.companyId}`,
        { first_name: 'Esi', last_name: 'Badu', phone_number: '+233245556677', email: 'x@example.com', role: 'admin' },
      ],
      ['GET', `/third-party/clients?identifier=${a.admin.companyId}`],
      ['POST', '/third-party/clients', { name: 'x', identifier: a.admin.companyId }],
      ['DELETE', `/third-party/clients/${a.admin.companyId}`],
      ['GET', '/third-party/callback-details'],
      ['POST', '/third-party/callback-request', { callback_url: 'https://example.com/hooks', active: true }],
      ['GET', '/third-party/webhook-deliveries'],
      [
        'PATCH',
        `/individuals/change-password/${a.admin.id}`,
        { old_password: 'x', password: 'Str0ng!Passw0rd2', password_confirmation: 'Str0ng!Passw0rd2' },
      ],
    ] as const) {
      const r = await as(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.message, `${method} ${path}`).toBe(NOT_FOR_API);
    }
    // the credentials survived all that
    expect((await as('GET', `/wallet/account-balance/${a.admin.companyId}`)).status).toBe(200);
  });

  it('creates cards that belong to the company, and replays with Idempotency-Key apart from the admin', async () => {
    const { admin, creds, token } = await apiCompany(t);
    await fundWallet(t, admin.companyId!, 100_000);
    const key = randomUUID();
    const body = cardBody();
    const created = await t.api('POST', '/cards', { token, body, idempotencyKey: key });
    expect(created.status).toBe(201);
    const cardId = created.body.data.card.id;
    const [row] = await t.ctx.db.select().from(cards).where(eq(cards.id, cardId));
    expect(row!.walletId).toBe(admin.companyId);
    const listed = (await t.api('GET', `/cards/company/${admin.companyId}`, { token: admin.token })).body.data;
    expect(listed.map((c: { id: string }) => c.id)).toContain(cardId);

    const replay = await t.api('POST', '/cards', { token, body, idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.card.id).toBe(cardId);
    expect((await t.api('POST', '/cards', { token, body: cardBody(), idempotencyKey: key })).status).toBe(422);

    // the same key and the same request from the admin (a session) is another principal's: done anew
    const fund = { card: cardId, amount: '5.00' };
    const fundKey = randomUUID();
    const byAdmin = await t.api('POST', '/cards/add-funds', {
      token: admin.token,
      body: fund,
      idempotencyKey: fundKey,
    });
    expect(byAdmin.status).toBe(200);
    const byApi = await t.api('POST', '/cards/add-funds', { token, body: fund, idempotencyKey: fundKey });
    expect(byApi.status).toBe(200);
    expect(byApi.headers.get('idempotent-replayed')).toBeNull();
    const againApi = await t.api('POST', '/cards/add-funds', { token, body: fund, idempotencyKey: fundKey });
    expect(againApi.headers.get('idempotent-replayed')).toBe('true');
    const againAdmin = await t.api('POST', '/cards/add-funds', {
      token: admin.token,
      body: fund,
      idempotencyKey: fundKey,
    });
    expect(againAdmin.headers.get('idempotent-replayed')).toBe('true');
    // a fresh token of the same client is the same principal
    const fresh = await t.api('POST', '/cards/add-funds', {
      token: await mintToken(t, creds),
      body: fund,
      idempotencyKey: fundKey,
    });
    expect(fresh.headers.get('idempotent-replayed')).toBe('true');
    const detail = (await t.api('GET', `/cards/${cardId}`, { token: admin.token })).body.data.card;
    expect(detail.balance).toBe('60.00');
  });

  it('stops working when the company is deactivated', async () => {
    const { admin, creds, token } = await apiCompany(t);
    const staff = await newStaff(t);
    expect((await t.api('DELETE', `/companies/${admin.companyId}`, { token: staff.token })).status).toBe(202);
    expect((await t.api('GET', `/wallet/account-balance/${admin.companyId}`, { token })).status).toBe(401);
    const refused = await tokenRequest(t, grant(creds));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    expect(
      (
        await t.api('POST', '/company/status', {
          token: staff.token,
          body: { account: admin.companyId, status: 'activate' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.api('GET', `/wallet/account-balance/${admin.companyId}`, { token: await mintToken(t, creds) })).status,
    ).toBe(200);
  });
});
