import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
import { prepared } from '../../db/prepared';

/** Platform accounts, created by migration with these ids. */
export const PLATFORM = {
  feeIncome: '00000000-0000-4000-a000-000000000001',
  tronDeposits: '00000000-0000-4000-a000-000000000002',
  momoDeposits: '00000000-0000-4000-a000-000000000003',
  cardIssuer: '00000000-0000-4000-a000-000000000004',
  forfeited: '00000000-0000-4000-a000-000000000005',
} as const;

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;

/** The master wallet of an Individual (their user id) or a company (its id); created with the account. */
export async function createWallet(db: DbOrTx, ownerId: string): Promise<void> {
  await db
    .insert(ledgerAccounts)
    .values({ id: crypto.randomUUID(), kind: 'wallet', ownerId, currency: 'USDT' })
    .onConflictDoNothing();
}

export async function findWallet(db: DbOrTx, walletId: string): Promise<LedgerAccount | undefined> {
  const query = prepared(db, 'find_wallet', (d) =>
    d
      .select()
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.kind, 'wallet'), eq(ledgerAccounts.ownerId, sql.placeholder('walletId'))))
      .prepare('find_wallet'),
  );
  const [a] = await query.execute({ walletId });
  return a;
}
