import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import type { TransferArgs } from '../../server/modules/wallet/transfer-batch';
import { newIndividual } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { fundWallet } from './support/money';

/**
 * Two callers post to the ledger: post() (server/modules/ledger/post.ts) and cw_transfer_batch for wallet transfers.
 * Both write through cw_post_transfers (server/db/sql/ledger.sql); here the same transfers, posted each way between
 * wallets in the same standing, leave the same rows, ids, references and times aside.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Side {
  /** the wallet with the lower account id, and the other: entries are written in account-id order */
  lo: { owner: string; account: string };
  hi: { owner: string; account: string };
}

/** Two Individuals' wallets, named by the order of their account ids: lo holds 100.00, hi 5.00. */
async function side(): Promise<Side> {
  const wallets = [];
  for (let i = 0; i < 2; i++) {
    const owner = (await newIndividual(t)).id;
    wallets.push({ owner, account: (await findWallet(t.ctx.db, owner))!.id });
  }
  const [lo, hi] = wallets.sort((a, b) => (a.account < b.account ? -1 : 1));
  await fundWallet(t, lo!.owner, 10_000);
  await fundWallet(t, hi!.owner, 500);
  return { lo: lo!, hi: hi! };
}

/** lo pays hi 12.34, hi pays lo 5.00: both orders of a transfer's accounts, the second from the first's balances. */
const moves = (s: Side) => [
  { from: s.lo, to: s.hi, amount: 1_234, description: 'Rent' },
  { from: s.hi, to: s.lo, amount: 500, description: 'Wallet transfer' },
];
const meta = { reference: 'Rent', note: 'the same on both paths' };

/** The rows the transfers left: their transfers and entries in seq order, and the wallets' balances. */
async function written(s: Side, transferIds: string[]) {
  const role = (id: unknown) =>
    id === s.lo.account || id === s.lo.owner ? 'lo' : id === s.hi.account || id === s.hi.owner ? 'hi' : id;
  const transfers = await t.ctx.database.query<Record<string, unknown>>(
    'posting_paths_transfers',
    'select * from ledger_transfers where id = any($1::uuid[]) order by array_position($1::uuid[], id)',
    [transferIds],
  );
  const entries = await t.ctx.database.query<Record<string, unknown>>(
    'posting_paths_entries',
    `select e.*, array_position($1::uuid[], e.transfer_id) as transfer from ledger_entries e
     where e.transfer_id = any($1::uuid[]) order by e.seq`,
    [transferIds],
  );
  const balances = await t.ctx.database.query<{ id: string; balance: string }>(
    'posting_paths_balances',
    'select id, balance::text from ledger_accounts where id = any($1::uuid[]) order by id',
    [[s.lo.account, s.hi.account]],
  );
  return {
    columns: { transfers: Object.keys(transfers[0]!).sort(), entries: Object.keys(entries[0]!).sort() },
    transfers: transfers.map((r) => ({
      kind: r.kind,
      description: r.description,
      meta: r.meta,
      created_by: role(r.created_by),
    })),
    entries: entries.map((e) => ({
      transfer: Number(e.transfer),
      account: role(e.account_id),
      amount: Number(e.amount),
      balance_before: Number(e.balance_before),
      balance_after: Number(e.balance_after),
      same_time_as_transfer:
        new Date(e.created_at as string).getTime() ===
        new Date(transfers[Number(e.transfer) - 1]!.created_at as string).getTime(),
    })),
    balances: balances.map((b) => ({ account: role(b.id), balance: Number(b.balance) })),
  };
}

/** The transfers through post(), in one transaction, as a kind 'transfer' posting of two legs each. */
async function throughPost(s: Side): Promise<string[]> {
  return t.ctx.db.transaction(async (tx) => {
    const ids = [];
    for (const m of moves(s)) {
      const posted = await post(tx, {
        kind: 'transfer',
        reference: newReference('TRF'),
        description: m.description,
        meta,
        createdBy: m.from.owner,
        legs: [
          { accountId: m.from.account, amount: -m.amount },
          { accountId: m.to.account, amount: m.amount },
        ],
      });
      ids.push(posted.transferId);
    }
    return ids;
  });
}

/** The same transfers through cw_transfer_batch, as one batch. */
async function throughBatch(s: Side): Promise<string[]> {
  const args: TransferArgs[] = moves(s).map((m) => ({
    from: m.from.owner,
    to: m.to.owner,
    amount: m.amount,
    transfer_id: randomUUID(),
    entry_from: randomUUID(),
    entry_to: randomUUID(),
    reference: newReference('TRF'),
    description: m.description,
    meta,
    created_by: m.from.owner,
    at: t.clock.now().toISOString(),
    principal: null,
    key: null,
    request_hash: null,
    answer: null,
  }));
  const rows = await t.ctx.database.query<{ outcome: string; error: string | null }>(
    'posting_paths_batch',
    'select outcome, error from cw_transfer_batch($1::jsonb)',
    [JSON.stringify(args)],
  );
  expect(rows).toEqual([
    { outcome: 'ok', error: null },
    { outcome: 'ok', error: null },
  ]);
  return args.map((a) => a.transfer_id);
}

describe('the two ways a posting is made', () => {
  it('write the same transfers, entries and balances for the same wallet transfers', async () => {
    const [a, b] = [await side(), await side()];
    const byPost = await written(a, await throughPost(a));
    const byBatch = await written(b, await throughBatch(b));
    expect(byBatch).toEqual(byPost);
    // What both wrote, spelled out.
    expect(byPost.entries).toEqual([
      {
        transfer: 1,
        account: 'lo',
        amount: -1_234,
        balance_before: 10_000,
        balance_after: 8_766,
        same_time_as_transfer: true,
      },
      {
        transfer: 1,
        account: 'hi',
        amount: 1_234,
        balance_before: 500,
        balance_after: 1_734,
        same_time_as_transfer: true,
      },
      {
        transfer: 2,
        account: 'lo',
        amount: 500,
        balance_before: 8_766,
        balance_after: 9_266,
        same_time_as_transfer: true,
      },
      {
        transfer: 2,
        account: 'hi',
        amount: -500,
        balance_before: 1_734,
        balance_after: 1_234,
        same_time_as_transfer: true,
      },
    ]);
    expect(byPost.balances).toEqual([
      { account: 'lo', balance: 9_266 },
      { account: 'hi', balance: 1_234 },
    ]);
    expect(byPost.transfers).toEqual([
      { kind: 'transfer', description: 'Rent', meta, created_by: 'lo' },
      { kind: 'transfer', description: 'Wallet transfer', meta, created_by: 'hi' },
    ]);
  });
});
