import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { charge, newCard } from './support/cards';
import { fundWallet } from './support/money';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setup(over: Record<string, unknown> = {}) {
  const a = await newIndividual(t);
  const staff = await newStaff(t);
  await fundWallet(t, a.id, 100_000);
  const { card } = await newCard(t, a, { card_amount: '20.00', ...over });
  return { a, staff, card };
}

const toggle = (who: Actor, what: string, id: string, body: unknown = { reason: 'Routine review' }) =>
  t.api('POST', `/cards/${what}/${id}`, { token: who.token, body });
const changeStatus = (who: Actor, id: string, status: string) =>
  t.api('POST', `/cards/change-status/${id}`, { token: who.token, body: { status } });
const asStaff = async (staff: Actor, id: string) =>
  (await t.api('GET', `/cards/${id}`, { token: staff.token })).body.data.card;

describe('flag and suspend (staff toggles with a reason)', () => {
  it('records the reason and times, blocks payments while on, and restores them when lifted', async () => {
    const { staff, card } = await setup();
    const flagged = await toggle(staff, 'flag', card.id, { reason: 'Chargeback investigation' });
    expect(flagged.status).toBe(200);
    expect(flagged.body.data.message).toBe('Card flagged.');
    expect(await asStaff(staff, card.id)).toMatchObject({
      flagged: true,
      flag_reason: 'Chargeback investigation',
      flagged_at: expect.stringMatching(new RegExp(`^${t.clock.now().toISOString().slice(0, 10)}T`)),
    });
    expect((await toggle(staff, 'flag', card.id)).status).toBe(409);
    expect((await toggle(staff, 'unflag', card.id, { reason: 'Cleared' })).status).toBe(200);
    expect(await asStaff(staff, card.id)).toMatchObject({ flagged: false });
    expect((await toggle(staff, 'unflag', card.id)).status).toBe(409);

    expect((await toggle(staff, 'suspend', card.id, { reason: 'KYC refresh' })).status).toBe(200);
    const suspended = await asStaff(staff, card.id);
    expect(suspended).toMatchObject({ suspended: true, suspend_reason: 'KYC refresh', unsuspend_at: null });
    expect(suspended.suspend_at).toEqual(expect.any(String));
    expect((await charge(t, staff, card.id, '1.00')).body.data.decline_reason).toMatch(/suspended/);
    expect((await toggle(staff, 'unsuspend', card.id, { reason: 'Done' })).status).toBe(200);
    const back = await asStaff(staff, card.id);
    expect(back).toMatchObject({ suspended: false });
    expect(back.unsuspend_at).toEqual(expect.any(String));
    expect((await charge(t, staff, card.id, '1.00')).body.data.approved).toBe(true);
  });

  it('need a reason (422) and staff (403 for customers); an unknown card is 404', async () => {
    const { a, staff, card } = await setup();
    for (const what of ['flag', 'unflag', 'suspend', 'unsuspend']) {
      for (const body of [{}, { reason: '   ' }]) {
        const res = await toggle(staff, what, card.id, body);
        expect(res.status, what).toBe(422);
        expect(res.body.error.reason).toEqual(['A reason is required']);
      }
      expect((await toggle(a, what, card.id)).status, what).toBe(403);
      expect((await toggle(staff, what, randomUUID())).status, what).toBe(404);
    }
    expect(await asStaff(staff, card.id)).toMatchObject({
      flagged: false,
      suspended: false,
      flag_reason: null,
      suspend_reason: null,
    });
  });

  it('a deleted card cannot be flagged or suspended (409, nothing changes); a mark it had can still be cleared', async () => {
    const { a, staff, card } = await setup();
    expect((await toggle(staff, 'flag', card.id)).status).toBe(200);
    expect((await t.api('DELETE', `/cards/${card.id}`, { token: a.token })).status).toBe(202);
    const suspend = await toggle(staff, 'suspend', card.id);
    expect(suspend.status).toBe(409);
    expect(suspend.body.message).toBe('The card is deleted: it cannot be suspended.');
    expect((await toggle(staff, 'unflag', card.id, { reason: 'Closed' })).status).toBe(200);
    const flag = await toggle(staff, 'flag', card.id);
    expect(flag.status).toBe(409);
    expect(flag.body.message).toBe('The card is deleted: it cannot be flagged.');
    expect(await asStaff(staff, card.id)).toMatchObject({ flagged: false, suspended: false });
  });
});

describe('freeze and unfreeze', () => {
  it('change-status freezes and unfreezes a premium card (202), for its owner and staff; twice is 409', async () => {
    const { a, staff, card } = await setup();
    const frozen = await changeStatus(a, card.id, 'deactivate');
    expect(frozen.status).toBe(202);
    expect(frozen.body.data.message).toMatch(/frozen/i);
    expect((await asStaff(staff, card.id)).state).toBe('Deactivated');
    expect((await changeStatus(a, card.id, 'deactivate')).status).toBe(409);
    expect((await charge(t, staff, card.id, '1.00')).body.data.decline_reason).toMatch(/frozen/);
    expect((await changeStatus(staff, card.id, 'activate')).status).toBe(202);
    expect((await asStaff(staff, card.id)).state).toBe('Active');
    expect((await charge(t, staff, card.id, '1.00')).body.data.approved).toBe(true);
    const bad = await changeStatus(a, card.id, 'pause');
    expect(bad.status).toBe(422);
    expect(bad.body.error.status).toEqual(['Status must be activate or deactivate']);
  });

  it('refuses to freeze a basic card (422)', async () => {
    const { a, staff, card } = await setup({ type: 'basic' });
    const res = await changeStatus(a, card.id, 'deactivate');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/Basic cards cannot be frozen/);
    expect((await asStaff(staff, card.id)).state).toBe('Active');
  });

  it('change-status-token: staff freeze and unfreeze by the issuer token that GET /cards/{id} shows them (202)', async () => {
    const { a, staff, card } = await setup();
    const token = (await asStaff(staff, card.id)).card_token as string;
    expect(token).toMatch(/\S/);
    expect((await t.api('GET', `/cards/${card.id}`, { token: a.token })).body.data.card).not.toHaveProperty(
      'card_token',
    );
    const byToken = (who: Actor, body: Record<string, unknown>) =>
      t.api('POST', '/cards/change-status-token', { token: who.token, body });

    expect((await byToken(a, { card_token: token, status: 'deactivate' })).status).toBe(403);
    const off = await byToken(staff, { card_token: token, status: 'deactivate', wallet_id: a.id });
    expect(off.status).toBe(202);
    expect((await asStaff(staff, card.id)).state).toBe('Deactivated');
    expect((await charge(t, staff, card.id, '1.00')).body.data.approved).toBe(false);
    expect((await byToken(staff, { card_token: token, status: 'activate' })).status).toBe(202);
    expect((await charge(t, staff, card.id, '1.00')).body.data.approved).toBe(true);

    for (const [body, field] of [
      [{ card_token: 'sbx_card_nope', status: 'deactivate' }, 'card_token'],
      [{ card_token: token, status: 'deactivate', wallet_id: randomUUID() }, 'card_token'],
      [{ status: 'deactivate' }, 'card_token'],
      [{ card_token: token }, 'status'],
    ] as const) {
      const res = await byToken(staff, body);
      expect(res.status).toBe(422);
      expect(res.body.error[field]).toBeDefined();
    }
    expect((await asStaff(staff, card.id)).state).toBe('Active');
  });
});
