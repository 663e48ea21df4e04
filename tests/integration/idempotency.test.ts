import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { type TestApp, startTestApp } from './support/app';
import {
  type Actor,
  PASSWORD,
  logIn,
  mailsTo,
  newCompany,
  newCompanyMember,
  newIndividual,
  uniqueEmail,
} from './support/actors';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const HOUR = 3600_000;
const REPLAYED = 'idempotent-replayed';

const invite = (a: Actor, body: Record<string, unknown>, idempotencyKey?: string) =>
  t.api('POST', `/company/users/${a.companyId}`, { token: a.token, body, idempotencyKey });
const putMe = (a: Actor, body: Record<string, unknown>, idempotencyKey?: string, id = a.id) =>
  t.api('PUT', `/individuals/${id}`, { token: a.token, body, idempotencyKey });
const newcomer = (email = uniqueEmail('invitee')) => ({
  first_name: 'Yaw',
  last_name: 'Boateng',
  phone_number: '+233267778888',
  email,
  role: 'user',
});
const details = { first_name: 'Ama', last_name: 'Owusu', phone_number: '+233205550000' };

const rowsWithEmail = async (email: string) =>
  t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
const setFirstName = (id: string, firstName: string) =>
  t.ctx.db.update(users).set({ firstName }).where(eq(users.id, id));
const firstNameOf = async (a: Actor) =>
  (await t.api('GET', '/individuals/profile', { token: a.token })).body.data.user.first_name as string;

describe('Idempotency-Key', () => {
  it('replays an invite for the same key and body, and invites once', async () => {
    const admin = await newCompany(t);
    const key = randomUUID();
    const body = newcomer();
    const first = await invite(admin, body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get(REPLAYED)).toBeNull();
    const second = await invite(admin, body, key);
    expect(second.status).toBe(201);
    expect(second.headers.get(REPLAYED)).toBe('true');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.body).toEqual(first.body);
    expect(await rowsWithEmail(body.email)).toHaveLength(1);
    expect(mailsTo(t, body.email)).toHaveLength(1);
  });

  it('replays a profile update without doing it again', async () => {
    const a = await newIndividual(t);
    const key = randomUUID();
    const first = await putMe(a, details, key);
    expect(first.status).toBe(200);
    await setFirstName(a.id, 'Changed');
    const second = await putMe(a, details, key);
    expect(second.status).toBe(200);
    expect(second.headers.get(REPLAYED)).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await firstNameOf(a)).toBe('Changed');
  });

  it('refuses the same key with a different request (422) and does nothing', async () => {
    const admin = await newCompany(t);
    const key = randomUUID();
    expect((await invite(admin, newcomer(), key)).status).toBe(201);
    const other = newcomer();
    const res = await invite(admin, other, key);
    expect(res.status).toBe(422);
    expect(res.body.error['Idempotency-Key'][0]).toMatch(/different request/);
    expect(await rowsWithEmail(other.email)).toHaveLength(0);
    expect(mailsTo(t, other.email)).toHaveLength(0);

    // Another path is another request too.
    const elsewhere = await putMe(admin, details, key);
    expect(elsewhere.status).toBe(422);
    expect((await t.api('GET', '/individuals/profile', { token: admin.token })).body.data.user.first_name).toBe(
      'Kwame',
    );
  });

  it('keeps each user’s keys apart', async () => {
    const a = await newCompany(t);
    const b = await newCompany(t);
    const key = randomUUID();
    const ra = await invite(a, newcomer(), key);
    const rb = await invite(b, newcomer(), key);
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.headers.get(REPLAYED)).toBeNull();
    expect(rb.body.data.id).not.toBe(ra.body.data.id);

    // Two users of one company are two principals as well.
    const member = await newCompanyMember(t, a, 'admin');
    const rm = await invite(member, newcomer(), key);
    expect(rm.status).toBe(201);
    expect(rm.headers.get(REPLAYED)).toBeNull();
  });

  it('lets exactly one of 10 concurrent identical requests run; the rest are 409 or replays', async () => {
    const admin = await newCompany(t);
    const key = randomUUID();
    const body = newcomer();
    const results = await Promise.all(Array.from({ length: 10 }, () => invite(admin, body, key)));
    const executed = results.filter((r) => r.status === 201 && r.headers.get(REPLAYED) === null);
    const replays = results.filter((r) => r.status === 201 && r.headers.get(REPLAYED) === 'true');
    const conflicts = results.filter((r) => r.status === 409);
    expect(executed).toHaveLength(1);
    expect(replays.length + conflicts.length).toBe(9);
    for (const r of replays) expect(r.body).toEqual(executed[0]!.body);
    for (const r of conflicts) expect(r.body.message).toMatch(/still being processed/);
    expect(await rowsWithEmail(body.email)).toHaveLength(1);
    expect(mailsTo(t, body.email)).toHaveLength(1);

    const retry = await invite(admin, body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get(REPLAYED)).toBe('true');
    expect(retry.body).toEqual(executed[0]!.body);
  });

  it('replays a 4xx answer as well', async () => {
    const admin = await newCompany(t);
    const member = await newCompanyMember(t, admin);
    const key = randomUUID();
    const body = newcomer(member.email);
    const first = await invite(admin, body, key);
    expect(first.status).toBe(422);
    expect(first.body.error.email[0]).toBe('The email has already been taken.');
    // The address becomes free, but the key still answers what it answered.
    expect(
      (await t.api('DELETE', `/company/users/${admin.companyId}/${member.id}`, { token: admin.token })).status,
    ).toBe(202);
    const second = await invite(admin, body, key);
    expect(second.status).toBe(422);
    expect(second.headers.get(REPLAYED)).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await rowsWithEmail(member.email)).toHaveLength(1);

    const other = await newIndividual(t);
    const notYours = await putMe(admin, details, `${key}-404`, other.id);
    expect(notYours.status).toBe(404);
    const again = await putMe(admin, details, `${key}-404`, other.id);
    expect(again.status).toBe(404);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(again.body).toEqual(notYours.body);
  });

  it('remembers a key for 24 hours and forgets it after', async () => {
    const a = await newIndividual(t);
    const key = randomUUID();
    expect((await putMe(a, details, key)).status).toBe(200);
    await setFirstName(a.id, 'Changed');

    t.clock.advance(23 * HOUR);
    const day = { ...a, token: (await logIn(t, a.email, PASSWORD, a.secret)).token };
    const replay = await putMe(day, details, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get(REPLAYED)).toBe('true');
    expect(await firstNameOf(day)).toBe('Changed');

    t.clock.advance(2 * HOUR);
    const later = { ...a, token: (await logIn(t, a.email, PASSWORD, a.secret)).token };
    const fresh = await putMe(later, details, key);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get(REPLAYED)).toBeNull();
    expect(await firstNameOf(later)).toBe('Ama');
  });

  it('leaves requests without the header alone', async () => {
    const a = await newIndividual(t);
    for (let i = 0; i < 2; i++) {
      const res = await putMe(a, details);
      expect(res.status).toBe(200);
      expect(res.headers.get(REPLAYED)).toBeNull();
    }
    const admin = await newCompany(t);
    const body = newcomer();
    expect((await invite(admin, body)).status).toBe(201);
    const dup = await invite(admin, body);
    expect(dup.status).toBe(422);
    expect(dup.headers.get(REPLAYED)).toBeNull();
    expect(dup.body.error.email[0]).toBe('The email has already been taken.');
  });

  it('refuses a key longer than 255 characters with 400', async () => {
    const a = await newIndividual(t);
    const res = await putMe(a, details, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Idempotency-Key/);
    expect(await firstNameOf(a)).toBe('Abena');
  });
});
