import { asc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { depositAddresses } from '../../db/schema';
import { ChainUnavailable } from '../../chain/port';
import { watchSharedAddress } from './addresses';
import { settleDeposit } from './settle';

/** Asked again on the next scan: block times and our clock differ, and an indexer can be late. */
const OVERLAP_MS = 10 * 60_000;
/** Addresses asked about per scan, the longest-unasked first. */
const BATCH = 500;

/**
 * One pass of the deposit watcher: every watched address is asked for its USDT transfers since its
 * scan mark, and each one with enough confirmations is settled (recorded once, ever, per hash and
 * log index, whichever instance gets there first). An address whose chain call fails keeps its mark
 * and is asked first next time; the mark never passes a transfer still confirming.
 */
export async function scanDeposits(ctx: AppContext) {
  await watchSharedAddress(ctx);
  const min = ctx.config.chain.minConfirmations;
  const rows = await ctx.db
    .select()
    .from(depositAddresses)
    .orderBy(sql`${depositAddresses.scannedAt} asc nulls first`, asc(depositAddresses.address))
    .limit(BATCH);
  const summary: Summary = {
    addresses: rows.length,
    credited: 0,
    unassigned: 0,
    confirming: 0,
    unavailable: 0,
    failed: 0,
  };
  for (const addr of rows) {
    const started = ctx.now();
    try {
      await scanAddress(ctx, addr, min, started, summary);
    } catch (err) {
      // Its mark stays, so it is asked first next time; the other addresses go on.
      if (err instanceof ChainUnavailable) {
        summary.unavailable++;
        ctx.log.warn({ err, address: addr.address }, 'chain unavailable: the address is asked again next time');
      } else {
        summary.failed++;
        ctx.log.error({ err, address: addr.address }, 'deposit scan of an address failed');
      }
    }
  }
  return summary;
}

type Summary = {
  addresses: number;
  credited: number;
  unassigned: number;
  confirming: number;
  unavailable: number;
  failed: number;
};

async function scanAddress(
  ctx: AppContext,
  addr: typeof depositAddresses.$inferSelect,
  min: number,
  started: Date,
  summary: Summary,
) {
  const transfers = await ctx.chain.transfersTo(addr.address, addr.scanFrom);
  let mark = started.getTime() - OVERLAP_MS;
  for (const tr of transfers) {
    if (tr.to !== addr.address) continue;
    if (tr.confirmations < min) {
      summary.confirming++;
      mark = Math.min(mark, tr.blockTime.getTime() - OVERLAP_MS);
      continue;
    }
    const r = await settleDeposit(ctx, tr, addr);
    if (r.outcome === 'credited') summary.credited++;
    if (r.outcome === 'unassigned') summary.unassigned++;
  }
  await ctx.db
    .update(depositAddresses)
    .set({ scannedAt: started, scanFrom: sql`greatest(${depositAddresses.scanFrom}, ${new Date(mark)}::timestamptz)` })
    .where(eq(depositAddresses.address, addr.address));
}

/** The watcher's loop, every CHAIN_POLL_SECONDS; safe with several instances (see settleDeposit). */
export function startChainWatcher(ctx: AppContext, everyMs = ctx.config.chain.pollMs): () => void {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const s = await scanDeposits(ctx);
      if (s.credited || s.unassigned) ctx.log.info({ ...s }, 'chain deposits settled');
    } catch (err) {
      ctx.log.error({ err }, 'chain deposit scan failed');
    } finally {
      busy = false;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
