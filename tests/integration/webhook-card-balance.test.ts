import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../server/db/schema';
import { deliverDue } from '../../server/modules/integrations/webhooks';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newStaff } from './support/actors';
import { DELIVERY_EPOCH, apiCompany, holdDeliveryLock, startReceiver } from './support/api';
import { charge, newCard, setClock } from './support/cards';
import { fundWallet } from './support/money';
import { formatMoney, centsOf } from '@shared/money';

/**
 * Every card webhook carries `available_balance`: the card's available balance after the event,
 * as the integrator's receiver gets it over HTTP, equal to what the API shows for the card then.
 */
let t: TestApp;
let unlock: () => Promise<void>;
const companies: string[] = [];
beforeAll(async () => {
  unlock = await holdDeliveryLock();
  t = await startTestApp();
  setClock(t, DELIVERY_EPOCH);
});
afterAll(async () => {
  // what was left pending is not another file's business (the database may be shared)
  if (companies.length)
    await t.ctx.db
      .update(webhookEvents)
      .set({ state: 'skipped' })
      .where(and(inArray(webhookEvents.companyId, companies), eq(webhookEvents.state, 'pending')));
  await t.close();
  await unlock();
});

describe('card webhook payloads', () => {
  it('carry the card available balance after each event, for every kind of card event', async () => {
    const { admin } = await apiCompany(t);
    companies.push(admin.companyId!);
    await fundWallet(t, admin.companyId!, 100_000);
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
      const staff: Actor = await newStaff(t);
      const { card } = await newCard(t, admin, { card_amount: '50.00' });
      const start = centsOf(card.available);
      expect(start).toBeGreaterThan(0);

      const shown = async () =>
        (await t.api('GET', `/cards/${card.id}`, { token: admin.token })).body.data.card.available as string;
      /** Runs an action, delivers what it queued and answers the one payload the receiver got. */
      async function event(type: string, action: () => Promise<{ status: number; body: unknown }>, expected: number) {
        const before = receiver.received.length;
        const res = await action();
        expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        while ((await deliverDue(t.ctx)) > 0) {
          /* until nothing is due */
        }
        expect(receiver.received.length, type).toBe(before + 1);
        const payload = JSON.parse(receiver.received.at(-1)!.body);
        expect(payload.type).toBe(type);
        expect(payload.data, type).toMatchObject({ card_id: card.id, available_balance: formatMoney(expected) });
        expect(payload.data.available_balance, type).toMatch(/^\d+\.\d{2}$/);
        return res as { status: number; body: any };
      }

      const approved = await event(
        'card.authorization.approved',
        () => charge(t, staff, card.id, '10.00'),
        start - 1000,
      );
      expect(await shown()).toBe(formatMoney(start - 1000));
      await event('card.authorization.declined', () => charge(t, staff, card.id, '900.00'), start - 1000);
      await event(
        'card.authorization.reversed',
        () =>
          t.api('POST', `/sandbox/authorizations/${approved.body.data.transaction.id}/reverse`, { token: staff.token }),
        start,
      );
      const second = await event('card.authorization.approved', () => charge(t, staff, card.id, '4.00'), start - 400);
      await event(
        'card.authorization.settled',
        () =>
          t.api('POST', `/sandbox/authorizations/${second.body.data.transaction.id}/settle`, { token: staff.token }),
        start - 400,
      );
      expect(await shown()).toBe(formatMoney(start - 400));

      // money added to the card (no event of its own) shows in the next event's balance
      expect(
        (await t.api('POST', '/cards/add-funds', { token: admin.token, body: { card: card.id, amount: '20.00' } }))
          .status,
      ).toBe(200);
      const funded = centsOf(await shown());
      expect(funded).toBe(start - 400 + 2000);
      await event(
        'card.frozen',
        () => t.api('POST', `/cards/change-status/${card.id}`, { token: admin.token, body: { status: 'deactivate' } }),
        funded,
      );
      await event('card.authorization.declined', () => charge(t, staff, card.id, '1.00'), funded);
      await event(
        'card.unfrozen',
        () => t.api('POST', `/cards/change-status/${card.id}`, { token: admin.token, body: { status: 'activate' } }),
        funded,
      );
      for (const what of ['flag', 'unflag', 'suspend', 'unsuspend'] as const) {
        const type = {
          flag: 'card.flagged',
          unflag: 'card.unflagged',
          suspend: 'card.suspended',
          unsuspend: 'card.unsuspended',
        }[what];
        await event(
          type,
          () => t.api('POST', `/cards/${what}/${card.id}`, { token: staff.token, body: { reason: `Review ${what}` } }),
          funded,
        );
      }
      // deleting returns the balance to the wallet: nothing is left on the card
      const deleted = await event(
        'card.deleted',
        () => t.api('DELETE', `/cards/${card.id}`, { token: admin.token }),
        0,
      );
      expect(JSON.parse(receiver.received.at(-1)!.body).data.remaining).toBe(formatMoney(funded));
      expect(deleted.status).toBeLessThan(300);
    } finally {
      await receiver.close();
    }
  });
});
