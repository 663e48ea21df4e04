import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sandboxChainTransfers } from '../db/schema';
import { tronAddressFromHex } from './address';
import type { ChainPort, ChainTransfer } from './port';

/** Tron makes a block every 3 seconds; the sandbox's height follows the clock from this moment. */
const BLOCK_MS = 3_000;
const GENESIS = Date.UTC(2026, 0, 1);

export interface SandboxChain extends ChainPort {
  readonly name: 'sandbox';
  /** Someone sends USDT to `to`; it is `confirmations` blocks deep now (1: just mined) and deepens every 3 s. */
  send(input: {
    to: string;
    amountMicro: number;
    confirmations: number;
    from?: string;
    createdBy?: string | null;
  }): Promise<{ hash: string }>;
  height(): number;
}

/**
 * The built-in chain: USDT transfers kept in its own table, with block heights that grow with the
 * clock as Tron's do, so a deposit sent with 1 confirmation settles about a minute later. The
 * platform reads it only through the chain port, exactly as it reads TronGrid.
 */
export function createSandboxChain(opts: { db: Db; now: () => Date }): SandboxChain {
  const { db, now } = opts;
  const height = () => Math.floor((now().getTime() - GENESIS) / BLOCK_MS);
  const toTransfer = (r: typeof sandboxChainTransfers.$inferSelect, head: number): ChainTransfer => ({
    hash: r.hash,
    logIndex: r.logIndex,
    from: r.fromAddress,
    to: r.toAddress,
    amountMicro: r.amountMicro,
    blockNumber: r.blockNumber,
    blockTime: r.blockTime,
    confirmations: Math.max(0, head - r.blockNumber + 1),
  });
  return {
    name: 'sandbox',
    height,
    async send({ to, amountMicro, confirmations, from, createdBy }) {
      const hash = randomBytes(32).toString('hex');
      const head = height();
      // Its block is `confirmations - 1` below the head.
      const blockNumber = head - Math.max(1, confirmations) + 1;
      await db.insert(sandboxChainTransfers).values({
        hash,
        logIndex: 0,
        fromAddress: from ?? tronAddressFromHex(randomBytes(20).toString('hex')),
        toAddress: to,
        amountMicro,
        blockNumber,
        // When it was sent, whatever depth it was given: the watcher's scan marks follow time.
        blockTime: now(),
        createdBy: createdBy ?? null,
      });
      return { hash };
    },
    async transfersTo(address, since) {
      const rows = await db
        .select()
        .from(sandboxChainTransfers)
        .where(and(eq(sandboxChainTransfers.toAddress, address), gte(sandboxChainTransfers.blockTime, since)))
        .orderBy(asc(sandboxChainTransfers.blockTime), asc(sandboxChainTransfers.hash));
      const head = height();
      return rows.map((r) => toTransfer(r, head));
    },
    async transaction(hash) {
      const rows = await db
        .select()
        .from(sandboxChainTransfers)
        .where(eq(sandboxChainTransfers.hash, hash.toLowerCase()));
      if (!rows.length) return null;
      const head = height();
      return rows.map((r) => toTransfer(r, head));
    },
  };
}
