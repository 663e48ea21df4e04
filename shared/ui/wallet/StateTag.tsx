import { Tag } from 'antd';
import type { TopupState } from '../../contract';
import { TOPUP_STATE_NAMES } from '../../vocabulary';

/**
 * Top-up state colours. Customers: green Approved, red Denied, yellow for anything still moving.
 * Screens of people who process payments (momo agents, staff) also show MoMo processed green: it is
 * done from their side.
 */
function topupStateColor(state: string, opts: { processedIsDone?: boolean } = {}): 'green' | 'red' | 'gold' {
  if (state === 'Approved') return 'green';
  if (state === 'Denied') return 'red';
  if (opts.processedIsDone && state === 'MoMo processed') return 'green';
  return 'gold';
}

/** A top-up state's one display name, for customers, momo agents and staff alike ("Hash-provided" is "Processing"). */
export const topupStateName = (state: string) => TOPUP_STATE_NAMES[state as TopupState] ?? state;

/** The same words for everyone; processedIsDone only colours MoMo processed green for those who process payments. */
export function TopupStateTag({ state, processedIsDone }: { state: string; processedIsDone?: boolean }) {
  return (
    <Tag color={topupStateColor(state, { processedIsDone })} style={{ marginInlineEnd: 0 }}>
      {topupStateName(state)}
    </Tag>
  );
}

/** Credit (money in) green, debit (money out) volcano. */
export function DirectionTag({ direction, children }: { direction: 'credit' | 'debit'; children: React.ReactNode }) {
  return (
    <Tag color={direction === 'credit' ? 'green' : 'volcano'} style={{ marginInlineEnd: 0 }}>
      {children}
    </Tag>
  );
}
