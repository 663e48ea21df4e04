import { Tag } from 'antd';

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

/** The customer's word for a state: a top-up whose hash is in waits for the operator, "Processing" (the spec's word). */
export const customerTopupState = (state: string) => (state === 'Hash-provided' ? 'Processing' : state);

/** Without processedIsDone, the tag is a customer's (their words); with it, an operator's (the states as stored). */
export function TopupStateTag({ state, processedIsDone }: { state: string; processedIsDone?: boolean }) {
  return (
    <Tag color={topupStateColor(state, { processedIsDone })} style={{ marginInlineEnd: 0 }}>
      {processedIsDone ? state : customerTopupState(state)}
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
