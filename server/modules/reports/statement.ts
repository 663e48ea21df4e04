import { type ApiWalletTransaction, STATEMENT_MAX_MOVEMENTS, type WalletStatementQuery } from '@shared/contract';
import { centsOf } from '@shared/money';
import type { AppContext, AuthUser } from '../../context';
import type { Db } from '../../db/client';
import { dayRange } from '../../lib/dates';
import { invalidField, notFound } from '../../lib/http';
import { balanceAt } from '../balances/at';
import { walletForCaller, walletOwner, type WalletOwner } from '../wallet/access';
import { walletTransactions } from './queries';

/** One line of a statement: the report's movement, its signed amount, and the balance after it. */
export interface StatementLine extends ApiWalletTransaction {
  /** signed cents: positive credits the wallet (fees are already in it) */
  cents: number;
  feeCents: number;
  /** the wallet's balance once this and every earlier movement of the statement are counted */
  balanceCents: number;
}

export interface Statement {
  walletId: string;
  holder: WalletOwner;
  /** the period's first instant (start_date, 00:00 UTC) */
  from: Date;
  /** the instant the closing balance is taken: the end of end_date, or the moment of the request if that is earlier */
  to: Date;
  startDate: string;
  endDate: string;
  generatedAt: Date;
  opening: number;
  closing: number;
  moneyIn: number;
  moneyOut: number;
  fees: number;
  lines: StatementLine[];
}

/**
 * The statement of one wallet over [start_date 00:00, end_date 24:00) UTC, read from the ledger in
 * one REPEATABLE READ snapshot: a posting committing meanwhile is either in the opening, the
 * movements and the closing alike, or in none of them, so opening + movements = closing always.
 * Customers reach only their own wallet (anything else is 404); staff any.
 */
export async function walletStatement(
  ctx: AppContext,
  me: AuthUser,
  q: WalletStatementQuery,
  /** where the ledger is read (the read replica, routes/ctx.reader); who may see the wallet is asked of ctx.db */
  db: Db = ctx.db,
): Promise<Statement> {
  const account = await walletForCaller(ctx, me, q.wallet);
  const generatedAt = ctx.now();
  const today = generatedAt.toISOString().slice(0, 10);
  if (q.start_date > today) throw invalidField('start_date', 'Start date cannot be in the future');
  const range = dayRange(q.start_date, q.end_date);
  const from = range.from!;
  // Not a closing balance "on" a day that has not ended: the balance now, said so on the statement.
  const to = new Date(Math.min(range.to!.getTime(), generatedAt.getTime()));

  const read = await db.transaction(
    async (tx) => {
      // One after another: a transaction is one connection.
      const holder = await walletOwner(tx, q.wallet);
      // The one definition of a balance at an instant (balances/at.ts), without the instant itself: [from, to).
      const opening = await balanceAt(tx, account.id, from, { strictlyBefore: true });
      const closing = await balanceAt(tx, account.id, to, { strictlyBefore: true });
      // The report's own query and row shape (fees, card, description); export paging skips its totals.
      const page = await walletTransactions(
        tx,
        { walletId: q.wallet, startDate: q.start_date, endDate: q.end_date },
        { limit: STATEMENT_MAX_MOVEMENTS + 1, offset: 0, after: null },
      );
      return { holder, opening, closing, rows: page.rows };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  if (!read.holder) throw notFound('The wallet');
  if (read.rows.length > STATEMENT_MAX_MOVEMENTS) {
    throw invalidField(
      'end_date',
      `This period has more than ${STATEMENT_MAX_MOVEMENTS.toLocaleString('en-US')} movements: choose a shorter period`,
    );
  }

  // The report lists newest first; a statement reads oldest first, each line with its running balance.
  const rows = read.rows.filter((r) => Date.parse(r.created_at) < to.getTime()).reverse();
  let balance = read.opening;
  let moneyIn = 0;
  let moneyOut = 0;
  let fees = 0;
  const lines = rows.map((r): StatementLine => {
    const cents = (r.direction === 'credit' ? 1 : -1) * centsOf(r.amount);
    const feeCents = centsOf(r.fees);
    balance += cents;
    if (cents > 0) moneyIn += cents;
    else moneyOut -= cents;
    fees += feeCents;
    return { ...r, cents, feeCents, balanceCents: balance };
  });
  // Both sides come from the same snapshot; a mismatch would be a bug in the queries, never shown as a statement.
  if (balance !== read.closing)
    throw new Error(`statement of ${q.wallet}: opening ${read.opening} + movements ≠ closing ${read.closing}`);

  return {
    walletId: q.wallet,
    holder: read.holder,
    from,
    to,
    startDate: q.start_date,
    endDate: q.end_date,
    generatedAt,
    opening: read.opening,
    closing: read.closing,
    moneyIn,
    moneyOut,
    fees,
    lines,
  };
}
