import { Flex, Tag, Typography, type TableColumnsType } from 'antd';
import type { ApiVerificationRow } from '@shared/contract';
import { ACCOUNT_STATE_NAMES, VERIFICATION_STATE_NAMES } from '@shared/vocabulary';
import { ShortId } from '../../components/ShortId';
import { dateTime } from '../../format';

export type Kind = 'individual' | 'company';

/** What differs between the KYC (individuals) and KYB (companies) screens. */
export const KINDS = {
  individual: {
    resource: 'verifications-individuals',
    title: 'Individual Verifications',
    term: 'KYC',
    accountType: 'Individual',
  },
  company: { resource: 'verifications-companies', title: 'Company Verifications', term: 'KYB', accountType: 'Company' },
} as const;

/** A submission's state as staff read it: pending is In-review (design §4). */
export const VERIFICATION_STATES = [
  { value: 'pending', label: VERIFICATION_STATE_NAMES.pending, color: 'gold' },
  { value: 'approved', label: VERIFICATION_STATE_NAMES.approved, color: 'green' },
  { value: 'rejected', label: VERIFICATION_STATE_NAMES.rejected, color: 'red' },
] as const;

export function VerificationStateTag({ state }: { state: string }) {
  const s = VERIFICATION_STATES.find((x) => x.value === state);
  return (
    <Tag color={s?.color} style={{ marginInlineEnd: 0 }}>
      {s?.label ?? state}
    </Tag>
  );
}

/** The account's own verification state (pending → In-review). */
export function AccountStateTag({ state }: { state: string }) {
  const label = ACCOUNT_STATE_NAMES[state] ?? state;
  const color =
    label === 'Verified' ? 'green' : label === 'In-review' ? 'gold' : label === 'Deactivated' ? 'red' : 'default';
  return (
    <Tag color={color} style={{ marginInlineEnd: 0 }}>
      {label}
    </Tag>
  );
}

const nowrap = (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>;

export function verificationColumns(kind: Kind): TableColumnsType<ApiVerificationRow> {
  return [
    {
      title: 'Name',
      dataIndex: 'name',
      render: (_, v) => (
        <Flex vertical>
          <Typography.Text strong>{v.name || '—'}</Typography.Text>
          <Typography.Text type="secondary">{v.email}</Typography.Text>
        </Flex>
      ),
    },
    { title: 'Account Type', dataIndex: 'account_type', render: () => KINDS[kind].accountType },
    { title: 'State', dataIndex: 'state', render: (s: string) => <VerificationStateTag state={s} /> },
    { title: 'Submitted', dataIndex: 'created_at', render: nowrap },
    { title: 'Last Modified', dataIndex: 'updated_at', render: nowrap },
    { title: 'Id', dataIndex: 'id', render: (v: string) => <ShortId value={v} /> },
    { title: 'Account Id', dataIndex: 'account_id', render: (v: string) => <ShortId value={v} /> },
  ];
}

/** The compact row phones show. */
export function VerificationItem({ v }: { v: ApiVerificationRow }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text strong ellipsis>
          {v.name || '—'}
        </Typography.Text>
        <VerificationStateTag state={v.state} />
      </Flex>
      <Typography.Text type="secondary" ellipsis>
        {v.email}
      </Typography.Text>
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text type="secondary">Submitted {dateTime(v.created_at)}</Typography.Text>
        {v.state === 'rejected' && v.reason && (
          <Typography.Text type="danger" ellipsis style={{ maxWidth: '100%' }}>
            {v.reason}
          </Typography.Text>
        )}
      </Flex>
    </Flex>
  );
}
