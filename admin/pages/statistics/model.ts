import type { z } from 'zod';
import type { statistics, statisticsSeries } from '@shared/contract/responses';

/** The figures and series of the Statistics screen, as the API answers them. */
export type Statistics = z.infer<typeof statistics>;
export type StatisticsSeries = z.infer<typeof statisticsSeries>;
export type Interval = StatisticsSeries['interval'];

type StatKey = keyof Statistics;

export interface Tile {
  key: StatKey;
  title: string;
  /** a money figure and its currency; counts have none */
  unit?: 'USDT' | 'USD';
}

/**
 * The tiles of back-office §2.16, in its order and words: balances and fees (USDT), card
 * balances by brand (USD), top-ups and card payments, cards by state, kind and owner,
 * card maintenance.
 */
export const TILE_GROUPS: Array<{ title: string; tiles: Tile[] }> = [
  {
    title: 'Balances and fees',
    tiles: [
      { key: 'total_wallet_balance', title: 'Wallet Balances', unit: 'USDT' },
      { key: 'total_card_balance', title: 'Card Balances', unit: 'USDT' },
      { key: 'total_fees_amount', title: 'Card Fees', unit: 'USDT' },
      { key: 'total_topups_fees', title: 'Wallet Fees', unit: 'USDT' },
    ],
  },
  {
    title: 'Card balances by brand',
    tiles: [
      { key: 'total_card_balance_general', title: 'Mastercard Balances', unit: 'USD' },
      { key: 'total_card_balance_media', title: 'Visa Balances', unit: 'USD' },
      { key: 'total_card_balance_tokencard', title: 'Tokenised Card Balances', unit: 'USD' },
    ],
  },
  {
    title: 'Top-ups and card transactions',
    tiles: [
      { key: 'total_topups_amount', title: 'Topups Amount', unit: 'USDT' },
      { key: 'total_topups', title: 'Topups count' },
      { key: 'total_transactions', title: 'Card Transactions count' },
      { key: 'total_transactions_amount', title: 'Card Transactions Amount', unit: 'USD' },
    ],
  },
  {
    title: 'Cards',
    tiles: [
      { key: 'total_cards', title: 'All Cards' },
      { key: 'total_activated_cards', title: 'Active Cards' },
      { key: 'total_deactivated_cards', title: 'Deactivated Cards' },
      { key: 'total_deleted_cards', title: 'Deleted Cards' },
      { key: 'total_basic_cards', title: 'Basic Cards' },
      { key: 'total_premium_cards', title: 'Premium Cards' },
      { key: 'total_general_cards', title: 'Mastercard Cards' },
      { key: 'total_media_cards', title: 'Visa Cards' },
      { key: 'total_company_cards', title: 'Company Cards' },
      { key: 'total_individual_cards', title: 'Individual Cards' },
    ],
  },
  {
    title: 'Card maintenance',
    tiles: [
      { key: 'total_maintenance', title: 'Card Maintenance count' },
      { key: 'total_maintenance_amount', title: 'Card Maintenance amount', unit: 'USD' },
    ],
  },
];

const DAY = 86_400_000;

/** The chart period for a range: days up to two months, weeks up to nine, months beyond (or with no range). */
export function intervalFor(start?: string, end?: string): Interval {
  if (!start || !end) return 'month';
  const days = (Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY + 1;
  return days <= 62 ? 'day' : days <= 270 ? 'week' : 'month';
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The first day of the period holding `day` (UTC), as PostgreSQL's date_trunc gives it (weeks start on Monday). */
function periodOf(day: string, interval: Interval): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  if (interval === 'week') return iso(new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY));
  return day;
}

function nextPeriod(p: string, interval: Interval): string {
  const d = new Date(`${p}T00:00:00Z`);
  if (interval === 'month') return iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
  return iso(new Date(d.getTime() + (interval === 'week' ? 7 : 1) * DAY));
}

/**
 * Every period of the chart's axis, so a quiet day shows as a gap rather than disappearing:
 * from the range's first period (or the first with data) to its last.
 */
export function periodsBetween(
  first: string | undefined,
  last: string | undefined,
  interval: Interval,
  max = 400,
): string[] {
  if (!first || !last) return [];
  const out: string[] = [];
  for (let p = periodOf(first, interval); p <= last && out.length < max; p = nextPeriod(p, interval)) out.push(p);
  return out;
}

/** Axis label of a period. */
export function periodLabel(p: string, interval: Interval): string {
  const d = new Date(`${p}T00:00:00Z`);
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  if (interval === 'month') return `${month} ${d.getUTCFullYear()}`;
  return `${d.getUTCDate()} ${month}`;
}

/** Legend names of the fee kinds the series reports. */
export const FEE_KIND_LABELS: Record<string, string> = {
  issuance: 'Card issuance fees',
  topup: 'Card top-up fees',
  withdraw: 'Card withdrawal fees',
  maintenance: 'Card maintenance',
  deposit: 'Wallet top-up fees',
  api_fee: 'API fees',
};

export const TX_STATUS_LABELS: Record<string, string> = {
  approved: 'Approved',
  settled: 'Settled',
  reversed: 'Reversed',
  declined: 'Declined',
};
