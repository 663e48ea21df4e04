import { type SQL, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
import { AppError, HTTP } from '../../lib/http';
import { metrics } from '../../lib/metrics';

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
  /**
   * Accounts this posting alone may take below zero (a card's clearing or force-post taking more
   * than the card holds: a debt the next funding repays). Nothing else ever makes them negative.
   */
  mayGoNegative?: string[];
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

type LockedAccount = typeof ledgerAccounts.$inferSelect;

/** Locks these accounts (FOR UPDATE) in id order, the one order every posting takes them in. */
async function lockAccounts(tx: Tx, ids: string[]): Promise<LockedAccount[]> {
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
 * not go negative ever does. Two round trips: the lock, then one statement that writes it all.
 */
export async function post(tx: Tx, input: PostInput): Promise<Posted> {
  const merged = mergeLegs(input);
  const ids = [...merged.keys()].sort();
  const locked = new Map((await lockAccounts(tx, ids)).map((a) => [a.id, a]));
  const balances = new Map<string, { before: number; after: number }>();
  for (const id of ids) {
    const acc = locked.get(id);
    if (!acc) throw new Error('ledger: unknown account in transfer');
    const after = acc.balance + merged.get(id)!;
    if (after < 0 && merged.get(id)! < 0 && !acc.allowNegative && !input.mayGoNegative?.includes(id))
      throw new InsufficientFunds(acc.id);
    balances.set(id, { before: acc.balance, after });
  }
  const transferId = crypto.randomUUID();
  await tx.execute(writeStatement(transferId, input, merged, balances));
  metrics.ledgerTransfer(input.kind);
  return { transferId, balances };
}

/** `array[$1::type, …]`: one parameter per element (drizzle would write a JS array as a list of them). */
const array = (type: string, values: unknown[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}::${sql.raw(type)}`),
    sql`, `,
  )}]`;

/**
 * The posting written as cw_post_transfers writes every posting (server/db/sql/ledger.sql): the
 * transfer, its entries chained from the locked balances, the accounts' new balances.
 */
function writeStatement(
  transferId: string,
  input: PostInput,
  merged: Map<string, number>,
  balances: Map<string, { before: number; after: number }>,
): SQL {
  const ids = [...balances.keys()];
  const args = [
    array('uuid', [transferId]),
    array('text', [input.kind]),
    array('text', [input.reference]),
    array('text', [input.description ?? null]),
    array('jsonb', [JSON.stringify(input.meta ?? {})]),
    array('uuid', [input.createdBy ?? null]),
    array('timestamptz', [(input.at ?? new Date()).toISOString()]),
    // the entries, all of transfer 1
    array(
      'uuid',
      ids.map(() => crypto.randomUUID()),
    ),
    array(
      'int',
      ids.map(() => 1),
    ),
    array('uuid', ids),
    array(
      'bigint',
      ids.map((id) => merged.get(id)!),
    ),
    // the accounts, as locked
    array('uuid', ids),
    array(
      'bigint',
      ids.map((id) => balances.get(id)!.before),
    ),
  ];
  return sql`select cw_post_transfers(${sql.join(args, sql`, `)})`;
}
