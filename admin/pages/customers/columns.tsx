import { ACCOUNT_STATE_NAMES, moneyText } from '@shared/vocabulary';
import { Flex, Tag, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import type { ApiCustomerRow } from '@shared/contract';
import { formatPhone } from '@shared/phone';
import { dateTime } from '../../format';

export type Kind = 'individual' | 'company';

export const customerName = (c: ApiCustomerRow) =>
  (c.company_name ?? `${c.first_name ?? ''} ${c.last_name ?? ''}`.trim()) || '—';
const emailOf = (c: ApiCustomerRow) => c.company_email ?? c.email ?? '—';
const phoneOf = (c: ApiCustomerRow) => formatPhone(c.company_phone ?? c.phone_number) || '—';

const STATE_COLORS: Record<string, string> = {
  Verified: 'green',
  'In-review': 'gold',
  Unverified: 'default',
  Deactivated: 'red',
};

function CustomerStateTag({ state }: { state: string }) {
  return (
    <Tag color={STATE_COLORS[state]} style={{ marginInlineEnd: 0 }}>
      {ACCOUNT_STATE_NAMES[state] ?? state}
    </Tag>
  );
}

const nowrap = (v: ReactNode) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span>;

/** Spec §3: the User's and the Company's fields; `actions` is the row menu. */
export function customerColumns(
  kind: Kind,
  actions: (c: ApiCustomerRow) => ReactNode,
): TableColumnsType<ApiCustomerRow> {
  return [
    {
      title: kind === 'company' ? 'Company Name' : 'Name',
      key: 'name',
      render: (_, c) => (
        <Flex vertical>
          <Typography.Text strong>{customerName(c)}</Typography.Text>
          {kind === 'company' && c.company_website && (
            <Typography.Text type="secondary" ellipsis style={{ maxWidth: 220 }}>
              {c.company_website}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { title: 'Email', key: 'email', render: (_, c) => emailOf(c) },
    { title: 'Phone Number', key: 'phone', render: (_, c) => nowrap(phoneOf(c)) },
    { title: 'State', dataIndex: 'state', render: (s: string) => <CustomerStateTag state={s} /> },
    {
      title: 'Master Wallet',
      dataIndex: 'master_wallet',
      align: 'right',
      render: (v: string) => nowrap(moneyText(v, 'USDT')),
    },
    { title: 'Cards', dataIndex: 'cards_count', align: 'right' },
    { title: 'Active Cards', dataIndex: 'active_cards_count', align: 'right' },
    ...(kind === 'company'
      ? ([{ title: 'Users', dataIndex: 'users_count', align: 'right' }] as TableColumnsType<ApiCustomerRow>)
      : []),
    { title: 'Created', dataIndex: 'created_at', render: (v: string) => nowrap(dateTime(v)) },
    { key: 'actions', align: 'right', width: 64, render: (_, c) => actions(c) },
  ];
}

/** The compact row phones show. */
export function CustomerItem({ c, kind, actions }: { c: ApiCustomerRow; kind: Kind; actions: ReactNode }) {
  return (
    <Flex justify="space-between" align="flex-start" gap={8}>
      <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text strong ellipsis>
            {customerName(c)}
          </Typography.Text>
          <CustomerStateTag state={c.state} />
        </Flex>
        <Typography.Text type="secondary" ellipsis>
          {emailOf(c)}
        </Typography.Text>
        <Typography.Text type="secondary">{phoneOf(c)}</Typography.Text>
        <Flex justify="space-between" gap={8} wrap>
          <Typography.Text>{moneyText(c.master_wallet, 'USDT')}</Typography.Text>
          <Typography.Text type="secondary">
            {c.cards_count} cards · {c.active_cards_count} active
            {kind === 'company' ? ` · ${c.users_count ?? 0} users` : ''}
          </Typography.Text>
        </Flex>
        <Typography.Text type="secondary">Created {dateTime(c.created_at)}</Typography.Text>
      </Flex>
      {actions}
    </Flex>
  );
}
