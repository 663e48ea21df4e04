import { brandOf } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { DbOrTx } from '../../db/client';
import { cardAccounts } from './accounts';
import type { CardRow } from './presenters';

type EventCard = Pick<CardRow, 'id' | 'nickname' | 'last4' | 'purpose' | 'type'>;

/**
 * What every card webhook says about the card (never its number), with its available balance
 * read in the event's own transaction, so it is the balance after whatever the event reports.
 * Returned as a thunk: emitEvent reads it only when the owner has an active callback.
 */
export function cardEventData(tx: DbOrTx, card: EventCard, extra: Record<string, unknown> = {}) {
  return async () => {
    const { card: available } = await cardAccounts(tx, card.id);
    return {
      card_id: card.id,
      nickname: card.nickname,
      last4: card.last4,
      brand: brandOf(card.purpose),
      type: card.type,
      ...extra,
      available_balance: formatMoney(available.balance),
    };
  };
}
