import { DeleteOutlined, EditOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { type ApiAdmin, STAFF_ROLE_KEYS } from '@shared/contract';
import { formatPhone } from '@shared/phone';
import { ShortId } from '../../components/ShortId';
import { AccessLines, LastSignIn, TwoFactorTag } from './access';

export const adminName = (a: ApiAdmin) => `${a.first_name} ${a.last_name}`.trim();

const STATE_COLORS: Record<ApiAdmin['state'], string> = { Active: 'green', Invited: 'gold', Deactivated: 'red' };

function AdminStateTags({ a, twoFactor = false }: { a: ApiAdmin; twoFactor?: boolean }) {
  return (
    <Flex gap={4} wrap>
      <Tag color={STATE_COLORS[a.state]} style={{ marginInlineEnd: 0 }}>
        {a.state}
      </Tag>
      <Tag color={a.role === 'super-admin' ? 'purple' : 'blue'} bordered={false} style={{ marginInlineEnd: 0 }}>
        {STAFF_ROLE_KEYS[a.role]}
      </Tag>
      {twoFactor && <TwoFactorTag a={a} named />}
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
  /** the access menu (end sessions, deactivate), or nothing for who may not */
  access(a: ApiAdmin): ReactNode;
};

/** Edit, and Reset 2FA and Delete on every row but one's own. */
function AdminActions({ a, meId, mayManage, onEdit, onDelete, onResetTwoFactor, access }: Act & { a: ApiAdmin }) {
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
      {access(a)}
    </Flex>
  );
}

/** Spec §2.11's columns, then the access review's (issue 33): second factor (2FA), last sign-in, open sessions. */
export function adminColumns(act: Act): TableColumnsType<ApiAdmin> {
  return [
    { title: 'Admin Id', dataIndex: 'id', width: 140, render: (v: string) => <ShortId value={v} /> },
    {
      title: 'First Name',
      dataIndex: 'first_name',
      width: 130,
      render: (v: string, a) => (
        <Typography.Text strong>
          {v}
          {a.id === act.meId && <Typography.Text type="secondary"> (you)</Typography.Text>}
        </Typography.Text>
      ),
    },
    { title: 'Last Name', dataIndex: 'last_name', width: 130 },
    { title: 'Email Address', dataIndex: 'email', width: 250 },
    {
      title: 'Phone Number',
      dataIndex: 'phone_number',
      width: 200,
      render: (v: string | null) => <span style={{ whiteSpace: 'nowrap' }}>{formatPhone(v) || '—'}</span>,
    },
    { title: 'State', dataIndex: 'state', width: 130, render: (_, a) => <AdminStateTags a={a} /> },
    { title: '2FA', dataIndex: 'two_factor', width: 110, render: (_, a) => <TwoFactorTag a={a} /> },
    { title: 'Last Sign-in', dataIndex: 'last_sign_in_at', width: 130, render: (_, a) => <LastSignIn a={a} /> },
    {
      title: 'Sessions',
      dataIndex: 'open_sessions',
      align: 'right',
      width: 100,
      render: (n: number) => n,
    },
    // Widths set: a table with a pinned column lays its columns out by them. Pinned: the table is wider than a
    // laptop's screen, and the actions stay in reach.
    { key: 'actions', align: 'right', width: 190, fixed: 'right', render: (_, a) => <AdminActions a={a} {...act} /> },
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
        <AdminStateTags a={a} twoFactor />
        <AccessLines a={a} />
      </Flex>
      <AdminActions a={a} {...act} />
    </Flex>
  );
}
