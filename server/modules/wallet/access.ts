import { eq } from 'drizzle-orm';
import { isStaff } from '@shared/contract';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { companies, users } from '../../db/schema';
import { forbidden, notFound } from '../../lib/http';
import { walletIdOf } from '../account/presenters';
import { findWallet, type LedgerAccount } from '../ledger/accounts';

/** The caller's own master wallet id, or a 403 for staff (they have none). */
export function ownWalletId(me: AuthUser): string {
  const id = walletIdOf({ id: me.id, role: me.role, companyId: me.companyId });
  if (!id) throw forbidden('Only customers have a master wallet.');
  return id;
}

/**
 * A wallet the caller may see: customers only their own (their id, or their company's),
 * staff any. Anything else is "not found", never "forbidden", so ids reveal nothing.
 */
export async function walletForCaller(ctx: AppContext, me: AuthUser, walletId: string): Promise<LedgerAccount> {
  mayReadWallet(me, walletId);
  const wallet = await findWallet(ctx.db, walletId);
  if (!wallet) throw notFound('The wallet');
  return wallet;
}

function mayReadWallet(me: AuthUser, walletId: string): void {
  if (!isStaff(me.role) && walletIdOf({ id: me.id, role: me.role, companyId: me.companyId }) !== walletId) {
    throw notFound('The wallet');
  }
}

const WALLET_BALANCE = "select balance from ledger_accounts where kind = 'wallet' and owner_id = $1";

/**
 * The balance in cents of a wallet the caller may see (walletForCaller's rule). The API's most frequent read, so
 * one statement outside Drizzle: on the embedded database Drizzle's row mapping and type parsers cost as much as
 * the query itself.
 */
export async function walletBalanceForCaller(ctx: AppContext, me: AuthUser, walletId: string): Promise<number> {
  mayReadWallet(me, walletId);
  const [row] = await ctx.database.query<{ balance: string | number }>('wallet_balance', WALLET_BALANCE, [walletId]);
  if (!row) throw notFound('The wallet');
  return Number(row.balance);
}

export interface WalletOwner {
  name: string;
  type: 'Individual' | 'Company';
  active: boolean;
  /** where mail about the wallet goes when no person is named */
  email: string;
  /** a person's names apart (the recipient check shortens the last) */
  firstName?: string;
  lastName?: string;
}

export async function walletOwner(db: DbOrTx, walletId: string): Promise<WalletOwner | null> {
  const [c] = await db.select().from(companies).where(eq(companies.id, walletId));
  if (c) return { name: c.companyName, type: 'Company', active: !c.deactivatedAt, email: c.companyEmail };
  const [u] = await db.select().from(users).where(eq(users.id, walletId));
  if (u && u.role === 'Individual') {
    return {
      name: `${u.firstName} ${u.lastName}`,
      firstName: u.firstName,
      lastName: u.lastName,
      type: 'Individual',
      active: !u.deactivatedAt && !u.deletedAt,
      email: u.email,
    };
  }
  return null;
}
