import { centsText } from '@shared/vocabulary';
import type { Tx } from '../../db/client';
import { cardTransactions } from '../../db/schema';
import { cardAccounts } from '../cards/accounts';
import { cardMovement } from '../cards/movements';
import type { CardRow } from '../cards/presenters';
import type { CardTx } from '../cards/steps';
import { PLATFORM } from '../ledger/accounts';
import { post } from '../ledger/post';
import { newReference } from '../ledger/refs';
import { cardInDebt } from '../notifications/events';
import { notify } from '../notifications/service';
import type { DisputeRow } from './queries';

/**
 * A dispute's money: one posting between the issuer's account and the card, as a merchant's refund
 * posts (lifecycle.ts), and a row in the card's history. A credit when the card gets the amount
 * (provisionally, or on a win); a debit when a provisional credit is taken back, which like a
 * clearing may take the card below zero (a debt the next funding repays).
 */
export async function disputeMoney(
  tx: Tx,
  d: DisputeRow,
  card: CardRow,
  payment: CardTx,
  move: 'credit' | 'debit',
  amount: number,
  why: string,
  now: Date,
): Promise<{ rowId: string; available: number }> {
  const acc = await cardAccounts(tx, card.id);
  const signed = move === 'credit' ? amount : -amount;
  const description =
    move === 'credit'
      ? `Dispute credit: ${centsText(amount, 'USD')} for ${payment.merchant} (${why})`
      : `Dispute credit taken back: ${centsText(amount, 'USD')} for ${payment.merchant} (${why})`;
  const posted = await post(tx, {
    kind: 'dispute',
    reference: newReference('DSP'),
    description,
    meta: {
      card_id: card.id,
      card_number: card.maskedNumber,
      merchant: payment.merchant,
      dispute_id: d.id,
      stage: `dispute_${move}`,
    },
    at: now,
    legs: [
      { accountId: PLATFORM.cardIssuer, amount: -signed },
      { accountId: acc.card.id, amount: signed },
    ],
    mayGoNegative: move === 'debit' ? [acc.card.id] : [],
  });
  const row = {
    ...cardMovement(
      card.id,
      move === 'credit' ? 'dispute_credit' : 'dispute_debit',
      amount,
      description,
      posted.transferId,
      now,
    ),
    merchant: payment.merchant,
    country: payment.country,
    mcc: payment.mcc,
    authorizationId: payment.kind === 'authorization' ? payment.id : null,
  };
  await tx.insert(cardTransactions).values(row);
  const available = posted.balances.get(acc.card.id)?.after ?? 0;
  if (available < 0)
    await notify(
      tx,
      { owner: card.walletId },
      cardInDebt(card, { id: row.id, debt: -available, merchant: payment.merchant }),
      now,
    );
  return { rowId: row.id, available };
}
