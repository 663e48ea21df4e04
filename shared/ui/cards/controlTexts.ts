import type { ApiCardControls, ApiCardTransaction, ApprovalInterval } from '../../contract';
import { categoryLabel, countryName } from '../../merchant-categories';
import { moneyText } from '../../vocabulary';

/** How the control screens say a card's controls and a transaction's merchant category. */

export const INTERVAL_LABELS: Record<ApprovalInterval, string> = {
  daily: 'Day',
  weekly: 'Week',
  monthly: 'Month',
  yearly: 'Year',
  all_time: 'All time',
};
const INTERVAL_WORDS: Record<ApprovalInterval, string> = {
  daily: 'per day',
  weekly: 'per week',
  monthly: 'per month',
  yearly: 'per year',
  all_time: 'in total',
};

const names = (list: string[], name: (v: string) => string) => list.map(name).join(', ');

/** "Any", "Only Groceries, Fuel" or "Blocked: Gambling and betting". */
function listText(allowed: string[], blocked: string[], name: (v: string) => string) {
  if (allowed.length) return `Only ${names(allowed, name)}`;
  if (blocked.length) return `Blocked: ${names(blocked, name)}`;
  return 'Any';
}

export function controlsSummary(c: ApiCardControls) {
  return [
    { label: 'Merchant categories', value: listText(c.allowed_categories, c.blocked_categories, categoryLabel) },
    { label: 'Countries', value: listText(c.allowed_countries, c.blocked_countries, countryName) },
    {
      label: 'Per payment',
      value: c.per_transaction_limit ? `At most ${moneyText(c.per_transaction_limit, 'USD')}` : 'No limit',
    },
    {
      label: 'Approved payments',
      value: c.max_approvals
        ? `At most ${c.max_approvals.count} ${INTERVAL_WORDS[c.max_approvals.interval]}`
        : 'No limit',
    },
  ];
}

/** The fields the card program adds to a transaction; read defensively until every server sends them. */
type Merchantish = Pick<ApiCardTransaction, 'kind' | 'country'> & {
  mcc?: string | null;
  merchant_category?: string | null;
};

/** "Gambling and betting", "MCC 1234" for a code in no category, or null when the transaction has no code. */
export function categoryText(tx: Merchantish): string | null {
  if (tx.merchant_category) return categoryLabel(tx.merchant_category);
  if (tx.mcc) return `MCC ${tx.mcc}`;
  return null;
}

/** "Ghana" for GH; null when there is none. */
export const countryText = (tx: Merchantish) => (tx.country ? countryName(tx.country) : null);
