import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callbackEndpoints, webhookEvents } from '../../server/db/schema';
import { deliverDue, emitEvent } from '../../server/modules/integrations/webhooks';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompanyMember, newIndividual, newStaff } from './support/actors';
import {
  DELIVERY_EPOCH,
  apiCompany,
  generateCredentials,
  holdDeliveryLock,
  signatureValid,
  startReceiver,
  verifiedCompany,
} from './support/api';
import { charge, newCard, setClock } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
let unlock: () => Promise<void>;
beforeAll(async () => {
  unlock = await holdDeliveryLock();
  t = await startTestApp();
  setClock(t, DELIVERY_EPOCH);
});
afterAll(async () => {
  await t.close();
  await unlock();
});

const closers: Array<() => Promise<void>> = [];
const mine: string[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  // what a test left pending is not another test's business (the database may be shared)
  if (mine.length)
    await t.ctx.db
      .update(webhookEvents)
      .set({ state: 'skipped' })
      .where(and(inArray(webhookEvents.companyId, mine), eq(webhookEvents.state, 'pending')));
});

const save = (a: Actor, callback_url: string, active = true) =>
  t.api('POST', '/third-party/callback-request', { token: a.token, body: { callback_url, active } });
const setActive = (a: Actor, activate: boolean) =>
  t.api('PUT', '/third-party/callback-status', { token: a.token, body: { activate } });
const details = (a: Actor) => t.api('GET', '/third-party/callback-details', { token: a.token });
const revokeCallback = (a: Actor) => t.api('DELETE', '/third-party/callback-revoke', { token: a.token });
const eventsOf = (companyId: string) =>
  t.ctx.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.companyId, companyId))
    .orderBy(asc(webhookEvents.createdAt));
const drain = async () => {
  while ((await deliverDue(t.ctx)) > 0) {
    /* until nothing is due */
  }
};

/** A funded, verified company with credentials, a receiver and an active callback to it. */
async function hooked() {
  const c = await apiCompany(t);
  mine.push(c.admin.companyId!);
  await fundWallet(t, c.admin.companyId!, 100_000);
  const receiver = await startReceiver(t);
  closers.push(receiver.close);
  expect((await save(c.admin, receiver.url)).status).toBe(200);
  const secret: string = (await details(c.admin)).body.data.signing_secret;
  return { ...c, receiver, secret };
}

describe('the callback URL', () => {
  it('follows the state rules: save active or not, activate, deactivate, revoke', async () => {
    const admin = await verifiedCompany(t);
    const url = 'http://127.0.0.1:9/hooks';
    expect((await save(admin, url)).status).toBe(409); // credentials first
    await generateCredentials(t, admin);
    expect((await details(admin)).body.data).toEqual({
      callback_url: null,
      active: false,
      signing_secret: null,
      disabled_reason: null,
    });
    expect((await setActive(admin, true)).status).toBe(404);
    expect((await revokeCallback(admin)).status).toBe(404);
    expect(
      (await t.api('POST', '/third-party/callback-request', { token: admin.token, body: { active: true } })).body.error
        .callback_url,
    ).toBeDefined();
    expect((await save(admin, 'not a url')).body.error.callback_url).toBeDefined();

    const saved = await save(admin, url, false);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toBe('Callback Url set successfully');
    const first = (await details(admin)).body.data;
    expect(first).toEqual({
      callback_url: url,
      active: false,
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      disabled_reason: null,
    });
    expect(Buffer.from(first.signing_secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const on = await setActive(admin, true);
    expect(on.status).toBe(200);
    expect(on.body.data).toBe('Callback Url activated successfully');
    expect((await details(admin)).body.data.active).toBe(true);
    const off = await setActive(admin, false);
    expect(off.body.data).toBe('Callback Url deactivated successfully');
    expect((await details(admin)).body.data.active).toBe(false);

    // saving again changes the URL and keeps the signing secret
    expect((await save(admin, 'http://127.0.0.1:9/other', true)).status).toBe(200);
    expect((await details(admin)).body.data).toMatchObject({
      callback_url: 'http://127.0.0.1:9/other',
      active: true,
      signing_secret: first.signing_secret,
    });

    const revoked = await revokeCallback(admin);
    expect(revoked.status).toBe(202);
    expect(revoked.body.data).toBe('Callback Url revoked successfully');
    expect((await details(admin)).body.data).toEqual({
      callback_url: null,
      active: false,
      signing_secret: null,
      disabled_reason: null,
    });
    expect((await setActive(admin, true)).status).toBe(404);
    expect((await revokeCallback(admin)).status).toBe(404);
    // a new callback gets a new secret
    expect((await save(admin, url)).status).toBe(200);
    expect((await details(admin)).body.data.signing_secret).not.toBe(first.signing_secret);
  });

  it('keeps one callback per company when two saves race', async () => {
    const admin = await verifiedCompany(t);
    await generateCredentials(t, admin);
    const live = () =>
      t.ctx.db
        .select()
        .from(callbackEndpoints)
        .where(and(eq(callbackEndpoints.companyId, admin.companyId!), isNull(callbackEndpoints.revokedAt)));
    for (let round = 0; round < 3; round++) {
      const all = await Promise.all(['a', 'b', 'c'].map((p) => save(admin, `http://127.0.0.1:9/${p}`)));
      expect(all.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await live()).toHaveLength(1);
      expect((await revokeCallback(admin)).status).toBe(202);
      expect(await live()).toHaveLength(0);
    }
  });

  it('is managed and read by the Company-Admin only: the signing secret is theirs alone', async () => {
    const { admin, token } = await apiCompany(t);
    expect((await save(admin, 'http://127.0.0.1:9/hooks')).status).toBe(200);
    const member = await newCompanyMember(t, admin, 'user');
    const staff = await newStaff(t);
    for (const who of [member.token, token]) {
      expect((await t.api('GET', '/third-party/callback-details', { token: who })).status).toBe(403);
      expect(
        (
          await t.api('POST', '/third-party/callback-request', {
            token: who,
            body: { callback_url: 'http://127.0.0.1:9/x', active: true },
          })
        ).status,
      ).toBe(403);
      expect(
        (await t.api('PUT', '/third-party/callback-status', { token: who, body: { activate: false } })).status,
      ).toBe(403);
      expect((await t.api('DELETE', '/third-party/callback-revoke', { token: who })).status).toBe(403);
    }
    // a company's own operation: staff read callbacks on the third party's drawer, never the secret
    const staffView = await t.api('GET', '/third-party/callback-details', { token: staff.token });
    expect(staffView.status).toBe(403);
    expect(JSON.stringify(staffView.body)).not.toContain('whsec_');
    expect((await details(admin)).body.data).toMatchObject({ callback_url: 'http://127.0.0.1:9/hooks', active: true });
  });
});

describe('card events', () => {
  it('are queued with the card event itself, for every kind of card event', async () => {
    const { admin } = await hooked();
    const staff = await newStaff(t);
    const { card } = await newCard(t, admin);
    const companyId = admin.companyId!;
    expect(await eventsOf(companyId)).toEqual([]); // creating a card is not a card-transaction event
    const queued: string[] = [];
    /** Runs an action and checks the event is already in the outbox when the answer arrives. */
    async function expectEvent(
      type: string,
      action: () => Promise<{ status: number; body: any }>,
      data: Record<string, unknown> = {},
    ) {
      const res = await action();
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      queued.push(type);
      const events = await eventsOf(companyId);
      expect(events.map((e) => e.type).sort()).toEqual([...queued].sort());
      const event = events.find((e) => e.state === 'pending')!;
      expect(event.type).toBe(type);
      expect(event.payload).toMatchObject({
        type,
        timestamp: expect.any(String),
        data: { card_id: card.id, last4: card.last4, nickname: card.nickname, ...data },
      });
      // its first attempt is due at once
      expect(event.nextAttemptAt.getTime()).toBeLessThanOrEqual(event.createdAt.getTime() + 5_000);
      // parked, so that no delivery run (this file's or another's on a shared database) changes it
      await t.ctx.db.update(webhookEvents).set({ state: 'skipped' }).where(eq(webhookEvents.id, event.id));
      return res;
    }
    const approved = await expectEvent('card.authorization.approved', () => charge(t, staff, card.id, '10.00'), {
      amount: '10.00',
      merchant: 'Jumia Ghana',
      currency: 'USD',
    });
    await expectEvent('card.authorization.declined', () => charge(t, staff, card.id, '900.00'), {
      amount: '900.00',
      decline_reason: 'Insufficient funds on the card.',
    });
    await expectEvent(
      'card.authorization.reversed',
      () =>
        t.api('POST', `/sandbox/authorizations/${approved.body.data.transaction.id}/reverse`, { token: staff.token }),
      {
        transaction_id: approved.body.data.transaction.id,
        amount: '10.00',
      },
    );
    const second = await expectEvent('card.authorization.approved', () => charge(t, staff, card.id, '4.00'));
    await expectEvent(
      'card.authorization.settled',
      () => t.api('POST', `/sandbox/authorizations/${second.body.data.transaction.id}/settle`, { token: staff.token }),
      { amount: '4.00' },
    );
    await expectEvent('card.frozen', () =>
      t.api('POST', `/cards/change-status/${card.id}`, { token: admin.token, body: { status: 'deactivate' } }),
    );
    await expectEvent('card.authorization.declined', () => charge(t, staff, card.id, '1.00'), {
      decline_reason: 'The card is frozen. Unfreeze it to pay with it.',
    });
    await expectEvent('card.unfrozen', () =>
      t.api('POST', `/cards/change-status/${card.id}`, { token: admin.token, body: { status: 'activate' } }),
    );
    for (const what of ['flag', 'unflag', 'suspend', 'unsuspend'] as const) {
      const type = {
        flag: 'card.flagged',
        unflag: 'card.unflagged',
        suspend: 'card.suspended',
        unsuspend: 'card.unsuspended',
      }[what];
      await expectEvent(
        type,
        () => t.api('POST', `/cards/${what}/${card.id}`, { token: staff.token, body: { reason: `Review ${what}` } }),
        { reason: `Review ${what}` },
      );
    }
    await expectEvent('card.deleted', () => t.api('DELETE', `/cards/${card.id}`, { token: admin.token }), {
      outcome: 'refund',
    });

    // each has its own webhook id
    const events = await eventsOf(companyId);
    expect(new Set(events.map((e) => e.messageId)).size).toBe(events.length);
  });

  it('are not queued when what they report did not happen, or without an active callback', async () => {
    const { admin, receiver } = await hooked();
    const staff = await newStaff(t);
    const { card } = await newCard(t, admin);
    const companyId = admin.companyId!;
    const held = await charge(t, staff, card.id, '5.00');
    const count = async () => (await eventsOf(companyId)).length;
    expect(await count()).toBe(1);
    // refused actions queue nothing: deleting with a payment held, unfreezing an active card
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: admin.token })).status).toBe(409);
    expect(
      (await t.api('POST', `/cards/change-status/${card.id}`, { token: admin.token, body: { status: 'activate' } }))
        .status,
    ).toBe(409);
    expect(await count()).toBe(1);
    // an event queued in a transaction that rolls back is gone with it
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await emitEvent(tx, companyId, 'card.test', { card_id: card.id }, t.ctx.now());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await eventsOf(companyId)).map((e) => e.type)).toEqual(['card.authorization.approved']);

    // a deactivated callback gets nothing queued, and what was queued before is skipped
    expect((await setActive(admin, false)).status).toBe(200);
    await drain();
    expect((await eventsOf(companyId))[0]!.state).toBe('skipped');
    expect(receiver.received).toHaveLength(0);
    expect(
      (await t.api('POST', `/sandbox/authorizations/${held.body.data.transaction.id}/settle`, { token: staff.token }))
        .status,
    ).toBe(200);
    await charge(t, staff, card.id, '1.00');
    expect(await count()).toBe(1);
    expect((await setActive(admin, true)).status).toBe(200);
    await charge(t, staff, card.id, '1.00');
    expect(await count()).toBe(2);

    // a company saved inactive, a company without a callback, an individual: nothing
    const quiet = await apiCompany(t);
    await fundWallet(t, quiet.admin.companyId!, 100_000);
    expect((await save(quiet.admin, receiver.url, false)).status).toBe(200);
    const bare = await verifiedCompany(t);
    await fundWallet(t, bare.companyId!, 100_000);
    const person = await newIndividual(t);
    await fundWallet(t, person.id, 100_000);
    for (const owner of [quiet.admin, bare, person]) {
      const c = (await newCard(t, owner, { purpose: 'general' })).card;
      await charge(t, staff, c.id, '1.00');
      await charge(t, staff, c.id, '999.00');
      expect(await eventsOf(owner.companyId ?? owner.id)).toEqual([]);
    }
  });
});

describe('delivery', () => {
  it('signs with Standard Webhooks headers; a changed id, timestamp or body fails the check', async () => {
    const { admin, receiver, secret } = await hooked();
    const staff = await newStaff(t);
    const { card } = await newCard(t, admin);
    await charge(t, staff, card.id, '12.34', 'Melcom Accra');
    const [event] = await eventsOf(admin.companyId!);
    // Oldest first, twenty at a time: on PostgreSQL other test files' due events may come before this one.
    while (receiver.received.length < 1 && (await deliverDue(t.ctx)) > 0);
    expect(receiver.received).toHaveLength(1);
    const r = receiver.received[0]!;
    const id = String(r.headers['webhook-id']);
    const ts = String(r.headers['webhook-timestamp']);
    const sig = String(r.headers['webhook-signature']);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(id).toBe(event!.messageId);
    expect(id).toMatch(/^msg_/);
    expect(ts).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(ts) - r.at / 1000)).toBeLessThan(5);
    expect(sig).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(r.body)).toMatchObject({
      type: 'card.authorization.approved',
      data: { card_id: card.id, amount: '12.34', merchant: 'Melcom Accra' },
    });

    expect(signatureValid(secret, id, ts, r.body, sig)).toBe(true);
    expect(signatureValid(secret, `${id}x`, ts, r.body, sig)).toBe(false);
    expect(signatureValid(secret, id, String(Number(ts) + 1), r.body, sig)).toBe(false);
    expect(signatureValid(secret, id, ts, r.body.replace('12.34', '99.34'), sig)).toBe(false);
    expect(signatureValid(secret, id, ts, `${r.body} `, sig)).toBe(false);
    const other = (await details((await hooked()).admin)).body.data.signing_secret;
    expect(signatureValid(other, id, ts, r.body, sig)).toBe(false);

    const [done] = await eventsOf(admin.companyId!);
    expect(done).toMatchObject({ state: 'delivered', attempts: 1, deliveredAt: expect.any(Date) });
    await drain();
    expect(receiver.received).toHaveLength(1); // delivered once, not again
  });
});
