import type { QueryClient } from '@tanstack/react-query';

/** react-query keys of card data; anything that changes a card refreshes them all. */
export const CARD_KEYS = {
  all: ['cards'] as const,
  list: (scope: unknown, filters: unknown) => ['cards', 'list', scope, filters] as const,
  detail: (id: string) => ['cards', 'detail', id] as const,
  transactions: (id: string, range: unknown, page: number) => ['cards', 'transactions', id, range, page] as const,
  fees: (scope: unknown) => ['card-fee-schedule', scope] as const,
  allowance: ['cards', 'allowance'] as const,
};

export function refreshCards(qc: QueryClient) {
  return qc.invalidateQueries({ queryKey: [...CARD_KEYS.all] });
}
