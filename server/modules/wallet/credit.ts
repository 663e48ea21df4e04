import { eq } from 'drizzle-orm';
import { FEES_FOR, computeFees } from '@shared/fees';
import { formatMoney } from '@shared/money';
import type { Tx } from '../../db/client';
import { topups } from '../../db/schema';
import { notFound } from '../../lib/http';
import { PLATFORM, findWallet } from '../ledger/accounts';
import { post } from '../ledger/post';
import { notify } from '../notifications/service';
import { topupDecided } from '../notifications/events';
import { scheduleFor } from '../fees/service';
import { walletOwner } from './access';

type Topup = typeof topups.$inferSelect;

export interface Crediting {
  /** the staff member who approved it; null when the chain did */
  by: string | null;
  at: Date;
  /** the settled on-chain transfer that paid it */
  chainDepositId?: string;
  transactionHash?: string;
  /** staff's note with the approval */
  note?: string;
}

/**
 * Credits an undecided top-up (its row locked by the caller, inside the caller's transaction):
 * the ledger posting less the fee, the top-up Approved, the owner notified. Staff's approval and
 * the chain's both come here, so a top-up is credited the same way whoever decides.
 */
export async function creditTopup(tx: Tx, t: Topup, c: Crediting) {
  const wallet = await findWallet(tx, t.walletId);
  if (!wallet) throw notFound('The wallet');
  const owner = await walletOwner(tx, t.walletId);
  const fees =
    t.method === 'Tron'
      ? computeFees(
          await scheduleFor(tx, owner?.type === 'Company' ? t.walletId : null),
          FEES_FOR.tronTopup(),
          t.amount,
        )
      : { lines: [], total: 0 };
  const credited = t.amount - fees.total;
  const hash = c.transactionHash ?? t.transactionHash;
  const feesMeta = {
    for: 'wallet-topup',
    fees: Object.fromEntries(fees.lines.map((l) => [l.name, formatMoney(l.amount)])),
    'sub-total': formatMoney(t.amount),
    total: formatMoney(fees.total),
  };
  const posted = await post(tx, {
    kind: 'deposit',
    reference: t.reference,
    description: `${t.method} top-up`,
    meta: {
      topup_id: t.id,
      method: t.method,
      fees_total: fees.total,
      fees_meta: feesMeta,
      transaction_hash: hash,
      ...(c.by ? {} : { automatic: true }),
    },
    createdBy: c.by,
    at: c.at,
    legs: [
      { accountId: t.method === 'Tron' ? PLATFORM.tronDeposits : PLATFORM.momoDeposits, amount: -t.amount },
      { accountId: wallet.id, amount: credited },
      ...(fees.total ? [{ accountId: PLATFORM.feeIncome, amount: fees.total }] : []),
    ],
  });
  const b = posted.balances.get(wallet.id)!;
  await tx
    .update(topups)
    .set({
      state: 'Approved',
      transactionHash: hash,
      fee: fees.total,
      feesMeta: { ...feesMeta, old_balance: formatMoney(b.before), new_balance: formatMoney(b.after) },
      ledgerTransferId: posted.transferId,
      decidedBy: c.by,
      decidedAt: c.at,
      ...(c.note ? { decisionNote: c.note } : {}),
      creditedAutomatically: c.by === null,
      chainDepositId: c.chainDepositId ?? t.chainDepositId,
      updatedAt: c.at,
    })
    .where(eq(topups.id, t.id));
  await notify(tx, { owner: t.walletId }, topupDecided(t, 'Approved', { credited, fee: fees.total }), c.at);
  return { credited, fee: fees.total };
}
