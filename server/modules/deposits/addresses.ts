import { createHash } from 'node:crypto';
import { and, eq, max, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { depositAddresses } from '../../db/schema';
import { depositAddressAt, parseXpub } from '../../chain/address';

/** Names an xpub without storing it twice: deposit rows say which key their index is under. */
const xpubIdOf = (xpub: string) => createHash('sha256').update(xpub).digest('hex').slice(0, 16);

/** The shared address the old top-up screens gave out (TRON_DEPOSIT_ADDRESS): watched, but no wallet's. */
const SHARED_KEY_ID = 'shared';

/** A new address is asked about from a day before it existed: the chain's clock and ours differ, and TronGrid indexes late. */
const FIRST_SCAN_MARGIN_MS = 24 * 3_600_000;

const keys = new Map<string, ReturnType<typeof parseXpub>>();
const keyOf = (xpub: string) => {
  let k = keys.get(xpub);
  if (!k) keys.set(xpub, (k = parseXpub(xpub)));
  return k;
};

/**
 * The wallet's own deposit address under the configured key, made the first time it is asked
 * for: the next index under that key, taken under a lock so two requests never share one.
 */
export async function depositAddressOf(ctx: AppContext, walletId: string): Promise<string> {
  const xpubId = xpubIdOf(ctx.config.chain.xpub);
  const mine = (db: DbOrTx) =>
    db
      .select({ address: depositAddresses.address })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.walletId, walletId), eq(depositAddresses.xpubId, xpubId)))
      .limit(1);
  const [known] = await mine(ctx.db);
  if (known) return known.address;
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`deposit-addresses:${xpubId}`}, 0))`);
    const [raced] = await mine(tx);
    if (raced) return raced.address;
    const [top] = await tx
      .select({ n: max(depositAddresses.derivationIndex) })
      .from(depositAddresses)
      .where(eq(depositAddresses.xpubId, xpubId));
    const index = top?.n == null ? 0 : top.n + 1;
    const address = depositAddressAt(keyOf(ctx.config.chain.xpub), index);
    const now = ctx.now();
    await tx.insert(depositAddresses).values({
      address,
      walletId,
      xpubId,
      derivationIndex: index,
      scanFrom: new Date(now.getTime() - FIRST_SCAN_MARGIN_MS),
      createdAt: now,
    });
    return address;
  });
}

/** Every address that credits this wallet (under the current key and any earlier one). */
export async function addressesOfWallet(db: DbOrTx, walletId: string): Promise<Set<string>> {
  const rows = await db
    .select({ address: depositAddresses.address })
    .from(depositAddresses)
    .where(eq(depositAddresses.walletId, walletId));
  return new Set(rows.map((r) => r.address));
}

/** The shared address is watched too: top-ups opened before wallets had addresses were told to pay it. */
export async function watchSharedAddress(ctx: AppContext): Promise<void> {
  const now = ctx.now();
  await ctx.db
    .insert(depositAddresses)
    .values({
      address: ctx.config.tronDepositAddress,
      walletId: null,
      xpubId: `${SHARED_KEY_ID}:${ctx.config.tronDepositAddress}`,
      derivationIndex: -1,
      scanFrom: new Date(now.getTime() - FIRST_SCAN_MARGIN_MS),
      createdAt: now,
    })
    .onConflictDoNothing();
}
