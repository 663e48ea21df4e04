import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { WALLET_KEYS } from './keys';
import { walletBalanceQuery } from './useWalletBalance';

/** Often enough that a confirmed deposit shows within seconds of the chain settling it; one small read. */
const LIVE_MS = 10_000;

/**
 * Money can arrive with nobody acting on this screen (a deposit to the wallet's own address,
 * credited once the chain confirms it). While the page is visible the balance is read every 10 s
 * (react-query pauses the interval in a hidden tab); when it moves, the wallet's lists are read
 * again, so one cheap poll keeps the balance and the history current without a reload.
 */
export function useLiveWallet(walletId: string | null | undefined) {
  const qc = useQueryClient();
  const { data } = useQuery({
    ...walletBalanceQuery(walletId),
    refetchInterval: LIVE_MS,
    refetchIntervalInBackground: false,
  });
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (data === undefined) return;
    if (seen.current !== undefined && seen.current !== data) {
      for (const queryKey of [
        WALLET_KEYS.topups,
        WALLET_KEYS.transactions,
        WALLET_KEYS.transfers,
        WALLET_KEYS.momoTopups,
      ]) {
        void qc.invalidateQueries({ queryKey: [...queryKey] });
      }
    }
    seen.current = data;
  }, [data, qc]);
}
