import { desc, eq, sql } from 'drizzle-orm';
import { type ApiBalanceMonitor, FEES_ACCOUNT, MASTER_BALANCE_ACCOUNTS, brandOf } from '@shared/contract';
import { formatMoney } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import type { Tx } from '../../db/client';
import { balanceMonitors } from '../../db/schema';
import { conflict, invalidField, notFound } from '../../lib/http';
import { PLATFORM } from '../ledger/accounts';
import { walletOwner } from '../wallet/access';

type MonitorRow = typeof balanceMonitors.$inferSelect;

const present = (m: MonitorRow): ApiBalanceMonitor => ({
  id: m.id,
  account: m.account,
  label: m.label,
  currency: m.currency as 'USD' | 'USDT',
  below: formatMoney(m.below),
  balance: formatMoney(m.balance),
  state: m.fired ? 'below' : 'armed',
  crossings: m.crossings,
  fired_at: m.firedAt?.toISOString() ?? null,
  created_at: m.createdAt.toISOString(),
});

/** Every monitor, newest first (a handful: one per account at most). */
export async function listMonitors(ctx: AppContext): Promise<ApiBalanceMonitor[]> {
  const rows = await ctx.db.select().from(balanceMonitors).orderBy(desc(balanceMonitors.createdAt));
  return rows.map(present);
}

/** The rows of a raw statement, as either driver answers them. */
const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : ((r as { rows?: T[] }).rows ?? []));

/**
 * Takes turns with every other change of this account's monitor (exclusive), and for a master balance with the
 * creation of its purpose's cards (cw_balance_monitor_new_card takes the same key, shared).
 */
const lockKey = (tx: Tx, account: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`balance-monitor:${account}`}, 0))`);

/**
 * The accounts a monitor watches, marked (or unmarked) for the ledger's trigger and locked in id order as a posting
 * locks them, so the balance read here is the one the trigger's changes start from. Answers their balance.
 */
async function markAccounts(tx: Tx, account: string, on: boolean): Promise<{ balance: number; found: boolean }> {
  const which = account.startsWith('master:')
    ? sql`kind = 'card' and owner_id in (select id from cards where purpose = ${account.slice('master:'.length)})`
    : account === FEES_ACCOUNT
      ? sql`id = ${PLATFORM.feeIncome}::uuid`
      : sql`kind = 'wallet' and owner_id = ${account}::uuid`;
  const locked = rowsOf<{ id: string }>(
    await tx.execute(sql`select id from ledger_accounts where ${which} order by id for update`),
  );
  const set = rowsOf<{ balance: string }>(
    await tx.execute(sql`update ledger_accounts set monitored = ${on} where ${which} returning balance`),
  );
  return { balance: set.reduce((s, r) => s + Number(r.balance), 0), found: locked.length > 0 };
}

async function labelOf(tx: Tx, account: string): Promise<{ label: string; currency: 'USD' | 'USDT' } | null> {
  if (account.startsWith('master:')) {
    const purpose = account.slice('master:'.length);
    return { label: `The ${brandOf(purpose)} master balance (${purpose})`, currency: 'USD' };
  }
  if (account === FEES_ACCOUNT) return { label: 'The fee account', currency: 'USDT' };
  const owner = await walletOwner(tx, account);
  return owner ? { label: `The wallet of ${owner.name}`, currency: 'USDT' } : null;
}

/**
 * Adds a monitor. A master balance with no card yet starts at zero. One already below its threshold starts as
 * "below" without alerting: its creator sees it, and it alerts at the next crossing once back at or above.
 */
export async function addMonitor(ctx: AppContext, me: AuthUser, body: { account: string; below: number }) {
  const { account } = body;
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    await lockKey(tx, account);
    const [taken] = await tx
      .select({ id: balanceMonitors.id })
      .from(balanceMonitors)
      .where(eq(balanceMonitors.account, account));
    if (taken) throw conflict('This account already has a balance alert: delete it first to change its threshold.');
    const named = await labelOf(tx, account);
    const { balance, found } = await markAccounts(tx, account, true);
    if (!named || (!found && !(MASTER_BALANCE_ACCOUNTS as readonly string[]).includes(account)))
      throw invalidField('account', 'No wallet has this id');
    const [m] = await tx
      .insert(balanceMonitors)
      .values({
        id: crypto.randomUUID(),
        account,
        label: named.label,
        currency: named.currency,
        below: body.below,
        balance,
        fired: balance < body.below,
        createdBy: me.id,
        createdAt: now,
      })
      .returning();
    return m!;
  });
  return present(row);
}

/** Removes a monitor: its accounts first (in a posting's order: accounts, then the monitor's row), then the row. */
export async function removeMonitor(ctx: AppContext, id: string): Promise<void> {
  const [m] = await ctx.db.select().from(balanceMonitors).where(eq(balanceMonitors.id, id));
  if (!m) throw notFound('The balance alert');
  await ctx.db.transaction(async (tx) => {
    await lockKey(tx, m.account);
    await markAccounts(tx, m.account, false);
    await tx.delete(balanceMonitors).where(eq(balanceMonitors.id, id));
  });
}
