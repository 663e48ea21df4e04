import { plain } from '../format';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** "old → new": "old →" and "new" each stay whole; the pair may wrap in a narrow table. */
export function BalanceChange({ before, after }: { before: string; after: string }) {
  return (
    <span>
      <span style={nowrap}>{plain(before)} →</span> <span style={nowrap}>{plain(after)}</span>
    </span>
  );
}
