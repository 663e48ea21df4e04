import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callbackEndpoints, webhookEvents } from '../../server/db/schema';
import { deliverDue } from '../../server/modules/integrations/webhooks';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompanyMember, newStaff } from './support/actors';
import {
  type Answer,
  DELIVERY_EPOCH,
  apiCompany,
  holdDeliveryLock,
  signatureValid,
  startReceiver,
  thirdPartyRow,
} from './support/api';
import { charge, newCard, relogin, setClock } from './support/cards';
import { fundWallet } from './support/money';

/** Delivery of webhooks: at least once, the Standard Webhooks retry schedule, 410, redirects, timeouts, the log. */

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
  if (mine.length)
    await t.ctx.db
      .update(webhookEvents)
      .set({ state: 'skipped' })
      .where(and(inArray(webhookEvents.companyId, mine), eq(webhookEvents.state, 'pending')));
});

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const SCHEDULE = [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];

const drain = async () => {
  while ((await deliverDue(t.ctx)) > 0) {
    /* until nothing is due */
  }
};
const eventsOf = (companyId: string) =>
  t.ctx.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.companyId, companyId))
    .orderBy(asc(webhookEvents.createdAt));
const deliveries = (a: Actor, query = '') =>
  t.api('GET', `/third-party/webhook-deliveries?per_page=100${query}`, { token: a.token });

/** A company whose callback goes to a receiver answering as told, a staff member, and one approved payment queued. */
async function withEvent(answer?: Answer) {
  const c = await apiCompany(t);
  mine.push(c.admin.companyId!);
  await fundWallet(t, c.admin.companyId!, 100_000);
  const receiver = await startReceiver(t, answer);
  closers.push(receiver.close);
  expect(
    (
      await t.api('POST', '/third-party/callback-request', {
        token: c.admin.token,
        body: { callback_url: receiver.url, active: true },
      })
    ).status,
  ).toBe(200);
  const secret: string = (await t.api('GET', '/third-party/callback-details', { token: c.admin.token })).body.data
    .signing_secret;
  const staff = await newStaff(t);
  const { card } = await newCard(t, c.admin);
  expect((await charge(t, staff, card.id, '10.00')).status).toBe(201);
  return { ...c, receiver, secret, staff, card };
}

describe('webhook delivery', () => {
  it('is due at once: the first attempt needs no waiting', async () => {
    const { admin, receiver } = await withEvent();
    const [row] = (await deliveries(admin)).body.data;
    expect(row).toMatchObject({ type: 'card.authorization.approved', state: 'pending', attempts: 0, deliveries: [] });
    expect(Date.parse(row.next_attempt_at)).toBeLessThanOrEqual(Date.parse(row.created_at) + 5 * S);
    await deliverDue(t.ctx); // the clock has not moved
    expect(receiver.received).toHaveLength(1);
    const [done] = (await deliveries(admin)).body.data;
    expect(done).toMatchObject({
      state: 'delivered',
      attempts: 1,
      next_attempt_at: null,
      deliveries: [{ attempt: 1, status_code: 204, error: null, next_retry_at: null }],
    });
  });

  it('retries a failing receiver on the Standard Webhooks schedule with the same webhook-id, then gives up', async () => {
    const { admin, receiver, secret, staff } = await withEvent((_r, res) => res.writeHead(500).end('down'));
    const [event] = await eventsOf(admin.companyId!);
    await drain();
    expect(receiver.received).toHaveLength(1);
    for (const [i, wait] of SCHEDULE.entries()) {
      t.clock.advance(wait - 2 * S);
      await drain();
      expect(receiver.received, `retry ${i + 1} came early`).toHaveLength(i + 1);
      t.clock.advance(2 * S);
      await drain();
      expect(receiver.received, `retry ${i + 1} did not come`).toHaveLength(i + 2);
    }
    expect(receiver.received).toHaveLength(1 + SCHEDULE.length);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event!.messageId]));
    // each attempt is signed anew with its own timestamp
    for (const r of receiver.received) {
      expect(
        signatureValid(
          secret,
          event!.messageId,
          String(r.headers['webhook-timestamp']),
          r.body,
          String(r.headers['webhook-signature']),
        ),
      ).toBe(true);
    }
    expect(new Set(receiver.received.map((r) => r.headers['webhook-timestamp'])).size).toBe(receiver.received.length);

    t.clock.advance(48 * H);
    await drain();
    expect(receiver.received).toHaveLength(1 + SCHEDULE.length);
    const [failed] = await eventsOf(admin.companyId!);
    expect(failed).toMatchObject({ state: 'failed', attempts: 10, deliveredAt: null });

    // the log shows every attempt, its status and when the next one was due
    await relogin(t, admin);
    const [row] = (await deliveries(admin)).body.data;
    expect(row).toMatchObject({ message_id: event!.messageId, state: 'failed', attempts: 10, next_attempt_at: null });
    expect(row.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const [i, d] of row.deliveries.entries()) {
      expect(d.status_code).toBe(500);
      if (i < SCHEDULE.length) expect(Date.parse(d.next_retry_at) - Date.parse(d.created_at)).toBe(SCHEDULE[i]);
      else expect(d.next_retry_at).toBeNull();
    }
    await relogin(t, staff);
    expect(
      (
        await thirdPartyRow(
          t,
          staff,
          (
            await t.api('GET', '/third-party/clients', { token: admin.token })
          ).body.data.client_id,
        )
      ).webhook,
    ).toMatchObject({
      health: 'failing',
      failed_events: 1,
      last_status: 500,
    });
  });

  it('stops at once and turns the callback off when the receiver answers 410 Gone', async () => {
    const { admin, receiver, staff, card } = await withEvent((_r, res) => res.writeHead(410).end());
    await drain();
    t.clock.advance(25 * H);
    await drain();
    expect(receiver.received).toHaveLength(1);
    expect((await eventsOf(admin.companyId!))[0]).toMatchObject({ state: 'failed', attempts: 1 });
    await relogin(t, admin);
    const details = (await t.api('GET', '/third-party/callback-details', { token: admin.token })).body.data;
    expect(details).toMatchObject({
      callback_url: receiver.url,
      active: false,
      disabled_reason: expect.stringContaining('410'),
    });
    await relogin(t, staff);
    await charge(t, staff, card.id, '1.00');
    expect(await eventsOf(admin.companyId!)).toHaveLength(1); // nothing queued for a disabled callback

    // turning it back on clears the reason and events flow again
    expect(
      (await t.api('PUT', '/third-party/callback-status', { token: admin.token, body: { activate: true } })).status,
    ).toBe(200);
    expect((await t.api('GET', '/third-party/callback-details', { token: admin.token })).body.data).toMatchObject({
      active: true,
      disabled_reason: null,
    });
    receiver.answer((_r, res) => res.writeHead(200).end());
    await charge(t, staff, card.id, '1.00');
    await drain();
    expect(receiver.received).toHaveLength(2);
  });

  it('does not follow redirects: a 3xx is a failed attempt, retried later', async () => {
    let target = '';
    const { admin, receiver } = await withEvent((r, res) => {
      if (r.path === '/hooks') res.writeHead(302, { location: target }).end();
      else res.writeHead(204).end();
    });
    target = `${receiver.base}/elsewhere`;
    await drain();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks']);
    const [row] = (await deliveries(admin)).body.data;
    expect(row).toMatchObject({ state: 'pending', attempts: 1, deliveries: [{ attempt: 1, status_code: 302 }] });
    expect(Date.parse(row.next_attempt_at) - Date.parse(row.deliveries[0].created_at)).toBe(5 * S);
  });

  it('counts a receiver that does not answer in time as a failure', { timeout: 60_000 }, async () => {
    const { admin, receiver } = await withEvent(() => {
      /* never answers */
    });
    const started = Date.now();
    await deliverDue(t.ctx); // once: ten seconds later its 5 s retry is already due
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    expect(receiver.received).toHaveLength(1);
    await relogin(t, admin);
    const [row] = (await deliveries(admin)).body.data;
    expect(row).toMatchObject({
      state: 'pending',
      attempts: 1,
      deliveries: [{ attempt: 1, status_code: null, error: expect.stringMatching(/timed out/i) }],
    });
    expect(row.deliveries[0].next_retry_at).not.toBeNull();
  });
});

describe('the delivery log', () => {
  it('shows the Company-Admin their company only, and staff any company', async () => {
    const a = await withEvent();
    const b = await withEvent((_r, res) => res.writeHead(503).end());
    await drain();
    const ids = async (actor: Actor, q = '') => {
      const res = await deliveries(actor, q);
      expect(res.status).toBe(200);
      return res.body.data.map((e: { message_id: string }) => e.message_id);
    };
    const [aEvent] = await eventsOf(a.admin.companyId!);
    const [bEvent] = await eventsOf(b.admin.companyId!);
    expect(await ids(a.admin)).toEqual([aEvent!.messageId]);
    expect(await ids(b.admin)).toEqual([bEvent!.messageId]);
    // a company admin cannot ask for another company
    expect(await ids(a.admin, `&company_id=${b.admin.companyId}`)).toEqual([aEvent!.messageId]);
    expect(await ids(b.admin, '&state=pending')).toEqual([bEvent!.messageId]);
    expect(await ids(b.admin, '&state=delivered')).toEqual([]);

    expect(await ids(a.staff, `&company_id=${b.admin.companyId}`)).toEqual([bEvent!.messageId]);
    const all = await deliveries(a.staff);
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    // Every company's total, by state or not, is the kept count's (migration 0054): the same as counting the events.
    for (const state of [undefined, 'pending', 'delivered', 'failed']) {
      const [row] = await t.ctx.db
        .select({ n: count() })
        .from(webhookEvents)
        .where(state ? eq(webhookEvents.state, state) : undefined);
      expect([state, (await deliveries(a.staff, state ? `&state=${state}` : '')).body.total]).toEqual([state, row!.n]);
    }

    const member = await newCompanyMember(t, a.admin, 'user');
    expect((await deliveries(member)).status).toBe(403);
    expect((await t.api('GET', '/third-party/webhook-deliveries', { token: a.token })).status).toBe(403);
    expect((await t.api('GET', '/third-party/webhook-deliveries')).status).toBe(401);
    const [endpoint] = await t.ctx.db
      .select()
      .from(callbackEndpoints)
      .where(eq(callbackEndpoints.companyId, b.admin.companyId!));
    expect(endpoint!.active).toBe(true); // 5xx is retried, not a reason to turn the callback off
  });
});
