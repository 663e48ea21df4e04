import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { chainDeposits, type depositAddresses, topups } from '../../db/schema';
import { type ChainTransfer, centsOf } from '../../chain/port';
import { AppError, HTTP } from '../../lib/http';
import { mailSoon, notify } from '../notifications/service';
import { depositUnassigned, topupDecisionKey } from '../notifications/events';
import { newReference, randomCode } from '../ledger/refs';
import { creditTopup } from '../wallet/credit';

export const MIN_TOPUP_CENTS = 100;

type Address = Pick<typeof depositAddresses.$inferSelect, 'address' | 'walletId'>;
export type Settled =
  | { outcome: 'known' }
  | { outcome: 'credited'; topupId: string; walletId: string }
  | { outcome: 'already-credited'; topupId: string }
  | { outcome: 'unassigned'; reason: 'no-wallet' | 'below-minimum' | 'amount-mismatch' };

/** One Tron payment at a time: the hash path (topup-confirm), staff and every watcher instance take this lock. */
export const lockHash = (tx: DbOrTx, hash: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${hash}, 0))`);

/**
 * A settled transfer to one of our addresses, recorded once per (hash, log index) and credited at
 * most once: to the top-up that named its hash (of its amount), else to the wallet's oldest
 * Pending top-up of its amount, else as a new top-up; what cannot be told goes to staff.
 */
export async function settleDeposit(ctx: AppContext, tr: ChainTransfer, addr: Address): Promise<Settled> {
  const at = ctx.now();
  const result = await ctx.db.transaction(async (tx): Promise<Settled> => {
    await lockHash(tx, tr.hash);
    const [seen] = await tx
      .select({ id: chainDeposits.id })
      .from(chainDeposits)
      .where(and(eq(chainDeposits.hash, tr.hash), eq(chainDeposits.logIndex, tr.logIndex)));
    if (seen) return { outcome: 'known' };
    const amount = centsOf(tr.amountMicro);
    const id = crypto.randomUUID();
    const record = (status: 'Credited' | 'Unassigned', more: Partial<typeof chainDeposits.$inferInsert> = {}) =>
      tx.insert(chainDeposits).values({
        id,
        hash: tr.hash,
        logIndex: tr.logIndex,
        toAddress: tr.to,
        fromAddress: tr.from,
        amountMicro: tr.amountMicro,
        amount,
        blockNumber: tr.blockNumber,
        blockTime: tr.blockTime,
        status,
        walletId: addr.walletId,
        createdAt: at,
        updatedAt: at,
        ...more,
      });
    const toStaff = async (
      reason: 'no-wallet' | 'below-minimum' | 'amount-mismatch',
      walletId = addr.walletId,
    ): Promise<Settled> => {
      await record('Unassigned', { reason, walletId });
      await notify(tx, { staff: true }, depositUnassigned({ id, hash: tr.hash, amount }, reason), at);
      return { outcome: 'unassigned', reason };
    };
    const named = await tx
      .select()
      .from(topups)
      .where(and(eq(topups.transactionHash, tr.hash), eq(topups.method, 'Tron'), ne(topups.state, 'Denied')))
      .for('update');

    // Staff approved a top-up naming this payment by hand (whatever its amount or wallet): it is
    // credited already, once, and is recorded against that top-up.
    const approved = named.find((t) => t.state === 'Approved' && !t.chainDepositId);
    if (approved) {
      await record('Credited', { walletId: approved.walletId, topupId: approved.id });
      await tx.update(topups).set({ chainDepositId: id }).where(eq(topups.id, approved.id));
      return { outcome: 'already-credited', topupId: approved.id };
    }
    // The shared address is anyone's to name: its deposits are credited by staff only, never by
    // whoever pastes the (public) hash first.
    if (!addr.walletId) return toStaff('no-wallet');
    const open = named.filter((t) => t.state !== 'Approved' && t.walletId === addr.walletId);
    const exact = open.find((t) => t.amount === amount);
    if (exact) return credit(exact);
    if (open.length) return toStaff('amount-mismatch');
    if (amount < MIN_TOPUP_CENTS) return toStaff('below-minimum');
    // The customer announced this amount in Top Up and has not given a hash yet: this pays it.
    const [pending] = await tx
      .select()
      .from(topups)
      .where(
        and(
          eq(topups.walletId, addr.walletId),
          eq(topups.method, 'Tron'),
          eq(topups.state, 'Pending'),
          eq(topups.amount, amount),
          isNull(topups.transactionHash),
        ),
      )
      .orderBy(asc(topups.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (pending) return credit(pending);
    const [fresh] = await tx
      .insert(topups)
      .values({
        id: crypto.randomUUID(),
        walletId: addr.walletId,
        reference: newReference('TOP'),
        code: randomCode(6),
        method: 'Tron',
        amount,
        state: 'Pending',
        createdBy: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return credit(fresh!);

    async function credit(t: typeof topups.$inferSelect): Promise<Settled> {
      await record('Credited', { walletId: t.walletId, topupId: t.id });
      await creditTopup(tx, t, { by: null, at, chainDepositId: id, transactionHash: tr.hash });
      return { outcome: 'credited', topupId: t.id, walletId: t.walletId };
    }
  });
  if (result.outcome === 'credited') mailSoon(ctx, [topupDecisionKey(result.topupId)]);
  return result;
}

export async function depositRecorded(db: DbOrTx, hash: string) {
  const [row] = await db
    .select({ id: chainDeposits.id })
    .from(chainDeposits)
    .where(eq(chainDeposits.hash, hash))
    .limit(1);
  return !!row;
}

/** Staff cannot approve by hand a payment the chain has already credited. */
export async function refuseCreditedHash(tx: DbOrTx, hash: string) {
  const [done] = await tx
    .select({ status: chainDeposits.status })
    .from(chainDeposits)
    .where(and(eq(chainDeposits.hash, hash), inArray(chainDeposits.status, ['Credited', 'Assigned', 'Returned'])))
    .limit(1);
  if (done?.status === 'Returned')
    throw new AppError(HTTP.CONFLICT, 'This transaction was returned to its sender: deny this top-up instead.');
  if (done)
    throw new AppError(
      HTTP.CONFLICT,
      'This transaction was already credited from the chain: deny this top-up instead.',
    );
}

/** Staff approved a top-up by hand: a recorded deposit of its hash waiting for them is now paid by it (never assigned again). */
export async function claimDepositsFor(
  tx: DbOrTx,
  t: { id: string; walletId: string },
  hash: string,
  by: string,
  at: Date,
) {
  const claimed = await tx
    .update(chainDeposits)
    .set({ status: 'Credited', topupId: t.id, walletId: t.walletId, decidedBy: by, decidedAt: at, updatedAt: at })
    .where(and(eq(chainDeposits.hash, hash), eq(chainDeposits.status, 'Unassigned')))
    .returning({ id: chainDeposits.id });
  if (claimed[0]) await tx.update(topups).set({ chainDepositId: claimed[0].id }).where(eq(topups.id, t.id));
}

/** Top-ups that named a hash staff have now credited otherwise are closed, so nobody credits the payment twice. */
export async function denyOtherClaims(tx: DbOrTx, hash: string, keep: string, reason: string, by: string, at: Date) {
  await tx
    .update(topups)
    .set({ state: 'Denied', reason, decidedBy: by, decidedAt: at, updatedAt: at })
    .where(
      and(eq(topups.transactionHash, hash), ne(topups.id, keep), inArray(topups.state, ['Pending', 'Hash-provided'])),
    );
}
