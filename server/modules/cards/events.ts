import { brandOf } from '../../../shared/contract';
import type { CardRow } from './presenters';

/** What every card webhook says about the card (never its number). */
export function cardEventData(card: Pick<CardRow, 'id' | 'nickname' | 'last4' | 'purpose' | 'type'>, extra: Record<string, unknown> = {}) {
  return { card_id: card.id, nickname: card.nickname, last4: card.last4, brand: brandOf(card.purpose), type: card.type, ...extra };
}
