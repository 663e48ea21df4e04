import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  ApiChainDeposit,
  ChainDepositStatus,
  assignChainDepositBody,
  returnChainDepositBody,
} from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import { chainDepositCount, chainDeposits, companies, topups, users } from '../../db/schema';
import { keptRows } from '../../db/kept-counts';
import { AppError, HTTP, conflict, notFound } from '../../lib/http';
import { findWallet } from '../ledger/accounts';
import { newReference, randomCode } from '../ledger/refs';
import { mailSoon } from '../notifications/service';
import { topupDecisionKey } from '../notifications/events';
import { creditTopup } from '../wallet/credit';
import { denyOtherClaims, lockHash } from './settle';

const owner = alias(users, 'owner');
const decider = alias(users, 'decider');

/**
 * Settled deposits for staff, newest first; Unassigned ones are what they decide. The page's deposits are chosen
 * first from an index (by status, or all), then joined for those alone; the total is the kept count's (0057).
 */
export async function listChainDeposits(
  ctx: AppContext,
  status: ChainDepositStatus | undefined,
  page: { limit: number; offset: number },
) {
  const where: SQL | undefined = status ? eq(chainDeposits.status, status) : undefined;
  const order = [desc(chainDeposits.createdAt), desc(chainDeposits.id)];
  const chosen = ctx.db
    .select({ id: chainDeposits.id })
    .from(chainDeposits)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  const k = chainDepositCount;
  const [rows, [n]] = await Promise.all([
    ctx.db
      .select({
        d: chainDeposits,
        company: companies.companyName,
        first: owner.firstName,
        last: owner.lastName,
        ref: topups.reference,
        dFirst: decider.firstName,
        dLast: decider.lastName,
      })
      .from(chainDeposits)
      .leftJoin(companies, eq(companies.id, chainDeposits.walletId))
      .leftJoin(owner, eq(owner.id, chainDeposits.walletId))
      .leftJoin(topups, eq(topups.id, chainDeposits.topupId))
      .leftJoin(decider, eq(decider.id, chainDeposits.decidedBy))
      .where(inArray(chainDeposits.id, chosen))
      .orderBy(...order),
    ctx.db
      .select({ n: keptRows(k.rows) })
      .from(k)
      .where(status ? eq(k.status, status) : undefined),
  ]);
  return {
    total: Number(n?.n ?? 0),
    rows: rows.map(
      (r): ApiChainDeposit => ({
        id: r.d.id,
        hash: r.d.hash,
        log_index: r.d.logIndex,
        to: r.d.toAddress,
        from: r.d.fromAddress,
        amount: formatMoney(r.d.amount),
        block_number: r.d.blockNumber,
        block_time: r.d.blockTime.toISOString(),
        status: r.d.status as ChainDepositStatus,
        reason: r.d.reason as ApiChainDeposit['reason'],
        wallet_id: r.d.walletId,
        name: r.company ?? (r.first ? `${r.first} ${r.last ?? ''}`.trim() : null),
        topup_reference: r.ref,
        note: r.d.note,
        return_hash: r.d.returnHash,
        decided_by: r.dFirst ? { first_name: r.dFirst, last_name: r.dLast ?? '' } : null,
        decided_at: r.d.decidedAt?.toISOString() ?? null,
        created_at: r.d.createdAt.toISOString(),
      }),
    ),
  };
}

async function lockedUnassigned(tx: Parameters<Parameters<AppContext['db']['transaction']>[0]>[0], id: string) {
  const [d] = await tx.select().from(chainDeposits).where(eq(chainDeposits.id, id)).for('update');
  if (!d) throw notFound('The deposit');
  if (d.status !== 'Unassigned') throw conflict(`This deposit is already ${d.status.toLowerCase()}.`);
  return d;
}

/** Staff credit an unassigned deposit to a wallet: a Tron top-up of what arrived, less the fee, approved by them. */
export async function assignChainDeposit(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  body: z.output<typeof assignChainDepositBody>,
) {
  const at = ctx.now();
  const topupId = await ctx.db.transaction(async (tx) => {
    const [first] = await tx.select({ hash: chainDeposits.hash }).from(chainDeposits).where(eq(chainDeposits.id, id));
    if (!first) throw notFound('The deposit');
    await lockHash(tx, first.hash);
    const d = await lockedUnassigned(tx, id);
    if (d.amount < 1)
      throw new AppError(HTTP.CONFLICT, 'Less than a cent arrived: there is nothing to credit. Return it or leave it.');
    if (!(await findWallet(tx, body.wallet_id))) throw notFound('The wallet');
    const [paid] = await tx
      .select({ reference: topups.reference })
      .from(topups)
      .where(and(eq(topups.transactionHash, d.hash), eq(topups.state, 'Approved')))
      .limit(1);
    if (paid) throw new AppError(HTTP.CONFLICT, `This payment was already credited as top-up ${paid.reference}.`);
    const [t] = await tx
      .insert(topups)
      .values({
        id: crypto.randomUUID(),
        walletId: body.wallet_id,
        reference: newReference('TOP'),
        code: randomCode(6),
        method: 'Tron',
        amount: d.amount,
        state: 'Pending',
        createdBy: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await creditTopup(tx, t!, { by: me.id, at, chainDepositId: d.id, transactionHash: d.hash });
    await denyOtherClaims(tx, d.hash, t!.id, `This payment was credited as top-up ${t!.reference}.`, me.id, at);
    await tx
      .update(chainDeposits)
      .set({
        status: 'Assigned',
        walletId: body.wallet_id,
        topupId: t!.id,
        decidedBy: me.id,
        decidedAt: at,
        updatedAt: at,
      })
      .where(eq(chainDeposits.id, d.id));
    return t!.id;
  });
  mailSoon(ctx, [topupDecisionKey(topupId)]);
  return { message: 'Deposit credited to the wallet.' };
}

/** Staff sent it back (from the operator's own wallet: the server holds no key) and say how. */
export async function returnChainDeposit(
  ctx: AppContext,
  me: AuthUser,
  id: string,
  body: z.output<typeof returnChainDepositBody>,
) {
  const at = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await lockedUnassigned(tx, id);
    await tx
      .update(chainDeposits)
      .set({
        status: 'Returned',
        note: body.note,
        returnHash: body.return_hash ?? null,
        decidedBy: me.id,
        decidedAt: at,
        updatedAt: at,
      })
      .where(and(eq(chainDeposits.id, id), eq(chainDeposits.status, 'Unassigned')));
  });
  return { message: 'Deposit marked as returned.' };
}
