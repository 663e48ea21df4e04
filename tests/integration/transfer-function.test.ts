import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema';
import { formatMoney } from '@shared/money';
import { type TestApp, startTestApp } from './support/app';
import { fundWallet } from './support/money';
import { type Actor, newIndividual } from './support/actors';
import { balanceOf } from './support/wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The raw answer, as bytes on the wire, for comparing a replay with the original. */
async function rawTransfer(from: Actor, to: string, amount: string, key: string) {
  const res = await fetch(`${t.url}/api/v1/wallet/transfer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${from.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ wallet_id: to, amount }),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
}

describe('cw_transfer, the transfer as one database function', () => {
  it('writes money as formatMoney does (cw_money), for any amount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -1e15, max: 1e15 }), { minLength: 1, maxLength: 50 }),
        async (values) => {
          for (const v of values) {
            const [row] = await t.ctx.database.query<{ m: string }>(
              'cw_money_check',
              'select cw_money($1::bigint) as m',
              [v],
            );
            expect(row!.m).toBe(formatMoney(v));
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('replays the answer byte for byte, a receiver with quotes, a backslash, a tab and non-Latin letters included', async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    const name = 'Zoë "Z" O\'Brien\\ Ọ̀ṣun\t李';
    await t.ctx.db.update(users).set({ firstName: name }).where(eq(users.id, to.id));
    await fundWallet(t, from.id, 5_000);
    const key = randomUUID();
    const first = await rawTransfer(from, to.id, '12.34', key);
    expect(first.status).toBe(200);
    expect(first.replayed).toBeNull();
    const data = JSON.parse(first.text).data;
    expect(data).toMatchObject({
      to_name: `${name} Asante`,
      amount: '12.34',
      balance_before: '50.00',
      balance_after: '37.66',
    });
    const again = await rawTransfer(from, to.id, '12.34', key);
    expect(again).toEqual({ status: 200, replayed: 'true', text: first.text });
    expect(await balanceOf(t, from)).toBe('37.66');
  });

  it('keeps nothing of a refused transfer but its answer: the claim is undone with the rest', async () => {
    const from = await newIndividual(t);
    const to = await newIndividual(t);
    await fundWallet(t, from.id, 1_000);
    const key = randomUUID();
    const refused = await rawTransfer(from, to.id, '10.01', key);
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.text).error.amount).toEqual(['Insufficient balance in your master wallet']);
    // The first answer of a key is its answer: the same request replays the refusal, moves nothing.
    await fundWallet(t, from.id, 1_000);
    expect(await rawTransfer(from, to.id, '10.01', key)).toMatchObject({
      status: 422,
      replayed: 'true',
      text: refused.text,
    });
    expect(await balanceOf(t, from)).toBe('20.00');
    // A new key is a new request.
    expect((await rawTransfer(from, to.id, '10.01', randomUUID())).status).toBe(200);
    expect(await balanceOf(t, from)).toBe('9.99');
  });
});
