import { moneyText } from '@shared/vocabulary';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { ApiTopup } from '@shared/contract';
import { TopupStateTag } from '@shared/ui/wallet/StateTag';
import { BalanceChange } from '../../components/BalanceChange';
import { dateTime } from '../../format';

/** Rows in a final state are closed; every other row opens the approve/deny panel. */
export const canDecide = (t: ApiTopup) => t.state !== 'Approved' && t.state !== 'Denied';

export const balanceChange = (t: ApiTopup) =>
  t.balance_before != null && t.balance_after != null
    ? `${moneyText(t.balance_before, 'USDT')} → ${moneyText(t.balance_after, 'USDT')}`
    : '—';

function AmountCell({ t }: { t: ApiTopup }) {
  return (
    <Flex gap={6} align="center" wrap>
      <span style={{ whiteSpace: 'nowrap' }}>{moneyText(t.amount, 'USDT')}</span>
      <Tag bordered={false}>{t.method}</Tag>
    </Flex>
  );
}

/** A Tron hash is 64 characters: shown shortened (full in the tooltip), copied in full. */
export function Hash({ value, full }: { value: string | null; full?: boolean }) {
  if (!value) return <Typography.Text type="secondary">—</Typography.Text>;
  if (full) {
    return (
      <Typography.Text className="cw-hash" copyable style={{ wordBreak: 'break-all' }}>
        {value}
      </Typography.Text>
    );
  }
  const short = value.length > 22 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
  // antd's copy button stops its click, so copying never opens the row.
  return (
    <Tooltip title={short === value ? undefined : value}>
      <Typography.Text className="cw-hash" copyable={{ text: value }} style={{ whiteSpace: 'nowrap' }}>
        {short}
      </Typography.Text>
    </Tooltip>
  );
}

/** Who decided a final top-up: the chain (a deposit, or a hash found settled) or a staff member. */
function decidedBy(t: ApiTopup): string | null {
  if (t.state !== 'Approved' && t.state !== 'Denied') return null;
  if (t.credited_automatically) return 'Credited automatically';
  return t.decided_by ? `by ${t.decided_by.first_name} ${t.decided_by.last_name}` : null;
}

/** Staff's note with the decision (why a payment the chain did not confirm was approved), for staff only. */
function DecisionNote({ t }: { t: ApiTopup }) {
  if (!t.note) return null;
  return (
    <Typography.Text
      type="secondary"
      style={{ fontSize: 12, maxWidth: 140 }}
      ellipsis={{ tooltip: t.note }}
      data-testid="decision-note"
    >
      Note: {t.note}
    </Typography.Text>
  );
}

/** The state, and under a final one who decided it and their note. */
function StateCell({ t }: { t: ApiTopup }) {
  const by = decidedBy(t);
  return (
    <Flex vertical gap={2} align="flex-start">
      <TopupStateTag state={t.state} processedIsDone />
      {by && (
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }} data-testid="decided-by">
          {by}
        </Typography.Text>
      )}
      <DecisionNote t={t} />
    </Flex>
  );
}

export const topupColumns: TableColumnsType<ApiTopup> = [
  // A name wraps between its words, never inside one (the State column's notes made it narrow enough to).
  {
    title: 'Name',
    dataIndex: 'name',
    minWidth: 120,
    render: (v: string) => (
      <Typography.Text strong style={{ overflowWrap: 'normal', wordBreak: 'normal' }}>
        {v}
      </Typography.Text>
    ),
  },
  { title: 'Account Type', dataIndex: 'name_type' },
  { title: 'Amount', dataIndex: 'amount', render: (_, t) => <AmountCell t={t} /> },
  { title: 'Transaction Hash', dataIndex: 'transaction_hash', render: (v: string | null) => <Hash value={v} /> },
  { title: 'State', dataIndex: 'state', render: (_, t) => <StateCell t={t} /> },
  {
    title: 'Last Modified',
    dataIndex: 'updated_at',
    render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
  },
  {
    title: 'Balance Change',
    key: 'balance',
    render: (_, t) =>
      t.balance_before != null && t.balance_after != null ? (
        <BalanceChange before={t.balance_before} after={t.balance_after} currency="USDT" />
      ) : (
        '—'
      ),
  },
];

/** The compact row phones show. */
export function TopupItem({ t }: { t: ApiTopup }) {
  return (
    <Flex vertical gap={4} className="cw-topup-row">
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text strong ellipsis>
          {t.name}
        </Typography.Text>
        <TopupStateTag state={t.state} processedIsDone />
      </Flex>
      {decidedBy(t) && (
        <Typography.Text type="secondary" style={{ fontSize: 12, alignSelf: 'flex-end' }} data-testid="decided-by">
          {decidedBy(t)}
        </Typography.Text>
      )}
      <DecisionNote t={t} />
      <Flex justify="space-between" align="center" gap={8}>
        <AmountCell t={t} />
        <Typography.Text type="secondary">{t.name_type}</Typography.Text>
      </Flex>
      <Hash value={t.transaction_hash} />
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text type="secondary">{dateTime(t.updated_at)}</Typography.Text>
        {t.balance_after != null && <Typography.Text>{balanceChange(t)}</Typography.Text>}
      </Flex>
    </Flex>
  );
}
