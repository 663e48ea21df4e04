import { EditOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Typography, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import type { ApiFee } from '@shared/contract';
import { moneyText } from '@shared/vocabulary';
import { dateTime } from '../../format';

export const feeType = (t: ApiFee['type']) => (t === 'percentage' ? 'Percentage' : 'Flat');
const feeValue = (f: Pick<ApiFee, 'type' | 'value'>) =>
  f.type === 'percentage' ? `${f.value} %` : moneyText(f.value, 'USD');
/** On a company's schedule a row it inherits is the default's. */
const feeFor = (f: ApiFee) => (f.inherited || f.for === 'default' ? 'Default' : 'Company');

function FeeStateTag({ state }: { state: ApiFee['state'] }) {
  return <Tag color={state === 'Active' ? 'green' : 'red'}>{state}</Tag>;
}

function CompanyLink({ f }: { f: ApiFee }) {
  if (!f.for_id || !f.for_name || f.inherited) return <Typography.Text type="secondary">—</Typography.Text>;
  return <Link to={`/admin/fees/${f.for_id}?acc_name=${encodeURIComponent(f.for_name)}`}>{f.for_name}</Link>;
}

/** The fee table; without `onEdit` (a role that may not change fees) no Edit button. */
export function feeColumns(onEdit?: (f: ApiFee) => void): TableColumnsType<ApiFee> {
  return [
    { title: 'Name', dataIndex: 'name', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
    { title: 'Type', dataIndex: 'type', render: feeType },
    {
      title: 'Value',
      dataIndex: 'value',
      render: (_, f) => <span style={{ whiteSpace: 'nowrap' }}>{feeValue(f)}</span>,
    },
    { title: 'State', dataIndex: 'state', render: (v: ApiFee['state']) => <FeeStateTag state={v} /> },
    { title: 'For', dataIndex: 'for', render: (_, f) => <Tag bordered={false}>{feeFor(f)}</Tag> },
    { title: 'Company', dataIndex: 'for_name', render: (_, f) => <CompanyLink f={f} /> },
    {
      title: 'Last Modified',
      dataIndex: 'updated_at',
      render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
    },
    ...(onEdit
      ? [
          {
            key: 'edit',
            align: 'right' as const,
            render: (_: unknown, f: ApiFee) => (
              <Button icon={<EditOutlined />} aria-label={`Edit ${f.name}`} onClick={() => onEdit(f)}>
                Edit
              </Button>
            ),
          },
        ]
      : []),
  ];
}

export function FeeItem({ f, onEdit }: { f: ApiFee; onEdit?: (f: ApiFee) => void }) {
  return (
    <Flex justify="space-between" align="center" gap={8}>
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Typography.Text strong ellipsis>
          {f.name}
        </Typography.Text>
        <Flex gap={6} align="center" wrap>
          <span>{feeValue(f)}</span>
          <FeeStateTag state={f.state} />
          <Tag bordered={false}>{feeFor(f)}</Tag>
        </Flex>
        {f.for_name && !f.inherited && <CompanyLink f={f} />}
        <Typography.Text type="secondary">{dateTime(f.updated_at)}</Typography.Text>
      </Flex>
      {onEdit && <Button icon={<EditOutlined />} aria-label={`Edit ${f.name}`} onClick={() => onEdit(f)} />}
    </Flex>
  );
}
