import { type SQL, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
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
  constructor(
    readonly accountId: string,
    message = 'There are not enough funds for this.',
  ) {
    super(HTTP.UNPROCESSABLE, message, { amount: [message] });
  }
}

export type LockedAccount = typeof ledgerAccounts.$inferSelect;

/** Locks these accounts (FOR UPDATE) in id order, the one order every posting takes them in. */
export async function lockAccounts(tx: Tx, ids: string[]): Promise<LockedAccount[]> {
  return tx
    .select()
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [...ids].sort()))
    .orderBy(ledgerAccounts.id)
    .for('update');
}

/** The legs of a transfer, one per account, checked: integer, balanced, two accounts at least. */
function mergeLegs(input: PostInput): Map<string, number> {
  const merged = new Map<string, number>();
  for (const leg of input.legs) {
    if (!Number.isSafeInteger(leg.amount)) throw new Error(`ledger: amount ${leg.amount} is not an integer`);
    merged.set(leg.accountId, (merged.get(leg.accountId) ?? 0) + leg.amount);
  }
  for (const [id, amount] of merged) if (amount === 0) merged.delete(id);
  const sum = [...merged.values()].reduce((s, a) => s + a, 0);
  if (sum !== 0) throw new Error(`ledger: transfer ${input.reference} does not balance (${sum})`);
  if (merged.size < 2) throw new Error(`ledger: transfer ${input.reference} needs two accounts`);
  return merged;
}

/**
 * Posts one balanced transfer inside the caller's transaction. The accounts are locked in id
 * order (FOR UPDATE), so concurrent postings serialise without deadlocks; no account that may
 * not go negative ever does.
 */
export async function post(tx: Tx, input: PostInput): Promise<Posted> {
  const merged = mergeLegs(input);
  return postLocked(tx, input, await lockAccounts(tx, [...merged.keys()]));
}

/**
 * Posts a transfer between accounts the caller has already locked with lockAccounts (or an
 * equivalent FOR UPDATE in id order).
 */
export async function postLocked(tx: Tx, input: PostInput, locked: LockedAccount[]): Promise<Posted> {
  const posting = preparePosting(input, locked);
  await posting.write(tx);
  return posting;
}

export interface Posting extends Posted {
  /** The statement write() runs, for a caller that sends it in a batch of its own (BatchRunner). */
  statement(also?: SQL | null): SQL;
  /**
   * Writes the transfer, its entries and the new balances in one statement, so the locks are
   * held for two round trips in all; `also` is one more data-modifying CTE clause (`name as
   * (update …)`) to run in the same statement, such as the request's idempotency record.
   */
  write(tx: Tx, also?: SQL | null): Promise<void>;
}

/** Checks a posting against the locked balances and works out its figures, before anything is written. */
export function preparePosting(input: PostInput, locked: LockedAccount[]): Posting {
  const merged = mergeLegs(input);
  const ids = [...merged.keys()].sort();
  const byId = new Map(locked.map((a) => [a.id, a]));
  const balances = new Map<string, { before: number; after: number }>();
  for (const id of ids) {
    const acc = byId.get(id);
    if (!acc) throw new Error('ledger: unknown account in transfer (or one the caller did not lock)');
    const after = acc.balance + merged.get(id)!;
    if (after < 0 && !acc.allowNegative) throw new InsufficientFunds(acc.id);
    balances.set(id, { before: acc.balance, after });
  }

  const at = (input.at ?? new Date()).toISOString();
  const transferId = crypto.randomUUID();
  const entries = sql.join(
    ids.map((accountId) => {
      const b = balances.get(accountId)!;
      return sql`(${crypto.randomUUID()}::uuid, ${transferId}::uuid, ${accountId}::uuid, ${merged.get(accountId)!}::bigint, ${b.before}::bigint, ${b.after}::bigint, ${at}::timestamptz)`;
    }),
    sql`, `,
  );
  const newBalances = sql.join(
    ids.map((accountId) => sql`(${accountId}::uuid, ${balances.get(accountId)!.after}::bigint)`),
    sql`, `,
  );
  return {
    transferId,
    balances,
    statement: (also) => sql`
        with transfer as (
          insert into ledger_transfers (id, kind, reference, description, meta, created_by, created_at)
          values (${transferId}::uuid, ${input.kind}, ${input.reference}, ${input.description ?? null}, ${JSON.stringify(input.meta ?? {})}::jsonb, ${input.createdBy ?? null}::uuid, ${at}::timestamptz)
        ), entries as (
          insert into ledger_entries (id, transfer_id, account_id, amount, balance_before, balance_after, created_at)
          values ${entries}
        )${also ? sql`, ${also}` : sql``}
        update ledger_accounts a set balance = v.balance from (values ${newBalances}) as v(id, balance) where a.id = v.id`,
    async write(tx, also) {
      await tx.execute(this.statement(also));
      // Later postings in the same transaction start from these balances.
      for (const id of ids) byId.get(id)!.balance = balances.get(id)!.after;
    },
  };
}
