import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@shared/money';
import { DEFAULT_SOURCES } from '../../server/modules/statements/sources';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { charge, newCard, setClock, verifyAccount } from './support/cards';
import { form } from './support/files';
import { fundWallet } from './support/money';

/**
 * The card issuer's settlement report against the ledger (issue 36's statement matching): its file has a card's
 * initial load, a later load, a clearing, a load back to the wallet when the card is deleted, and a line of its
 * own. The clock is on a day of its own, so that day's card movements are only these.
 */
let t: TestApp;
let finance: Actor;
let staff: Actor;
beforeAll(async () => {
  t = await startTestApp();
  // A day of its own: on PostgreSQL the test files share a database, and the report covers whole days.
  setClock(t, new Date(Date.UTC(1996, 0, 1, 9) + randomInt(0, 3000) * 86_400_000));
  finance = await newStaff(t, 'Finance');
  staff = await newStaff(t);
  const d = DEFAULT_SOURCES.issuer;
  const r = await t.api('PUT', '/statement-sources/issuer', {
    token: finance.token,
    body: { mapping: d.mapping, rules: { ...d.rules, tolerance: formatMoney(d.rules.tolerance) } },
  });
  expect(r.status).toBe(200);
});
afterAll(() => t.close());

async function upload(csv: string, day: string) {
  const res = await fetch(`${t.url}/api/v1/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${finance.token}` },
    body: form(
      { source: 'issuer', start_date: day, end_date: day },
      { file: { data: Buffer.from(csv), name: 'settlement.csv', type: 'text/csv' } },
    ),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('POST /statements from the card issuer', () => {
  it('matches the loads, the clearing and the balance returned on deletion; flags the line the ledger lacks', async () => {
    const a = await newIndividual(t);
    await verifyAccount(t, a);
    await fundWallet(t, a.id, 1_000_000);
    const { card } = await newCard(t, a, { purpose: 'general', card_amount: '100.00' });
    const funded = await t.api('POST', '/cards/add-funds', {
      token: a.token,
      body: { card: card.id, amount: '20.00' },
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    const auth = (await charge(t, staff, card.id, '40.00')).body.data.transaction;
    expect((await t.api('POST', `/sandbox/authorizations/${auth.id}/settle`, { token: staff.token })).status).toBe(200);
    const deleted = await t.api('DELETE', `/cards/${card.id}`, { token: a.token });
    expect(deleted.status).toBe(202);
    expect(deleted.body.data.returned).toBe('80.00');

    const now = t.clock.now();
    const day = now.toISOString().slice(0, 10);
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
    // The issuer's side: money to it is positive (a load, a merchant's settlement), money back to us negative.
    const csv = [
      'settlement_date,transaction_reference,amount',
      `${at(1)},ISS-LOAD-1,100.00`,
      `${at(2)},LOAD-2,20.00`,
      `${at(3)},${auth.issuer_reference ?? 'CLEARING'},40.00`,
      `${at(4)},UNLOAD-3,-80.00`,
      `${at(5)},FEE-ADJ-9,12.34`,
    ].join('\n');
    const r = await upload(csv, day);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({
      lines: 5,
      counts: { matched: 4, missing_ours: 1, missing_theirs: 0, open: 1 },
    });
    const open = await t.api('GET', `/statements/${r.body.data.id}/lines?open=true`, { token: finance.token });
    expect(open.body.data).toEqual([
      expect.objectContaining({ status: 'missing_ours', reference: 'FEE-ADJ-9', amount: '-12.34', ledger: [] }),
    ]);
  });
});
