import { centsText } from '@shared/vocabulary';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { SpendingControl } from '@shared/contract';
import type { DbOrTx } from '../../db/client';
import { cardTransactions } from '../../db/schema';
import type { CardRow } from './presenters';

const DAY = 86_400_000;

/** Where the current spending window starts, in UTC: the day, the ISO week (Monday), the month, or ever. */
export function windowStart(control: SpendingControl, now: Date): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  switch (control) {
    case 'day':
      return new Date(Date.UTC(y, m, d));
    case 'week': {
      const sinceMonday = (now.getUTCDay() + 6) % 7;
      return new Date(Date.UTC(y, m, d) - sinceMonday * DAY);
    }
    case 'month':
      return new Date(Date.UTC(y, m, 1));
    default:
      return new Date(0);
  }
}

const PERIOD_WORD: Record<SpendingControl, string> = {
  day: 'per day',
  week: 'per week',
  month: 'per month',
  lifetime: 'in total',
};

/** What the card has spent in its current window (approved or settled authorisations). */
async function spentInWindow(db: DbOrTx, cardId: string, since: Date): Promise<number> {
  const [r] = await db
    .select({ total: sql<string>`coalesce(sum(${cardTransactions.amount}), 0)` })
    .from(cardTransactions)
    .where(
      and(
        eq(cardTransactions.cardId, cardId),
        eq(cardTransactions.kind, 'authorization'),
        inArray(cardTransactions.status, ['approved', 'settled']),
        gte(cardTransactions.createdAt, since),
      ),
    );
  return Number(r?.total ?? 0);
}

/** A decline reason when this payment would break the card's spending limit, else null. */
export async function limitDecline(db: DbOrTx, card: CardRow, amount: number, now: Date): Promise<string | null> {
  if (card.spendingLimit == null || card.purpose !== 'media') return null;
  const control = (card.spendingControl ?? 'lifetime') as SpendingControl;
  const limit = card.spendingLimit + card.additionalSpendingLimit;
  const spent = await spentInWindow(db, card.id, windowStart(control, now));
  if (spent + amount <= limit) return null;
  return `This payment would go over the card's spending limit of ${centsText(limit, 'USD')} ${PERIOD_WORD[control]}.`;
}

const PROHIBITED =
  /\b(casino|betting|bet365|sportsbet|poker|escort|dating|broker|forex|money ?order|western ?union|moneygram|wire ?transfer|remit(ly|tance))\b/i;

/** The card may not be used with these merchants (customer-portal §1, prohibited uses). */
export function prohibitedMerchant(merchant: string): string | null {
  return PROHIBITED.test(merchant)
    ? 'Payments to brokers, dating or escort sites, casinos or betting, wires or money orders and money-transfer sites are not allowed with this card.'
    : null;
}
