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

const lease = new Date('2026-11-27T00:02:00.000Z');
const row = (i: number, over: Record<string, unknown> = {}) => ({ i, ...ok, error: null, mails: null, ...over });
const refused = (i: number, error: string) => ({
  i,
  outcome: 'error',
  to_name: null,
  balance_before: null,
  balance_after: null,
  error,
  mails: null,
});
const outcomesOf = (settled: PromiseSettledResult<{ outcome: string; balance_after: string | null }>[]) =>
  settled.map((s) =>
    s.status === 'fulfilled' ? (s.value.balance_after ?? s.value.outcome) : (s.reason as Error).message,
  );

describe('transfers posted together', () => {
  it('posts the first ones as batches of one and those that wait meanwhile as one batch, answering each its own row', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, { lanes: 2, mailLease: () => lease });
    const posted = Array.from({ length: 7 }, (_, i) => b.post(args(i)));
    await tick();
    // Two lanes: the first two go at once, each alone; the other five wait.
    expect(db.calls.map((c) => itemsOf(c.params).map((a) => a.transfer_id))).toEqual([['t0'], ['t1']]);
    expect(db.calls[0]!.params[1]).toBe(lease.toISOString());
    db.calls[0]!.answer([row(0)]);
    await tick();
    expect(itemsOf(db.calls[2]!.params).map((a) => a.transfer_id)).toEqual(['t2', 't3', 't4', 't5', 't6']);
    db.calls[1]!.answer([row(0, { balance_after: '399' })]);
    db.calls[2]!.answer(
      [0, 1, 2, 3, 4].map((i) =>
        i === 2 ? refused(i, 'cw:insufficient_funds') : row(i, { balance_after: String(300 - i) }),
      ),
    );
    expect(outcomesOf(await Promise.allSettled(posted))).toEqual([
      '400',
      '399',
      '300',
      '299',
      'cw:insufficient_funds',
      '297',
      '296',
    ]);
  });

  it('with one lane (the default) posts the first alone and everything that waits meanwhile as the next batch', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db);
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    await tick();
    expect(db.calls).toHaveLength(1);
    // without a lease the receivers' mail is left pending for the job
    expect(db.calls[0]!.params[1]).toBeNull();
    db.calls[0]!.answer([row(0)]);
    await tick();
    expect(db.calls.map((c) => itemsOf(c.params).map((a) => a.transfer_id))).toEqual([['t0'], ['t1', 't2', 't3']]);
    db.calls[1]!.answer([0, 1, 2].map((i) => row(i)));
    expect((await Promise.all(posted)).map((p) => p.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('answers each its own claimed mail', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, { mailLease: () => lease });
    const mail = (id: string) => ({ id, type: 'transfer_received', title: 'T', body: 'B', link: null, attempts: 1 });
    const posted = Array.from({ length: 3 }, (_, i) => b.post(args(i)));
    await tick();
    db.calls[0]!.answer([row(0, { mails: [mail('n0')] })]);
    await tick();
    db.calls[1]!.answer([row(0, { mails: [mail('n1a'), mail('n1b')] }), row(1)]);
    expect((await Promise.all(posted)).map((p) => p.mails?.map((m) => m.id) ?? null)).toEqual([
      ['n0'],
      ['n1a', 'n1b'],
      null,
    ]);
  });

  it("sends the next batch before the last one's callers go on, with a pool that sends from a nextTick (as pg-pool)", async () => {
    const events: string[] = [];
    const answers: ((rows: unknown[]) => void)[] = [];
    const db = {
      query: <T>(_name: string, _text: string, params: unknown[]) =>
        new Promise<T[]>((resolve) =>
          process.nextTick(() => {
            events.push(`sent ${itemsOf(params).map((a) => a.transfer_id)}`);
            answers.push((rows) => resolve(rows as T[]));
          }),
        ),
    };
    const b = new TransferBatcher(db);
    const first = b.post(args(0)).then(() => events.push('t0 answered'));
    await tick();
    const more = [1, 2].map((i) => b.post(args(i)));
    answers[0]!([row(0)]);
    await first;
    expect(events).toEqual(['sent t0', 'sent t1,t2', 't0 answered']);
    answers[1]!([row(0), row(1)]);
    await Promise.all(more);
  });

  it('posts each again alone when the database refused the batch as a whole (it was rolled back)', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, { lanes: 2 });
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    await tick();
    db.calls[0]!.answer([row(0)]);
    await tick();
    expect(itemsOf(db.calls[2]!.params)).toHaveLength(2);
    db.calls[2]!.fail(Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' }));
    await tick();
    expect(db.calls.slice(3).map((c) => itemsOf(c.params).map((a) => a.transfer_id))).toEqual([['t2'], ['t3']]);
    for (const c of [db.calls[1]!, db.calls[3]!, db.calls[4]!]) c.answer([row(0)]);
    expect((await Promise.all(posted)).map((p) => p.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('answers a transfer alone that the database refused with that error, and a missing row with an error', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, { lanes: 2 });
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    const outcomes = Promise.allSettled(posted);
    await tick();
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' });
    db.calls[0]!.fail(deadlock);
    db.calls[1]!.answer([row(0, { outcome: 'key_taken', balance_after: null })]);
    await tick();
    // no row came for t3
    db.calls[2]!.answer([row(0)]);
    expect(outcomesOf(await outcomes)).toEqual([
      'deadlock detected',
      'key_taken',
      '400',
      'the transfer batch gave no answer for this transfer',
    ]);
    expect(db.calls).toHaveLength(3);
  });

  it('posts nothing again when the connection failed (whether the batch committed is unknown)', async () => {
    const db = fakeDatabase();
    const b = new TransferBatcher(db, { lanes: 2 });
    const posted = Array.from({ length: 4 }, (_, i) => b.post(args(i)));
    await tick();
    db.calls[0]!.answer([row(0)]);
    db.calls[1]!.answer([row(0)]);
    await tick();
    // EPIPE has the shape of a SQLSTATE, but no database said it
    const lost = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    db.calls[2]!.fail(lost);
    const settled = await Promise.allSettled(posted);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(db.calls).toHaveLength(3);
  });
});
