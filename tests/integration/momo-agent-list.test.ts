import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { makeMomoAgent, startTopup, topupRow, walletOf, withMomoSettings } from './support/wallet';

/**
 * The momo agent's list (GET /wallet/list-momo-topups) with to_confirm=true: only what an agent can still confirm
 * (Pending, Hash-provided), each with the GHS amount the customer pays.
 */

let t: TestApp;
let agent: Actor;
let customer: Actor;
beforeAll(async () => {
  t = await startTestApp();
  [agent, customer] = await Promise.all([newIndividual(t), newIndividual(t)]);
  await makeMomoAgent(t, agent);
});
afterAll(() => t.close());

const list = (token: string | undefined, query: string) =>
  t.api('GET', `/wallet/list-momo-topups?${query}`, token ? { token } : {});

describe('GET /wallet/list-momo-topups?to_confirm=true', () => {
  it('lists only the top-ups an agent can confirm, each with its GHS amount; without it, every state', () =>
    withMomoSettings(async () => {
      const mine = async (amount: string, state?: string) => {
        const top = await startTopup(t, customer, amount, 'momo');
        const row = await topupRow(t, customer, top.reference);
        if (state) await t.ctx.db.execute(sql`update topups set state = ${state} where id = ${row.id}`);
        return { id: row.id as string, ghs: top.momo!.amount_to_send };
      };
      const pending = await mine('10.00');
      const paid = await mine('11.00', 'Hash-provided');
      const processed = await mine('12.00', 'MoMo processed');
      const denied = await mine('13.00', 'Denied');

      const res = await list(agent.token, `to_confirm=true&wallet=${walletOf(customer)}&per_page=100`);
      expect(res.status).toBe(200);
      const rows = res.body.data as Array<{ id: string; state: string; momo_amount: string }>;
      expect(rows.map((r) => r.id).sort()).toEqual([pending.id, paid.id].sort());
      expect(res.body.total).toBe(2);
      expect(rows.find((r) => r.id === pending.id)!.momo_amount).toBe(pending.ghs);
      expect(rows.find((r) => r.id === paid.id)!.momo_amount).toBe(paid.ghs);

      const all = await list(agent.token, `wallet=${walletOf(customer)}&per_page=100`);
      expect((all.body.data as Array<{ id: string }>).map((r) => r.id).sort()).toEqual(
        [pending.id, paid.id, processed.id, denied.id].sort(),
      );
      const off = await list(agent.token, `to_confirm=false&wallet=${walletOf(customer)}&per_page=100`);
      expect(off.body.total).toBe(4);

      // what the agent confirms leaves the list
      expect(
        (await t.api('POST', '/wallet/momo-confirm', { token: agent.token, body: { topup_id: paid.id } })).status,
      ).toBe(200);
      const after = await list(agent.token, `to_confirm=true&wallet=${walletOf(customer)}&per_page=100`);
      expect((after.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual([pending.id]);

      // the CSV export follows the filter
      const csv = await t.api(
        'GET',
        `/wallet/list-momo-topups?to_confirm=true&wallet=${walletOf(customer)}&format=csv`,
        {
          token: agent.token,
        },
      );
      expect(csv.status).toBe(200);
      expect(String(csv.body).trim().split('\n')).toHaveLength(2);
    }));

  it('refuses a value other than true or false on its field, and changes nothing', async () => {
    const res = await list(agent.token, 'to_confirm=yes');
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ to_confirm: ['to_confirm must be true or false'] });
  });

  it('is for momo agents and staff: 401 without a session, 403 for another customer', async () => {
    expect((await list(undefined, 'to_confirm=true')).status).toBe(401);
    const other = await newIndividual(t);
    expect((await list(other.token, 'to_confirm=true')).status).toBe(403);
    const staff = await newStaff(t);
    expect((await list(staff.token, 'to_confirm=true')).status).toBe(200);
  });
});
