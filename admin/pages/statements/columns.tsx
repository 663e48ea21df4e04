import { Flex, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { type ApiStatement, type ApiStatementLine, STATEMENT_SOURCE_NAMES } from '@shared/contract';
import { dateTime } from '../../format';

export const STATUS_LABELS: Record<ApiStatementLine['status'], string> = {
  matched: 'Matched',
  missing_ours: 'Missing on our side',
  missing_theirs: 'Missing on theirs',
};

const signed = (amount: string) => (amount.startsWith('-') ? `−${amount.slice(1)}` : amount);

export const statementColumns: TableColumnsType<ApiStatement> = [
  { title: 'Uploaded', dataIndex: 'created_at', render: (v: string) => dateTime(v), width: 170 },
  { title: 'Source', dataIndex: 'source', render: (v: ApiStatement['source']) => STATEMENT_SOURCE_NAMES[v] },
  { title: 'File', dataIndex: 'file_name', ellipsis: true },
  { title: 'Period', key: 'period', render: (_, s) => `${s.start_date} – ${s.end_date}`, width: 200 },
  { title: 'Lines', dataIndex: 'lines', align: 'right', width: 80 },
  { title: 'Matched', key: 'matched', align: 'right', render: (_, s) => s.counts.matched, width: 90 },
  {
    title: 'Open',
    key: 'open',
    align: 'right',
    width: 80,
    render: (_, s) => (s.counts.open ? <Tag color="orange">{s.counts.open}</Tag> : <Tag color="green">0</Tag>),
  },
];

export function StatementItem({ s }: { s: ApiStatement }) {
  return (
    <Flex vertical gap={2}>
      <Typography.Text strong>{STATEMENT_SOURCE_NAMES[s.source]}</Typography.Text>
      <Typography.Text type="secondary">
        {s.start_date} – {s.end_date} · {s.lines} lines · {s.counts.open} open
      </Typography.Text>
    </Flex>
  );
}

/** The ledger side of an item: its movements' references and amounts. */
function LedgerRefs({ l }: { l: ApiStatementLine }) {
  if (!l.ledger.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex vertical>
      {l.ledger.map((m) => (
        <Typography.Text key={m.transfer_id} className="cw-hash">
          {m.reference} · {signed(m.amount)}
        </Typography.Text>
      ))}
    </Flex>
  );
}

/** Why an item is open: the matcher's reason when a movement came close, else which side lacks it. */
const whyOf = (l: ApiStatementLine) =>
  l.reason ??
  (l.status === 'missing_theirs' ? 'Not on their statement' : l.status === 'missing_ours' ? 'Not in our ledger' : null);

export function lineColumns(resolveCell: (l: ApiStatementLine) => React.ReactNode): TableColumnsType<ApiStatementLine> {
  return [
    { title: 'Line', dataIndex: 'line', width: 70, render: (v: number | null) => v ?? '—' },
    { title: 'Date', dataIndex: 'at', width: 170, render: (v: string) => dateTime(v) },
    { title: 'Amount', dataIndex: 'amount', align: 'right', width: 110, render: (v: string) => signed(v) },
    {
      title: 'Their reference',
      dataIndex: 'reference',
      ellipsis: true,
      render: (v: string | null, l) => (l.status === 'missing_theirs' ? '—' : (v ?? '—')),
    },
    { title: 'Our ledger', key: 'ledger', render: (_, l) => <LedgerRefs l={l} /> },
    {
      title: 'Why',
      dataIndex: 'reason',
      render: (_: string | null, l) => whyOf(l) ?? '—',
    },
    { title: 'Resolution', key: 'resolved', width: 220, render: (_, l) => resolveCell(l) },
  ];
}

export function LineItem({
  l,
  resolveCell,
}: {
  l: ApiStatementLine;
  resolveCell: (l: ApiStatementLine) => React.ReactNode;
}) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong>{signed(l.amount)}</Typography.Text>
        <Typography.Text type="secondary">{dateTime(l.at)}</Typography.Text>
      </Flex>
      {l.line !== null && (
        <Typography.Text type="secondary">
          Line {l.line}: {l.reference ?? 'no reference'}
        </Typography.Text>
      )}
      {l.ledger.length > 0 && <LedgerRefs l={l} />}
      {whyOf(l) && <Typography.Text type="secondary">{whyOf(l)}</Typography.Text>}
      {resolveCell(l)}
    </Flex>
  );
}
