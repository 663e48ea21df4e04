import { Flex, Tag, Typography, type TableColumnsType } from 'antd';
import type { ApiThirdParty } from '@shared/contract';
import { dateTime } from '../../format';

type Health = ApiThirdParty['webhook']['health'];

const HEALTH: Record<Health, { color: string; label: string }> = {
  healthy: { color: 'green', label: 'Healthy' },
  failing: { color: 'red', label: 'Failing' },
  disabled: { color: 'default', label: 'Disabled' },
  none: { color: '', label: 'None' },
};

/** Webhook health: healthy green, failing red, disabled grey, none (no callback URL) plain. */
export function HealthTag({ health }: { health: Health }) {
  const h = HEALTH[health] ?? HEALTH.none;
  if (health === 'none')
    return (
      <Tag bordered style={{ marginInlineEnd: 0, borderStyle: 'dashed', background: 'transparent', color: '#64748b' }}>
        {h.label}
      </Tag>
    );
  return (
    <Tag color={h.color} style={{ marginInlineEnd: 0 }}>
      {h.label}
    </Tag>
  );
}

export function ClientStateTag({ state }: { state: ApiThirdParty['state'] }) {
  return (
    <Tag color={state === 'Active' ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
      {state}
    </Tag>
  );
}

function WebhookCell({ w }: { w: ApiThirdParty['webhook'] }) {
  return (
    <Flex vertical gap={4} align="flex-start" style={{ maxWidth: 260 }}>
      <HealthTag health={w.health} />
      {w.url && (
        <Typography.Text type="secondary" ellipsis={{ tooltip: w.url }} style={{ maxWidth: 260, fontSize: 12 }}>
          {w.url}
        </Typography.Text>
      )}
    </Flex>
  );
}

const nowrap = (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span>;

export const thirdPartyColumns: TableColumnsType<ApiThirdParty> = [
  { title: 'Name', dataIndex: 'name' },
  { title: 'Company', dataIndex: 'company_name' },
  {
    title: 'Client Id',
    dataIndex: 'client_id',
    render: (v: string) => (
      <Typography.Text className="cw-hash" style={{ whiteSpace: 'nowrap' }}>
        {v}
      </Typography.Text>
    ),
  },
  { title: 'State', dataIndex: 'state', render: (v: ApiThirdParty['state']) => <ClientStateTag state={v} /> },
  {
    title: <span style={{ whiteSpace: 'nowrap' }}>Last Used</span>,
    dataIndex: 'last_used_at',
    render: (v: string | null) => nowrap(v ? dateTime(v) : 'Never'),
  },
  { title: 'Webhook', key: 'webhook', render: (_, r) => <WebhookCell w={r.webhook} /> },
  { title: 'Last Modified', dataIndex: 'updated_at', render: (v: string) => nowrap(dateTime(v)) },
];

/** A client on a phone: name and state, company, client id, webhook health, last use. */
export function ThirdPartyItem({ c }: { c: ApiThirdParty }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong ellipsis>
          {c.name}
        </Typography.Text>
        <ClientStateTag state={c.state} />
      </Flex>
      {c.company_name !== c.name && <Typography.Text type="secondary">{c.company_name}</Typography.Text>}
      <Typography.Text type="secondary" className="cw-hash">
        {c.client_id}
      </Typography.Text>
      <Flex justify="space-between" gap={8} align="center" wrap>
        <Flex gap={6} align="center">
          <Typography.Text type="secondary">Webhook</Typography.Text>
          <HealthTag health={c.webhook.health} />
        </Flex>
        <Typography.Text type="secondary">Used {c.last_used_at ? dateTime(c.last_used_at) : 'never'}</Typography.Text>
      </Flex>
    </Flex>
  );
}
