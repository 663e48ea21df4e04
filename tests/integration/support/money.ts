import { PLATFORM, findWallet } from '../../../server/modules/ledger/accounts';
import { post } from '../../../server/modules/ledger/post';
import { newReference } from '../../../server/modules/ledger/refs';
import type { TestApp } from './app';

/** Credits a master wallet straight through the ledger (as an approved Tron deposit would). */
export async function fundWallet(t: TestApp, walletId: string, cents: number) {
  const wallet = await findWallet(t.ctx.db, walletId);
  if (!wallet) throw new Error(`no wallet ${walletId}`);
  await t.ctx.db.transaction((tx) =>
    post(tx, {
      kind: 'deposit',
      reference: newReference('TST'),
      description: 'Test deposit',
      meta: { fees_total: 0 },
      legs: [
        { accountId: PLATFORM.tronDeposits, amount: -cents },
        { accountId: wallet.id, amount: cents },
      ],
    }),
  );
}
