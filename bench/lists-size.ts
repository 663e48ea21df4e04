/**
 * The lists' dataset at N ledger transfers (bench/lists.ts, bench/dataset-compare.ts): N/10 cards and top-ups, N/15
 * wallets (every fourth a company's), N/5 card transactions, N/20 wallet-to-wallet transfers, N/10 audit rows, N/50
 * webhook events; wallet 1 holding `busy` of the wallet movements; 'Mensah' a last name a few dozen people share.
 */
import type { DatasetSize } from './dataset';

export function listsSize(n: number, busy: number): DatasetSize & Required<Pick<DatasetSize, 'extras'>> {
  const wallets = Math.max(16, Math.floor(n / 15));
  return {
    wallets,
    cards: Math.max(10, Math.floor(n / 10)),
    transfers: n,
    cardTransactions: Math.max(10, Math.floor(n / 5)),
    topups: Math.max(10, Math.floor(n / 10)),
    extras: {
      walletTransfers: Math.max(10, Math.floor(n / 20)),
      audit: Math.max(10, Math.floor(n / 10)),
      webhookEvents: Math.max(10, Math.floor(n / 50)),
    },
    // Six in ten transfers move a wallet: `busy` of them in wallet 1 is this share of the blocks after each wallet's
    // first (n/10 - n/15 blocks: at most 0.2 n movements).
    busyPerMille: Math.min(1000, Math.round((busy * 1000) / (6 * (n / 10 - wallets)))),
    // 'Mensah' shared by a few dozen people (33 of 500,000 individuals and companies' admins at n = 10,000,000).
    sharedNameEvery: Math.max(20, Math.floor(wallets / 33)),
  };
}
