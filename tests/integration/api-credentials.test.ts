import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClients, callbackEndpoints } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import { newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  apiCompany,
  generateCredentials,
  mintToken,
  startReceiver,
  thirdPartyRow,
  tokenRequest,
  verifiedCompany,
} from './support/api';
import { rows } from './support/cards';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const clients = (token: string, identifier?: string) =>
  t.api('GET', `/third-party/clients${identifier ? `?identifier=${identifier}` : ''}`, { token });
const create = (token: string, identifier: string | null, idempotencyKey?: string) =>
  t.api('POST', '/third-party/clients', {
    token,
    body: { name: 'Volta Trading Ltd', redirect_uri: 'https://volta.example.com', identifier },
    idempotencyKey,
  });
const revoke = (token: string, companyId: string) => t.api('DELETE', `/third-party/clients/${companyId}`, { token });
const balanceWith = (token: string, companyId: string) =>
  t.api('GET', `/wallet/account-balance/${companyId}`, { token });

/** Every table row whose text contains `needle` (the whole database, every column). */
async function tablesContaining(needle: string) {
  const tables = await rows(
    t,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const hits: string[] = [];
  for (const { table_name: name } of tables) {
    const [r] = await rows(
      t,
      sql`select count(*)::int as n from ${sql.identifier(String(name))} x where position(${needle} in x::text) > 0`,
    );
    if (Number(r!.n) > 0) hits.push(String(name));
  }
  return hits;
}

describe('who manages API credentials', () => {
  it('is the Company-Admin of a verified company only', async () => {
    const unverified = await newCompany(t);
    expect((await clients(unverified.token, unverified.companyId!)).status).toBe(403);
    const refused = await create(unverified.token, unverified.companyId);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/verification/i);

    const admin = await verifiedCompany(t);
    const member = await newCompanyMember(t, admin, 'user');
    expect((await clients(member.token, admin.companyId!)).status).toBe(403);
    expect((await create(member.token, admin.companyId)).status).toBe(403);
    expect((await clients(admin.token, admin.companyId!)).body.data).toEqual({
      client_id: null,
      client_secret: null,
      revoked: true,
    });

    const created = await create(admin.token, admin.companyId);
    expect(created.status).toBe(201);
    expect((await revoke(member.token, admin.companyId!)).status).toBe(403);

    // another company's identifier is not found, whatever the caller does with it
    const other = await verifiedCompany(t);
    expect((await clients(other.token, admin.companyId!)).status).toBe(404);
    expect((await create(other.token, admin.companyId)).status).toBe(404);
    expect((await revoke(other.token, admin.companyId!)).status).toBe(404);
    expect((await revoke(admin.token, randomUUID())).status).toBe(404);
    const individual = await newIndividual(t);
    expect((await create(individual.token, admin.companyId)).status).toBe(404);
    // the admin's credentials are untouched by all of this
    expect((await clients(admin.token)).body.data).toMatchObject({
      client_id: created.body.data.client_id,
      revoked: false,
    });
    expect((await t.api('GET', `/third-party/clients?identifier=${admin.companyId}`)).status).toBe(401);
  });

  it('lets staff list every client with its company, state, last use and webhook health', async () => {
    const staff = await newStaff(t);
    const { admin, creds } = await apiCompany(t);
    const quiet = await verifiedCompany(t);
    const quietCreds = await generateCredentials(t, quiet);

    const list = await t.api('GET', '/third-party/clients?per_page=2', { token: staff.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ per_page: 2, current_page: 1 });
    expect(list.body.data.length).toBeLessThanOrEqual(2);
    expect(list.body.total).toBeGreaterThanOrEqual(2);

    const used = await thirdPartyRow(t, staff, creds.clientId);
    expect(used).toMatchObject({
      company_id: admin.companyId,
      company_name: 'Volta Trading Ltd',
      state: 'Active',
      webhook: { url: null, health: 'none' },
    });
    expect(used.last_used_at).not.toBeNull(); // a token was issued
    const unused = await thirdPartyRow(t, staff, quietCreds.clientId);
    expect(unused).toMatchObject({ company_id: quiet.companyId, state: 'Active', last_used_at: null });
    expect(JSON.stringify(used)).not.toContain(creds.secret);

    const receiver = await startReceiver(t);
    try {
      expect(
        (
          await t.api('POST', '/third-party/callback-request', {
            token: admin.token,
            body: { callback_url: receiver.url, active: true },
          })
        ).status,
      ).toBe(200);
      expect((await thirdPartyRow(t, staff, creds.clientId)).webhook).toMatchObject({
        url: receiver.url,
        active: true,
        health: 'healthy',
      });
      await t.api('PUT', '/third-party/callback-status', { token: admin.token, body: { activate: false } });
      expect((await thirdPartyRow(t, staff, creds.clientId)).webhook).toMatchObject({
        active: false,
        health: 'disabled',
      });
    } finally {
      await receiver.close();
    }
    expect((await revoke(quiet.token, quiet.companyId!)).status).toBe(202);
    expect(await thirdPartyRow(t, staff, quietCreds.clientId)).toMatchObject({
      state: 'Revoked',
      webhook: { health: 'none' },
    });
    // staff cannot create or revoke a company's credentials: the company's own operations (issue 33's table)
    expect((await create(staff.token, admin.companyId)).status).toBe(403);
    expect((await revoke(staff.token, admin.companyId!)).status).toBe(403);
  });
});

describe('the client secret', () => {
  it('has at least 256 bits, is shown in the creating answer only, and is stored only as a hash', async () => {
    const admin = await verifiedCompany(t);
    const res = await create(admin.token, admin.companyId, randomUUID());
    expect(res.status).toBe(201);
    const { client_id: clientId, client_secret: secret } = res.body.data;
    expect(clientId).toEqual(expect.any(String));
    expect(secret).toMatch(/^[A-Za-z0-9_-]+$/);
    const random = secret.replace(/^[a-z]+_/, '');
    expect(Buffer.from(random, 'base64url').length * 8).toBeGreaterThanOrEqual(256);

    // never again: not in the list, not in the database, not in the logs
    const again = await clients(admin.token, admin.companyId!);
    expect(again.body.data).toMatchObject({ client_id: clientId, client_secret: null, revoked: false });
    expect(JSON.stringify(again.body)).not.toContain(random);
    expect(await tablesContaining(random)).toEqual([]);
    const [row] = await t.ctx.db.select().from(apiClients).where(eq(apiClients.clientId, clientId));
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(t.logs.join('')).not.toContain(random);
    // yet it works
    expect(await mintToken(t, { clientId, secret })).toMatch(/^cwat_/);
  });

  it('cannot be generated twice while credentials are active, even by two clicks at once', async () => {
    const admin = await verifiedCompany(t);
    const both = await Promise.all([create(admin.token, admin.companyId), create(admin.token, admin.companyId)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await create(admin.token, admin.companyId)).status).toBe(409);
    const live = await t.ctx.db.select().from(apiClients).where(eq(apiClients.companyId, admin.companyId!));
    expect(live.filter((c) => !c.revokedAt)).toHaveLength(1);
  });

  it('is validated: a name and the company are required', async () => {
    const admin = await verifiedCompany(t);
    const bad = await t.api('POST', '/third-party/clients', {
      token: admin.token,
      body: { name: ' ', identifier: 'nope' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error).sort()).toEqual(['identifier', 'name']);
  });
});

describe('revoking credentials', () => {
  it('ends their tokens at once, revokes the callback, and allows new credentials', async () => {
    const { admin, creds, token } = await apiCompany(t);
    const receiver = await startReceiver(t);
    try {
      expect(
        (
          await t.api('POST', '/third-party/callback-request', {
            token: admin.token,
            body: { callback_url: receiver.url, active: true },
          })
        ).status,
      ).toBe(200);
      expect((await balanceWith(token, admin.companyId!)).status).toBe(200);

      const res = await revoke(admin.token, admin.companyId!);
      expect(res.status).toBe(202);
      expect(res.body.data).toBe('Credentials revoked');

      const after = await balanceWith(token, admin.companyId!);
      expect(after.status).toBe(401);
      const refused = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: creds.clientId,
        client_secret: creds.secret,
      });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');

      expect((await clients(admin.token, admin.companyId!)).body.data).toEqual({
        client_id: null,
        client_secret: null,
        revoked: true,
      });
      const details = await t.api('GET', '/third-party/callback-details', { token: admin.token });
      expect(details.body.data).toMatchObject({ callback_url: null, active: false, signing_secret: null });
      const endpoints = await t.ctx.db
        .select()
        .from(callbackEndpoints)
        .where(eq(callbackEndpoints.companyId, admin.companyId!));
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({ active: false, revokedAt: expect.any(Date) });
      // nothing left to revoke
      expect((await revoke(admin.token, admin.companyId!)).status).toBe(409);

      const fresh = await generateCredentials(t, admin);
      expect(fresh.clientId).not.toBe(creds.clientId);
      expect(fresh.secret).not.toBe(creds.secret);
      const newToken = await mintToken(t, fresh);
      expect((await balanceWith(newToken, admin.companyId!)).status).toBe(200);
      expect((await balanceWith(token, admin.companyId!)).status).toBe(401);
      // the new credentials start without a callback
      expect(
        (await t.api('GET', '/third-party/callback-details', { token: admin.token })).body.data.callback_url,
      ).toBeNull();
    } finally {
      await receiver.close();
    }
  });
});
