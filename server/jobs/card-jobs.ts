import { and, eq, isNull, lt } from 'drizzle-orm';
import { FEE_NAMES, computeFees } from '@shared/fees';
import { formatMoney } from '@shared/money';
import { cardTransactions, cards, ledgerTransfers } from '../db/schema';
import { scheduleFor } from '../modules/fees/service';
import { PLATFORM } from '../modules/ledger/accounts';
import { post } from '../modules/ledger/post';
import { cardAccounts } from '../modules/cards/accounts';
import { ownerProfile } from '../modules/cards/access';
import { cardMovement, endCard } from '../modules/cards/service';
import type { Job } from './runner';
import { maintenanceFeeCharged, maintenanceFeeKey } from '../modules/notifications/events';
import { mailSoon, notify } from '../modules/notifications/service';
import { enqueue, pendingWithdrawals } from '../modules/cards/operations';
import { performNow } from '../modules/cards/outbox';

const BASIC_MIN_BALANCE = 200;
const MAX_INSUFFICIENT_STREAK = 3;

const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Basic cards under 2.00 USD, or declined for insufficient balance 3 times running, end without refund. */
export const cardTerminations: Job = {
  name: 'card-terminations',
  description: 'Terminate basic cards under USD 2.00 or after consecutive declines for insufficient balance (daily)',
  periodOf: dayOf,
  async run(ctx) {
    const candidates = await ctx.db
      .select()
      .from(cards)
      .where(and(eq(cards.type, 'basic'), isNull(cards.deletedAt)));
    let terminated = 0;
    let skipped = 0;
    for (const card of candidates) {
      const acc = await cardAccounts(ctx.db, card.id);
      const low = acc.card.balance + acc.hold.balance < BASIC_MIN_BALANCE;
      const streak = card.insufficientStreak >= MAX_INSUFFICIENT_STREAK;
      if (!low && !streak) continue;
      if (acc.hold.balance > 0) {
        skipped++; // wait for its payments to settle
        continue;
      }
      const reason = streak
        ? 'Terminated: consecutive declines for insufficient balance'
        : 'Terminated: balance under USD 2.00';
      const ended = await endCard(ctx, null, card.id, 'forfeit', reason).then(
        () => true,
        (err) => {
          ctx.log.error({ err, cardId: card.id }, 'card termination failed');
          return false;
        },
      );
      if (ended) terminated++;
      else skipped++;
    }
    return { terminated, skipped };
  },
};

/** 2.00 USD (the schedule's card-maintenance fee) a month from each Active card. */
export const cardMaintenance: Job = {
  name: 'card-maintenance',
  description: 'Charge the monthly maintenance fee on every Active card (monthly)',
  periodOf: monthOf,
  async run(ctx, period) {
    const periodStart = new Date(`${period}-01T00:00:00.000Z`);
    const active = await ctx.db
      .select()
      .from(cards)
      .where(and(eq(cards.state, 'Active'), isNull(cards.deletedAt), lt(cards.createdAt, periodStart)));
    let charged = 0;
    let already = 0;
    let total = 0;
    for (const card of active) {
      const reference = `MNT-${period}-${card.id}`;
      const [done] = await ctx.db
        .select({ id: ledgerTransfers.id })
        .from(ledgerTransfers)
        .where(eq(ledgerTransfers.reference, reference));
      if (done) {
        already++;
        continue;
      }
      const owner = await ownerProfile(ctx.db, card.walletId);
      const fee = computeFees(await scheduleFor(ctx.db, owner.companyId), [FEE_NAMES.maintenance], 0).total;
      if (!fee) continue;
      const now = ctx.now();
      const owed = await ctx.db.transaction(async (tx) => {
        const acc = await cardAccounts(tx, card.id);
        // A card cannot go below zero: it pays what it holds, at most the fee.
        const due = Math.min(fee, acc.card.balance - (await pendingWithdrawals(tx, card.id)));
        if (due <= 0) return null;
        const posted = await post(tx, {
          kind: 'maintenance',
          reference,
          description: `Monthly maintenance fee ${period}: ${card.nickname}`,
          meta: {
            card_id: card.id,
            card_number: card.maskedNumber,
            period,
            fees_total: due,
            fees_meta: {
              for: 'card-maintenance',
              fees: { [FEE_NAMES.maintenance]: formatMoney(due) },
              total: formatMoney(due),
            },
          },
          at: now,
          legs: [
            { accountId: acc.card.id, amount: -due },
            { accountId: PLATFORM.feeIncome, amount: due },
          ],
        });
        await tx
          .insert(cardTransactions)
          .values(
            cardMovement(card.id, 'maintenance', due, `Monthly maintenance fee (${period})`, posted.transferId, now),
          );
        // The issuer takes the fee off the card too; if it finally cannot, the fee goes back to the card.
        const op = await enqueue(tx, {
          operation: 'unload',
          cardId: card.id,
          cardToken: card.issuerToken,
          amount: due,
          purpose: 'maintenance',
          at: now,
        });
        await notify(tx, { owner: card.walletId }, maintenanceFeeCharged(card, due, period), now);
        return { amount: due, op };
      });
      if (owed) {
        mailSoon(ctx, [maintenanceFeeKey(card.id, period)]);
        await performNow(ctx, owed.op);
        charged++;
        total += owed.amount;
      }
    }
    return { charged, already, total: formatMoney(total) };
  },
};

export const CARD_JOBS = [cardTerminations, cardMaintenance];
