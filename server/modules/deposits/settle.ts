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
export const lockHash = (tx: DbOrTx, hash: string) => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${hash}, 0))`);

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
    const toStaff = async (reason: 'no-wallet' | 'below-minimum' | 'amount-mismatch', walletId = addr.walletId): Promise<Settled> => {
      await record('Unassigned', { reason, walletId });
      await notify(tx, { staff: true }, depositUnassigned({ id, hash: tr.hash, amount }, reason), at);
      return { outcome: 'unassigned', reason };
    };
    const ours = (t: typeof topups.$inferSelect) => (addr.walletId ? t.walletId === addr.walletId : true);
    const named = (
      await tx
        .select()
        .from(topups)
        .where(and(eq(topups.transactionHash, tr.hash), eq(topups.method, 'Tron'), ne(topups.state, 'Denied')))
        .for('update')
    ).filter(ours);

    // Staff approved it by hand before it settled: it is paid already.
    const approved = named.find((t) => t.state === 'Approved' && !t.chainDepositId && t.amount === amount);
    if (approved) {
      await record('Credited', { walletId: approved.walletId, topupId: approved.id });
      await tx.update(topups).set({ chainDepositId: id }).where(eq(topups.id, approved.id));
      return { outcome: 'already-credited', topupId: approved.id };
    }
    const open = named.filter((t) => t.state !== 'Approved');
    const exact = open.find((t) => t.amount === amount);
    if (exact) return credit(exact);
    if (open.length) return toStaff('amount-mismatch', addr.walletId ?? open[0]!.walletId);
    if (!addr.walletId) return toStaff('no-wallet');
    if (amount < MIN_TOPUP_CENTS) return toStaff('below-minimum');
    // The customer announced this amount in Top Up and has not given a hash yet: this pays it.
    const [pending] = await tx
      .select()
      .from(topups)
      .where(and(eq(topups.walletId, addr.walletId), eq(topups.method, 'Tron'), eq(topups.state, 'Pending'), eq(topups.amount, amount), isNull(topups.transactionHash)))
      .orderBy(asc(topups.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (pending) return credit(pending);
    const [fresh] = await tx
      .insert(topups)
      .values({ id: crypto.randomUUID(), walletId: addr.walletId, reference: newReference('TOP'), code: randomCode(6), method: 'Tron', amount, state: 'Pending', createdBy: null, createdAt: at, updatedAt: at })
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

/** Staff cannot approve by hand a payment the chain has already credited. */
export async function refuseCreditedHash(tx: DbOrTx, hash: string) {
  await lockHash(tx, hash);
  const [done] = await tx
    .select({ status: chainDeposits.status })
    .from(chainDeposits)
    .where(and(eq(chainDeposits.hash, hash), inArray(chainDeposits.status, ['Credited', 'Assigned'])))
    .limit(1);
  if (done) throw new AppError(HTTP.CONFLICT, 'This transaction was already credited from the chain: deny this top-up instead.');
}

/** Top-ups that named a hash staff have now credited otherwise are closed, so nobody credits the payment twice. */
export async function denyOtherClaims(tx: DbOrTx, hash: string, keep: string, reason: string, by: string, at: Date) {
  await tx
    .update(topups)
    .set({ state: 'Denied', reason, decidedBy: by, decidedAt: at, updatedAt: at })
    .where(and(eq(topups.transactionHash, hash), ne(topups.id, keep), inArray(topups.state, ['Pending', 'Hash-provided'])));
}
