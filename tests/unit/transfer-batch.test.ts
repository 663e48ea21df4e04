import { describe, expect, it } from 'vitest';
import { type TransferArgs, TransferBatcher } from '../../server/modules/wallet/transfer-batch';

/** A database that records each call and answers it when the test says so. */
function fakeDatabase() {
  const calls: { name: string; params: unknown[]; answer(rows: unknown[]): void; fail(err: unknown): void }[] = [];
  return {
    calls,
    query: <T>(name: string, _text: string, params: unknown[]) =>
      new Promise<T[]>((resolve, reject) =>
        calls.push({ name, params, answer: (rows) => resolve(rows as T[]), fail: reject }),
      ),
  };
}

const args = (n: number): TransferArgs => ({
  from: 'a',
  to: 'b',
  amount: 100 + n,
  transfer_id: `t${n}`,
  entry_from: `e${n}f`,
  entry_to: `e${n}t`,
  reference: `TRF-${n}`,
  description: 'Wallet transfer',
  meta: {},
  created_by: 'u',
  at: '2026-11-27T00:00:00.000Z',
  principal: null,
  key: null,
  request_hash: null,
  answer: null,
});
const ok = { outcome: 'ok', to_name: 'B', balance_before: '500', balance_after: '400' };
const tick = () => new Promise((r) => setTimeout(r, 0));
const itemsOf = (params: unknown[]) => JSON.parse(params[0] as string) as TransferArgs[];

describe('transfers posted together', () => {
  it('posts the first ones alone and those that wait meanwhile as one batch, answering each its own row', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, 2);
    const posted = Array.from({ length: 7 }, (_, i) => b.post(args(i)));
    await tick();
    // Two lanes: the first two go at once, alone; the other five wait.
    expect(db.calls.map((c) => c.name)).toEqual(['cw_transfer', 'cw_transfer']);
    expect(db.calls[0]!.params.slice(0, 4)).toEqual(['a', 'b', 100, 't0']);
    db.calls[0]!.answer([ok]);
    await tick();
    expect(db.calls.map((c) => c.name)).toEqual(['cw_transfer', 'cw_transfer', 'cw_transfer_batch']);
    expect(itemsOf(db.calls[2]!.params).map((a) => a.transfer_id)).toEqual(['t2', 't3', 't4', 't5', 't6']);
    db.calls[1]!.answer([{ ...ok, balance_after: '399' }]);
    db.calls[2]!.answer(
      [0, 1, 2, 3, 4].map((i) =>
        i === 2
          ? {
              i,
              outcome: 'error',
              to_name: null,
              balance_before: null,
              balance_after: null,
              error: 'cw:insufficient_funds',
            }
          : { i, ...ok, balance_after: String(300 - i), error: null },
      ),
    );
    const settled = await Promise.allSettled(posted);
    expect(
      settled.map((s) => (s.status === 'fulfilled' ? s.value.balance_after : (s.reason as Error).message)),
    ).toEqual(['400', '399', '300', '299', 'cw:insufficient_funds', '297', '296']);
  });

  it('with one lane (the default) posts the first alone and everything that waits meanwhile as the next batch', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db);
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    await tick();
    expect(db.calls.map((c) => c.name)).toEqual(['cw_transfer']);
    db.calls[0]!.answer([ok]);
    await tick();
    expect(db.calls.map((c) => c.name)).toEqual(['cw_transfer', 'cw_transfer_batch']);
    expect(itemsOf(db.calls[1]!.params).map((a) => a.transfer_id)).toEqual(['t1', 't2', 't3']);
    db.calls[1]!.answer([0, 1, 2].map((i) => ({ i, ...ok, error: null })));
    expect((await Promise.all(posted)).map((p) => p.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('posts each again alone when the database refused the batch as a whole (it was rolled back)', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, 2);
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    await tick();
    db.calls[0]!.answer([ok]);
    await tick();
    expect(db.calls[2]!.name).toBe('cw_transfer_batch');
    db.calls[2]!.fail(Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' }));
    await tick();
    expect(db.calls.slice(3).map((c) => [c.name, c.params[3]])).toEqual([
      ['cw_transfer', 't2'],
      ['cw_transfer', 't3'],
    ]);
    for (const c of [db.calls[1]!, db.calls[3]!, db.calls[4]!]) c.answer([ok]);
    expect((await Promise.all(posted)).map((p) => p.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('posts again alone a transfer the batch undid for another reason than a refusal; answers a missing row with an error', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, 2);
    const posted = Array.from({ length: 5 }, (_, i) => b.post(args(i)));
    const outcomes = Promise.allSettled(posted);
    await tick();
    db.calls[0]!.answer([ok]);
    db.calls[1]!.answer([ok]);
    await tick();
    expect(itemsOf(db.calls[2]!.params).map((a) => a.transfer_id)).toEqual(['t2', 't3', 't4']);
    const undone = { outcome: 'error', to_name: null, balance_before: null, balance_after: null };
    // t3 lost a deadlock (e.g. with a lone request holding its Idempotency-Key); no row came for t4
    db.calls[2]!.answer([
      { i: 0, ...ok, error: null },
      { i: 1, ...undone, error: 'deadlock detected' },
    ]);
    await tick();
    expect(db.calls.slice(3).map((c) => [c.name, c.params[3]])).toEqual([['cw_transfer', 't3']]);
    db.calls[3]!.answer([{ ...ok, outcome: 'key_taken' }]);
    const settled = await outcomes;
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.outcome : (s.reason as Error).message))).toEqual([
      'ok',
      'ok',
      'ok',
      'key_taken',
      'the transfer batch gave no answer for this transfer',
    ]);
  });

  it('posts nothing again when the connection failed (whether the batch committed is unknown)', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, 2);
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    await tick();
    db.calls[0]!.answer([ok]);
    db.calls[1]!.answer([ok]);
    await tick();
    // EPIPE has the shape of a SQLSTATE, but no database said it
    const lost = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    db.calls[2]!.fail(lost);
    const settled = await Promise.allSettled(posted);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(db.calls).toHaveLength(3);
  });
});
