import { formatMoney } from '@shared/money';
import type { AppContext } from '../../context';
import type { ChainCheck } from '../../db/schema';
import { type ChainTransfer, ChainUnavailable, centsOf } from '../../chain/port';
import { addressesOfWallet } from './addresses';

export interface HashFacts {
  check: ChainCheck;
  /** the transfer that pays the top-up, when it does (to its wallet's or the shared address, of its amount) */
  pays?: ChainTransfer & { walletId: string | null };
}

/**
 * What the chain says about a hash a customer gave for a top-up: found or not, to where, how much,
 * how deep. A chain that cannot be asked concludes nothing: the top-up waits for the watcher or staff.
 */
export async function checkHash(
  ctx: AppContext,
  t: { walletId: string; amount: number },
  hash: string,
): Promise<HashFacts> {
  const checked_at = ctx.now().toISOString();
  let found: ChainTransfer[] | null;
  try {
    found = await ctx.chain.transaction(hash);
  } catch (err) {
    if (!(err instanceof ChainUnavailable)) throw err;
    ctx.log.warn({ err, hash }, 'chain unavailable for a hash check');
    return { check: { checked_at, found: false, unavailable: true } };
  }
  if (!found?.length) return { check: { checked_at, found: false } };
  // Only this wallet's own addresses: the shared one is public, so naming its hash proves nothing.
  const wallet = await addressesOfWallet(ctx.db, t.walletId);
  const toUs = (x: ChainTransfer) => wallet.has(x.to);
  const pick = found.find((x) => toUs(x) && centsOf(x.amountMicro) === t.amount) ?? found.find(toUs) ?? found[0]!;
  const matches = toUs(pick) && centsOf(pick.amountMicro) === t.amount;
  const settled = pick.confirmations >= ctx.config.chain.minConfirmations;
  return {
    check: {
      checked_at,
      found: true,
      to: pick.to,
      amount: formatMoney(centsOf(pick.amountMicro)),
      confirmations: pick.confirmations,
      settled,
      matches,
    },
    pays: matches ? { ...pick, walletId: t.walletId } : undefined,
  };
}
