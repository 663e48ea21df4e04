import { scanDeposits } from '../modules/deposits/watcher';
import type { Job } from './runner';

/** `npm run cli -- run-job chain-deposits`: one pass of the deposit watcher, whenever asked. */
export const chainDeposits: Job = {
  name: 'chain-deposits',
  description:
    'Credit settled USDT deposits to the wallets’ Tron addresses (the watcher runs this every CHAIN_POLL_SECONDS)',
  periodOf: (d) => d.toISOString(),
  run: (ctx) => scanDeposits(ctx),
};
