import { DeleteOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Typography, type TableColumnsType } from 'antd';
import type { ApiBalanceMonitor } from '@shared/contract';
import { moneyText } from '@shared/vocabulary';
import { dateTime } from '../../format';

function StateTag({ m }: { m: ApiBalanceMonitor }) {
  return m.state === 'below' ? <Tag color="red">Below</Tag> : <Tag color="green">Armed</Tag>;
}

const money = (v: string, m: ApiBalanceMonitor) => (
  <span style={{ whiteSpace: 'nowrap' }}>{moneyText(v, m.currency)}</span>
);

/** The alerts' table; without `onDelete` no Delete button. */
export function monitorColumns(onDelete?: (m: ApiBalanceMonitor) => void): TableColumnsType<ApiBalanceMonitor> {
  return [
    {
      title: 'Account',
      dataIndex: 'label',
      render: (v: string, m) => (
        <Flex vertical>
          <Typography.Text strong>{v}</Typography.Text>
          <Typography.Text type="secondary" copyable={{ text: m.account }}>
            {m.account}
          </Typography.Text>
        </Flex>
      ),
    },
    { title: 'Alert Below', dataIndex: 'below', render: (v: string, m) => money(v, m) },
    { title: 'Balance', dataIndex: 'balance', render: (v: string, m) => money(v, m) },
    { title: 'State', dataIndex: 'state', render: (_, m) => <StateTag m={m} /> },
    { title: 'Alerts', dataIndex: 'crossings' },
    {
      title: 'Last Alert',
      dataIndex: 'fired_at',
      render: (v: string | null) => <span style={{ whiteSpace: 'nowrap' }}>{v ? dateTime(v) : '—'}</span>,
    },
    ...(onDelete
      ? [
          {
            key: 'delete',
            align: 'right' as const,
            render: (_: unknown, m: ApiBalanceMonitor) => (
              <Button
                danger
                icon={<DeleteOutlined />}
                aria-label={`Delete the alert of ${m.label}`}
                onClick={() => onDelete(m)}
              >
                Delete
              </Button>
            ),
          },
        ]
      : []),
  ];
}

export function MonitorItem({ m, onDelete }: { m: ApiBalanceMonitor; onDelete?: (m: ApiBalanceMonitor) => void }) {
  return (
    <Flex justify="space-between" align="center" gap={8}>
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Typography.Text strong ellipsis>
          {m.label}
        </Typography.Text>
        <Flex gap={6} align="center" wrap>
          <span>Below {moneyText(m.below, m.currency)}</span>
          <StateTag m={m} />
        </Flex>
        <Typography.Text type="secondary">
          Balance {moneyText(m.balance, m.currency)} · {m.crossings} alert{m.crossings === 1 ? '' : 's'}
        </Typography.Text>
      </Flex>
      {onDelete && (
        <Button
          danger
          icon={<DeleteOutlined />}
          aria-label={`Delete the alert of ${m.label}`}
          onClick={() => onDelete(m)}
        />
      )}
    </Flex>
  );
}
