import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../../server/db/schema';
import { PLATFORM, createWallet, findWallet } from '../../server/modules/ledger/accounts';
import { post } from '../../server/modules/ledger/post';
import { newReference } from '../../server/modules/ledger/refs';
import { type TestApp, startTestApp } from './support/app';

/**
 * The database refuses, at commit, what the posting code never writes: a transfer whose entries
 * do not sum to zero, and an account whose cached balance is not its last entry's balance_after.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function newWallet() {
  const owner = crypto.randomUUID();
  await createWallet(t.ctx.db, owner);
  return (await findWallet(t.ctx.db, owner))!;
}
const balance = async (id: string) =>
  (await t.ctx.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.id, id)))[0]!.balance;

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error & { constraint?: string } };
    return `${err.message} ${err.cause?.message ?? ''} ${err.cause?.constraint ?? ''}`;
  }
  throw new Error('expected the commit to fail');
}

/** Writes a transfer by hand, as a faulty posting would: entries with these amounts, balances as given. */
function handWritten(legs: { accountId: string; amount: number; before: number; setBalance?: number }[]) {
  return t.ctx.db.transaction(async (tx) => {
    const transferId = crypto.randomUUID();
    await tx.insert(ledgerTransfers).values({ id: transferId, kind: 'test', reference: newReference('TST') });
    for (const l of legs) {
      await tx.insert(ledgerEntries).values({
        id: crypto.randomUUID(),
        transferId,
        accountId: l.accountId,
        amount: l.amount,
        balanceBefore: l.before,
        balanceAfter: l.before + l.amount,
      });
      await tx
        .update(ledgerAccounts)
        .set({ balance: l.setBalance ?? l.before + l.amount })
        .where(eq(ledgerAccounts.id, l.accountId));
    }
    return transferId;
  });
}

describe('the database guards the ledger', () => {
  it('refuses a transfer whose entries do not sum to zero, and keeps nothing of it', async () => {
    const a = await newWallet();
    const message = await failure(handWritten([{ accountId: a.id, amount: 500, before: 0 }]));
    expect(message).toMatch(/sum to 500, not zero/);
    expect(await balance(a.id)).toBe(0);
    expect(await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, a.id))).toHaveLength(0);
  });

  it('refuses a cached balance that is not the last entry’s balance_after, and an entry that does not start where the last one ended', async () => {
    const [a, b] = [await newWallet(), await newWallet()];
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: PLATFORM.tronDeposits, amount: -1_000 },
          { accountId: a.id, amount: 1_000 },
        ],
      }),
    );
    // a balance changed with no entry
    expect(
      await failure(t.ctx.db.update(ledgerAccounts).set({ balance: 900 }).where(eq(ledgerAccounts.id, a.id))),
    ).toMatch(/holds a balance of 900 but its last entry says 1000/);
    // entries written but one balance left behind
    expect(
      await failure(
        handWritten([
          { accountId: a.id, amount: -300, before: 1_000 },
          { accountId: b.id, amount: 300, before: 0, setBalance: 0 },
        ]),
      ),
    ).toMatch(/holds a balance of 0 but its last entry says 300/);
    // an entry whose balance_before skips what the account held
    expect(
      await failure(
        handWritten([
          { accountId: a.id, amount: -300, before: 1_200 },
          { accountId: b.id, amount: 300, before: 0 },
        ]),
      ),
    ).toMatch(/starts from 1200 but the entry before it ended at 1000/);
    expect([await balance(a.id), await balance(b.id)]).toEqual([1_000, 0]);
  });

  it('checks an account against its last entry when one transaction gives it several', async () => {
    const [a, b] = [await newWallet(), await newWallet()];
    await t.ctx.db.transaction((tx) =>
      post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: PLATFORM.tronDeposits, amount: -1_000 },
          { accountId: a.id, amount: 1_000 },
        ],
      }),
    );
    // b's balance follows its first entry of the transaction, not its second
    const message = await failure(
      handWritten([
        { accountId: a.id, amount: -300, before: 1_000 },
        { accountId: b.id, amount: 300, before: 0 },
        { accountId: a.id, amount: -200, before: 700 },
        { accountId: b.id, amount: 200, before: 300, setBalance: 300 },
      ]),
    );
    expect(message).toMatch(/holds a balance of 300 but its last entry says 500/);
    expect([await balance(a.id), await balance(b.id)]).toEqual([1_000, 0]);
  });

  it('accepts what the posting code writes: several postings to one account in one transaction, and a transfer', async () => {
    const [a, b] = [await newWallet(), await newWallet()];
    await t.ctx.db.transaction(async (tx) => {
      await post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: PLATFORM.tronDeposits, amount: -5_000 },
          { accountId: a.id, amount: 5_000 },
        ],
      });
      await post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: a.id, amount: -2_000 },
          { accountId: b.id, amount: 1_990 },
          { accountId: PLATFORM.feeIncome, amount: 10 },
        ],
      });
      await post(tx, {
        kind: 'test',
        reference: newReference('TST'),
        legs: [
          { accountId: b.id, amount: -990 },
          { accountId: a.id, amount: 990 },
        ],
      });
    });
    expect([await balance(a.id), await balance(b.id)]).toEqual([3_990, 1_000]);
    // every account's cached balance is its last entry's, across the whole database
    const drift = await t.ctx.database.query(
      'guards_drift',
      'select a.id from ledger_accounts a where a.balance <> coalesce((select e.balance_after from ledger_entries e where e.account_id = a.id order by e.seq desc limit 1), 0)',
      [],
    );
    expect(drift).toEqual([]);
  });
});
