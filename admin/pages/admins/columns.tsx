import { DeleteOutlined, EditOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Typography, type TableColumnsType } from 'antd';
import { type ApiAdmin, STAFF_ROLE_KEYS } from '@shared/contract';
import { formatPhone } from '@shared/phone';
import { ShortId } from '../../components/ShortId';

export const adminName = (a: ApiAdmin) => `${a.first_name} ${a.last_name}`.trim();

function AdminStateTags({ a }: { a: ApiAdmin }) {
  return (
    <Flex gap={4} wrap>
      <Tag color={a.state === 'Active' ? 'green' : 'gold'} style={{ marginInlineEnd: 0 }}>
        {a.state}
      </Tag>
      <Tag color={a.role === 'super-admin' ? 'purple' : 'blue'} bordered={false} style={{ marginInlineEnd: 0 }}>
        {STAFF_ROLE_KEYS[a.role]}
      </Tag>
    </Flex>
  );
}

type Act = {
  meId?: string;
  /** the role may add, change and remove staff (the Auditor only reads) */
  mayManage: boolean;
  onEdit(a: ApiAdmin): void;
  onDelete(a: ApiAdmin): void;
  onResetTwoFactor(a: ApiAdmin): void;
};

/** Edit, and Reset 2FA and Delete on every row but one's own. */
function AdminActions({ a, meId, mayManage, onEdit, onDelete, onResetTwoFactor }: Act & { a: ApiAdmin }) {
  if (!mayManage) return null;
  return (
    <Flex gap={8} justify="flex-end">
      <Button icon={<EditOutlined />} aria-label={`Edit ${adminName(a)}`} onClick={() => onEdit(a)} />
      {a.id !== meId && a.state === 'Active' && (
        <Button
          icon={<SafetyOutlined />}
          aria-label={`Reset 2FA of ${adminName(a)}`}
          title="Reset 2FA"
          onClick={() => onResetTwoFactor(a)}
        />
      )}
      {a.id !== meId && (
        <Button danger icon={<DeleteOutlined />} aria-label={`Delete ${adminName(a)}`} onClick={() => onDelete(a)} />
      )}
    </Flex>
  );
}

/** Spec §2.11's columns. */
export function adminColumns(act: Act): TableColumnsType<ApiAdmin> {
  return [
    { title: 'Admin Id', dataIndex: 'id', render: (v: string) => <ShortId value={v} /> },
    {
      title: 'First Name',
      dataIndex: 'first_name',
      render: (v: string, a) => (
        <Typography.Text strong>
          {v}
          {a.id === act.meId && <Typography.Text type="secondary"> (you)</Typography.Text>}
        </Typography.Text>
      ),
    },
    { title: 'Last Name', dataIndex: 'last_name' },
    { title: 'Email Address', dataIndex: 'email' },
    {
      title: 'Phone Number',
      dataIndex: 'phone_number',
      render: (v: string | null) => <span style={{ whiteSpace: 'nowrap' }}>{formatPhone(v) || '—'}</span>,
    },
    { title: 'State', dataIndex: 'state', render: (_, a) => <AdminStateTags a={a} /> },
    { key: 'actions', align: 'right', width: 150, render: (_, a) => <AdminActions a={a} {...act} /> },
  ];
}

/** The compact row phones show. */
export function AdminItem({ a, ...act }: Act & { a: ApiAdmin }) {
  return (
    <Flex justify="space-between" align="center" gap={8}>
      <Flex vertical gap={4} style={{ minWidth: 0 }}>
        <Typography.Text strong ellipsis>
          {adminName(a)}
          {a.id === act.meId && <Typography.Text type="secondary"> (you)</Typography.Text>}
        </Typography.Text>
        <Typography.Text type="secondary" ellipsis>
          {a.email}
        </Typography.Text>
        <Typography.Text type="secondary">{formatPhone(a.phone_number) || '—'}</Typography.Text>
        <AdminStateTags a={a} />
      </Flex>
      <AdminActions a={a} {...act} />
    </Flex>
  );
}
