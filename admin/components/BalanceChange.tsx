import { type Currency, moneyText } from '@shared/vocabulary';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** "USDT 1,000.00 → USDT 1,250.00": "old →" and "new" each stay whole; the pair may wrap in a narrow table. */
export function BalanceChange({ before, after, currency }: { before: string; after: string; currency: Currency }) {
  return (
    <span>
      <span style={nowrap}>{moneyText(before, currency)} →</span>{' '}
      <span style={nowrap}>{moneyText(after, currency)}</span>
    </span>
  );
}
