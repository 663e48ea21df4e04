import { useQuery } from '@tanstack/react-query';
import { apiData } from '../../api/client';
import { ApiError } from '../../api/errors';
import { WALLET_KEYS } from './keys';

export interface WalletBalance {
  loading: boolean;
  /** "1250.00"; null when the wallet does not exist (404: shown as N/A) or could not be read */
  balance: string | null;
  /** a failure other than 404, to show to the person */
  error?: string;
}

/** GET /wallet/account-balance/{walletId}: one query, shared by every screen that shows or watches it. */
export const walletBalanceQuery = (walletId: string | null | undefined) => ({
  queryKey: WALLET_KEYS.balance(walletId),
  queryFn: () => apiData<string>('GET', `/wallet/account-balance/${walletId}`, { silent: true }),
  enabled: !!walletId,
});

/** The balance; a 404 is not an error to retry or report: it is N/A. */
export function useWalletBalance(walletId: string | null | undefined): WalletBalance {
  const q = useQuery(walletBalanceQuery(walletId));
  if (!walletId) return { loading: false, balance: null };
  if (q.isLoading) return { loading: true, balance: null };
  if (q.error) {
    const notFound = q.error instanceof ApiError && q.error.statusCode === 404;
    return {
      loading: false,
      balance: null,
      error: notFound ? undefined : q.error instanceof ApiError ? q.error.display : 'Could not read the balance.',
    };
  }
  return { loading: false, balance: q.data ?? null };
}
