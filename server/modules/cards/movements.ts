import type { computeFees } from '@shared/fees';
import { formatMoney } from '@shared/money';

/** A card's movement row (card_transactions) for a ledger transfer that loads, empties or charges it. */
export function cardMovement(
  cardId: string,
  kind: string,
  amount: number,
  description: string,
  transferId: string,
  at: Date,
) {
  return {
    id: crypto.randomUUID(),
    cardId,
    kind,
    status: 'completed',
    amount,
    currency: 'USD',
    merchant: 'Cardwallet',
    country: 'GH',
    description,
    ledgerTransferId: transferId,
    createdAt: at,
    updatedAt: at,
  };
}

/** A card posting's fees_meta: each fee by name, the sub-total and the total, as money strings. */
export const feesMetaOf = (forWhat: string, fees: ReturnType<typeof computeFees>, amount: number) => ({
  for: forWhat,
  fees: Object.fromEntries(fees.lines.map((l) => [l.name, formatMoney(l.amount)])),
  'sub-total': formatMoney(amount),
  total: formatMoney(fees.total),
});
