import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { cards, issuerOperations } from '../../db/schema';
import type { IssuerOperation } from '../../lib/faults';

/** The operations owed to the card issuer, as rows of the outbox that outbox.ts performs. */

export type OperationRow = typeof issuerOperations.$inferSelect;
export type Purpose =
  | 'card-creation'
  | 'card-funding'
  | 'card-withdrawal'
  | 'card-deletion'
  | 'card-termination'
  | 'maintenance'
  | 'freeze'
  | 'unfreeze'
  | 'compensation'
  | 'dispute'
  | 'dispute-withdrawal';

/**
 * Owes the issuer an operation, in the caller's transaction (with the posting or the state change
 * it belongs to). A card's operations are performed one at a time, oldest first (claim), so the
 * issuer sees them in the order they were owed.
 */
export async function enqueue(
  tx: Tx,
  op: {
    operation: IssuerOperation;
    cardId: string;
    cardToken: string;
    amount?: number;
    purpose: Purpose;
    plan?: Record<string, unknown>;
    at: Date;
    state?: 'pending' | 'done';
  },
): Promise<string> {
  const id = crypto.randomUUID();
  await tx.insert(issuerOperations).values({
    id,
    operation: op.operation,
    cardId: op.cardId,
    cardToken: op.cardToken,
    amount: op.amount ?? null,
    purpose: op.purpose,
    plan: op.plan ?? {},
    state: op.state ?? 'pending',
    attempts: op.state === 'done' ? 1 : 0,
    nextAttemptAt: op.at,
    createdAt: op.at,
    completedAt: op.state === 'done' ? op.at : null,
  });
  return id;
}

/** What the card's withdrawals still waiting for the issuer will take off it (the ledger moves when the issuer has). */
export async function pendingWithdrawals(tx: DbOrTx, cardId: string): Promise<number> {
  const [r] = await tx
    .select({ n: sql<string>`coalesce(sum(${issuerOperations.amount}), 0)` })
    .from(issuerOperations)
    .where(
      and(
        eq(issuerOperations.cardId, cardId),
        eq(issuerOperations.state, 'pending'),
        eq(issuerOperations.purpose, 'card-withdrawal'),
      ),
    );
  return Number(r?.n ?? 0);
}

/** The card row for an operation's effects, locked against a concurrent change of the same card. */
export async function lockedCard(tx: Tx, cardId: string) {
  const [card] = await tx.select().from(cards).where(eq(cards.id, cardId)).for('no key update');
  return card!;
}
