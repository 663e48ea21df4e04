import type { QueryClient } from '@tanstack/react-query';

/** react-query keys of wallet data; anything that moves money refreshes them all. */
export const WALLET_KEYS = {
  balance: (walletId: string | null | undefined) => ['wallet-balance', walletId] as const,
  topups: ['wallet-topups'] as const,
  transactions: ['wallet-transactions'] as const,
  transfers: ['wallet-transfers'] as const,
  momoTopups: ['momo-topups'] as const,
};

export function refreshWallet(qc: QueryClient) {
  return Promise.all(
    [
      ['wallet-balance'],
      WALLET_KEYS.topups,
      WALLET_KEYS.transactions,
      WALLET_KEYS.transfers,
      WALLET_KEYS.momoTopups,
    ].map((queryKey) => qc.invalidateQueries({ queryKey: [...queryKey] })),
  );
}
