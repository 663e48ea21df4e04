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
