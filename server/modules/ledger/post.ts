import { inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../../db/schema';
import { AppError, HTTP } from '../../lib/http';

export interface Leg {
  accountId: string;
  /** signed cents: positive credits the account */
  amount: number;
}

export interface PostInput {
  kind: string;
  reference: string;
  description?: string;
  meta?: Record<string, unknown>;
  createdBy?: string | null;
  legs: Leg[];
  at?: Date;
}

export interface Posted {
  transferId: string;
  /** balance before and after, per account */
  balances: Map<string, { before: number; after: number }>;
}

export class InsufficientFunds extends AppError {
  constructor(readonly accountId: string, message = 'There are not enough funds for this.') {
    super(HTTP.UNPROCESSABLE, message, { amount: [message] });
  }
}

/**
 * Posts one balanced transfer inside the caller's transaction. The accounts are locked in id
 * order (FOR UPDATE), so concurrent postings serialise without deadlocks; no account that may
 * not go negative ever does.
 */
export async function post(tx: Tx, input: PostInput): Promise<Posted> {
  const merged = new Map<string, number>();
  for (const leg of input.legs) {
    if (!Number.isSafeInteger(leg.amount)) throw new Error(`ledger: amount ${leg.amount} is not an integer`);
    merged.set(leg.accountId, (merged.get(leg.accountId) ?? 0) + leg.amount);
  }
  for (const [id, amount] of merged) if (amount === 0) merged.delete(id);
  const sum = [...merged.values()].reduce((s, a) => s + a, 0);
  if (sum !== 0) throw new Error(`ledger: transfer ${input.reference} does not balance (${sum})`);
  if (merged.size < 2) throw new Error(`ledger: transfer ${input.reference} needs two accounts`);

  const ids = [...merged.keys()].sort();
  const accounts = await tx
    .select()
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, ids))
    .orderBy(ledgerAccounts.id)
    .for('update');
  if (accounts.length !== ids.length) throw new Error('ledger: unknown account in transfer');

  const balances = new Map<string, { before: number; after: number }>();
  for (const acc of accounts) {
    const after = acc.balance + merged.get(acc.id)!;
    if (after < 0 && !acc.allowNegative) throw new InsufficientFunds(acc.id);
    balances.set(acc.id, { before: acc.balance, after });
  }

  const at = input.at ?? new Date();
  const transferId = crypto.randomUUID();
  await tx.insert(ledgerTransfers).values({
    id: transferId,
    kind: input.kind,
    reference: input.reference,
    description: input.description ?? null,
    meta: input.meta ?? {},
    createdBy: input.createdBy ?? null,
    createdAt: at,
  });
  await tx.insert(ledgerEntries).values(
    ids.map((accountId) => ({
      id: crypto.randomUUID(),
      transferId,
      accountId,
      amount: merged.get(accountId)!,
      balanceBefore: balances.get(accountId)!.before,
      balanceAfter: balances.get(accountId)!.after,
      createdAt: at,
    })),
  );
  for (const accountId of ids) {
    await tx
      .update(ledgerAccounts)
      .set({ balance: balances.get(accountId)!.after })
      .where(inArray(ledgerAccounts.id, [accountId]));
  }
  return { transferId, balances };
}
