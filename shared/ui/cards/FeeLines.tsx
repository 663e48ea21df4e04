import { Alert, Descriptions, Skeleton, Typography } from 'antd';
import { messageOf } from '../../api/errors';
import { type FeeBreakdown, type FeeRule, computeFees, hundredthsToString } from '../../fees';
import { feeLabel } from '../wallet/TransactionDetails';
import { usdCents } from './format';

export interface FeeTotalRow {
  label: string;
  cents: number;
  testId?: string;
}

/**
 * A fee preview: each fee that applies, 'Total fees', and optional totals (what the wallet pays,
 * what it receives), noted 'All fees are in USD'. The figures come from the one fee function
 * (shared/fees.ts) on the schedule the server charges by.
 */
function FeeLines({ fees, totals = [] }: { fees: FeeBreakdown; totals?: FeeTotalRow[] }) {
  const rate = (l: FeeBreakdown['lines'][number]) =>
    l.type === 'percentage' ? ` (${hundredthsToString(l.value)}%)` : '';
  return (
    <div data-testid="fee-preview">
      <Descriptions
        size="small"
        column={1}
        bordered
        styles={{ label: { width: '55%' } }}
        items={[
          ...fees.lines.map((l) => ({
            key: l.name,
            label: `${feeLabel(l.name)}${rate(l)}`,
            children: usdCents(l.amount),
          })),
          {
            key: 'total-fees',
            label: 'Total fees',
            children: <strong data-testid="fee-total">{usdCents(fees.total)}</strong>,
          },
          ...totals.map((t) => ({
            key: t.label,
            label: t.label,
            children: <strong data-testid={t.testId}>{usdCents(t.cents)}</strong>,
          })),
        ]}
      />
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 6, fontSize: 13 }}>
        All fees are in USD
      </Typography.Text>
    </div>
  );
}

/** The preview for an amount once it is above 0; a skeleton while the schedule loads, its failure said. */
export function FeePreview({
  schedule,
  names,
  cents,
  totals,
}: {
  schedule: { data?: FeeRule[]; isLoading: boolean; error: unknown };
  names: readonly string[] | null;
  cents: number | null;
  totals?(fees: FeeBreakdown, cents: number): FeeTotalRow[];
}) {
  if (cents === null || cents <= 0) return null;
  if (schedule.isLoading) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  if (schedule.error || !schedule.data)
    return <Alert type="error" showIcon message={messageOf(schedule.error, 'Could not load the fees.')} />;
  if (!names) return <Typography.Text type="secondary">Choose the card purpose to see its fees.</Typography.Text>;
  const fees = computeFees(schedule.data, names, cents);
  return <FeeLines fees={fees} totals={totals?.(fees, cents)} />;
}
