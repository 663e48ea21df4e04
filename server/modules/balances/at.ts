import { sql } from 'drizzle-orm';
import type { AppContext, AuthUser } from '../../context';
import type { DbOrTx } from '../../db/client';
import { formatMoney } from '@shared/money';
import { invalidField } from '../../lib/http';
import { cardForCaller } from '../cards/access';
import { cardAccounts } from '../cards/accounts';
import { walletForCaller } from '../wallet/access';

/**
 * An account's balance at an instant (issue 36): the balance after its last ledger entry at or before it, by time
 * and then by seq (entries of one transaction share a time); 0 before its first. `strictlyBefore` leaves out entries
 * at the instant itself: a period's opening balance, the period [from, to) holding them. Entries are chained, so the
 * last one's balance_after is the sum of all before it: one lookup of ledger_entries_account_created_seq_idx.
 */
export async function balanceAt(
  db: DbOrTx,
  accountId: string,
  at: Date,
  opts: { strictlyBefore?: boolean } = {},
): Promise<number> {
  const bound = opts.strictlyBefore
    ? sql`created_at < ${at.toISOString()}::timestamptz`
    : sql`created_at <= ${at.toISOString()}::timestamptz`;
  const r = await db.execute(sql`
    select balance_after from ledger_entries where account_id = ${accountId}::uuid and ${bound}
    order by created_at desc, seq desc limit 1`);
  const rows = Array.isArray(r) ? r : ((r as { rows?: unknown[] }).rows ?? []);
  const row = rows[0] as { balance_after: string | number } | undefined;
  return row ? Number(row.balance_after) : 0;
}

/** A past instant only: what the ledger will hold later is not known yet (a 422, not today's balance). */
function pastInstant(ctx: AppContext, at: Date): Date {
  if (at.getTime() > ctx.now().getTime()) throw invalidField('at', 'at cannot be in the future');
  return at;
}

/** GET /wallet/account-balance/{id}?at=: the wallet's balance at that instant, by the wallet's own rules. */
export async function walletBalanceAt(ctx: AppContext, me: AuthUser, walletId: string, at: Date): Promise<number> {
  const when = pastInstant(ctx, at);
  const wallet = await walletForCaller(ctx, me, walletId);
  return balanceAt(ctx.db, wallet.id, when);
}

/** GET /cards/{id}/account-balance[?at=]: the card's available and held money, now or at an instant. */
export async function cardBalance(ctx: AppContext, me: AuthUser, cardId: string, at?: Date) {
  const when = at && pastInstant(ctx, at);
  await cardForCaller(ctx, me, cardId);
  const acc = await cardAccounts(ctx.db, cardId);
  const [available, held] = when
    ? [await balanceAt(ctx.db, acc.card.id, when), await balanceAt(ctx.db, acc.hold.id, when)]
    : [acc.card.balance, acc.hold.balance];
  return { available: formatMoney(available), held: formatMoney(held), ledger: formatMoney(available + held) };
}
