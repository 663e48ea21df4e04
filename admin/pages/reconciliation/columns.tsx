import { moneyText } from '@shared/vocabulary';
import { Flex, Tag, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import type { ApiIssuerOperation, ApiReconciliationDrift } from '@shared/contract';
import { ShortId } from '../../components/ShortId';
import { dateTime } from '../../format';

const OPERATIONS: Record<ApiIssuerOperation['operation'], string> = {
  issue: 'Issue',
  load: 'Load',
  unload: 'Unload',
  freeze: 'Freeze',
  unfreeze: 'Unfreeze',
  terminate: 'Terminate',
  dispute: 'Dispute',
  withdraw_dispute: 'Withdraw dispute',
};

const PURPOSES: Record<string, string> = {
  'card-creation': 'Card creation',
  'card-funding': 'Card top-up',
  'card-withdrawal': 'Withdrawal',
  'card-deletion': 'Card deletion',
  'card-termination': 'Card termination',
  maintenance: 'Maintenance fee',
  freeze: 'Freeze',
  unfreeze: 'Unfreeze',
  compensation: 'After a failure',
  dispute: 'Card dispute',
  'dispute-withdrawal': 'Dispute withdrawal',
};

const purposeLabel = (p: string) => PURPOSES[p] ?? p;

function CardRef({ id, label }: { id: string; label?: string }) {
  return (
    <Link to={`/admin/cards/${id}`} aria-label={`Open card ${label ?? id}`}>
      {label ?? <ShortId value={id} />}
    </Link>
  );
}

export const driftColumns: TableColumnsType<ApiReconciliationDrift> = [
  { title: 'Card', dataIndex: 'card_id', render: (id: string) => <CardRef id={id} /> },
  { title: 'Ledger', dataIndex: 'ledger', align: 'right', render: (v: string) => moneyText(v, 'USD') },
  {
    title: 'Issuer',
    dataIndex: 'issuer',
    align: 'right',
    render: (v: string | null) => (v === null ? 'Unknown' : moneyText(v, 'USD')),
  },
  { title: 'Reason', dataIndex: 'reason', width: '45%' },
];

function Refund({ op }: { op: ApiIssuerOperation }) {
  if (!op.refund) return <>—</>;
  return (
    <Flex vertical>
      <Typography.Text>{moneyText(op.refund.amount, 'USDT')} returned</Typography.Text>
      <Typography.Text type="secondary" className="cw-hash">
        {op.refund.reference}
      </Typography.Text>
    </Flex>
  );
}

export const operationColumns: TableColumnsType<ApiIssuerOperation> = [
  {
    title: 'Created',
    dataIndex: 'created_at',
    render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
  },
  {
    title: 'Operation',
    key: 'operation',
    render: (_, op) => (
      <Flex vertical>
        <Typography.Text strong>{OPERATIONS[op.operation]}</Typography.Text>
        <Typography.Text type="secondary">{purposeLabel(op.purpose)}</Typography.Text>
      </Flex>
    ),
  },
  {
    title: 'Card',
    key: 'card',
    render: (_, op) => <CardRef id={op.card_id} label={`${op.card_nickname} ${op.card_number}`} />,
  },
  {
    title: 'Amount',
    dataIndex: 'amount',
    align: 'right',
    render: (v: string | null) => (v === null ? '—' : moneyText(v, 'USD')),
  },
  { title: 'Tries', dataIndex: 'attempts', align: 'right' },
  {
    title: 'Error',
    dataIndex: 'last_error',
    width: '28%',
    render: (v: string | null) => (
      <Typography.Paragraph ellipsis={{ rows: 2, tooltip: v }} style={{ margin: 0 }}>
        {v ?? '—'}
      </Typography.Paragraph>
    ),
  },
  { title: 'Refund', key: 'refund', render: (_, op) => <Refund op={op} /> },
];

/** The compact row phones show. */
export function OperationItem({ op }: { op: ApiIssuerOperation }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong>
          {OPERATIONS[op.operation]} · {purposeLabel(op.purpose)}
        </Typography.Text>
        <Tag
          bordered={false}
          color={op.state === 'failed' ? 'red' : op.state === 'pending' ? 'gold' : 'green'}
          style={{ marginInlineEnd: 0 }}
        >
          {op.state === 'failed' ? 'Failed' : op.state === 'pending' ? 'Pending' : 'Done'}
        </Tag>
      </Flex>
      <CardRef id={op.card_id} label={`${op.card_nickname} ${op.card_number}`} />
      <Typography.Text type="secondary">
        {dateTime(op.created_at)} · {op.amount === null ? 'no amount' : moneyText(op.amount, 'USD')} · {op.attempts}{' '}
        {op.attempts === 1 ? 'try' : 'tries'}
      </Typography.Text>
      {op.last_error && <Typography.Text type="danger">{op.last_error}</Typography.Text>}
      {op.refund && <Refund op={op} />}
    </Flex>
  );
}
