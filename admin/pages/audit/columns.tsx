import { Flex, Tag, Typography, type TableColumnsType } from 'antd';
import { type ApiAuditEntry, UUID_PATTERN } from '@shared/contract';
import { displayMoney } from '@shared/money';
import { type Currency, centsText } from '@shared/vocabulary';
import { ShortId } from '../../components/ShortId';
import { dateTime } from '../../format';

/** Staff actions in words (server/plugins/audit.ts names them). */
export const ACTION_LABELS: Record<string, string> = {
  'verification.approve': 'Verification approved',
  'verification.reject': 'Verification rejected',
  'individual.deactivate': 'Individual deactivated',
  'individual.reactivate': 'Individual reactivated',
  'company.deactivate': 'Company deactivated',
  'company.reactivate': 'Company reactivated',
  'topup.approve': 'Top-up approved',
  'topup.deny': 'Top-up denied',
  'card.freeze': 'Card frozen',
  'card.unfreeze': 'Card unfrozen',
  'card.flag': 'Card flagged',
  'card.unflag': 'Card unflagged',
  'card.suspend': 'Card suspended',
  'card.unsuspend': 'Card unsuspended',
  'card.delete': 'Card deleted',
  'card.withdraw': 'Card withdrawal',
  'card.fund': 'Card funded',
  'fee.update': 'Fee updated',
  'fee.override': 'Company fee set',
  'momo.update': 'Momo settings saved',
  'statement.upload': 'Statement uploaded',
  'statement.resolve': 'Statement item resolved',
  'statement_source.update': 'Statement mapping saved',
  'admin.create': 'Admin added',
  'admin.update': 'Admin updated',
  'admin.delete': 'Admin deleted',
  'admin.sessions_end': 'Admin sessions ended',
  'admin.deactivate': 'Admin deactivated',
  'admin.reactivate': 'Admin reactivated',
  'profile.update': 'Profile updated',
  'profile.password': 'Password changed',
  'sandbox.authorization': 'Sandbox authorization',
  'sandbox.reverse': 'Sandbox reversal',
  'sandbox.settle': 'Sandbox settlement',
  'dispute.create': 'Dispute opened',
  'dispute.submit': 'Dispute sent to the issuer',
  'dispute.withdraw': 'Dispute withdrawn',
  'sandbox.dispute_won': 'Sandbox dispute won',
  'sandbox.dispute_lost': 'Sandbox dispute lost',
};

export const OBJECT_TYPES = [
  'verification',
  'individual',
  'company',
  'topup',
  'card',
  'card-token',
  'card-transaction',
  'dispute',
  'fee',
  'momo-settings',
  'admin',
  'request',
];

const IDS = new Set(['verification_id', 'topup_id', 'account', 'card', 'card_id', 'card_token']);

function text(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 80)}…` : v;
  if (Array.isArray(v)) return v.map(text).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Amounts in a request's details, by action. The details are the body as the server read it, so
 * amounts are integer minor units (a momo flat fee of 500 is GHS 5.00): written as money here.
 */
const MONEY_FIELDS: Record<string, Record<string, Currency>> = {
  'card.fund': { amount: 'USD' },
  'card.withdraw': { amount: 'USD' },
  'sandbox.authorization': { amount: 'USD' },
  'momo.update': { flat_fee: 'GHS' },
};

function detailText(a: ApiAuditEntry, key: string, v: unknown): string {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return text(v);
  const currency = MONEY_FIELDS[a.action]?.[key];
  if (currency) return centsText(v, currency);
  // A fee's value is hundredths of a percent or of a dollar, as its type says.
  if (key === 'value' && a.action.startsWith('fee.'))
    return a.details?.type === 'percentage' ? `${displayMoney(v)} %` : centsText(v, 'USD');
  return text(v);
}

/** The request's details in a line: "decision: reject · reason: …" (ids the Object column shows are left out). */
function detailsSummary(a: ApiAuditEntry): string {
  const parts = Object.entries(a.details ?? {})
    .filter(([k, v]) => k !== 'route' && !(IDS.has(k) && String(v) === a.object_id))
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${detailText(a, k, v)}`);
  return parts.length ? parts.join(' · ') : '—';
}

export function ObjectRef({ a }: { a: ApiAuditEntry }) {
  return (
    <Flex gap={6} align="center" wrap>
      <Tag bordered={false} style={{ marginInlineEnd: 0 }}>
        {a.object_type}
      </Tag>
      {a.object_id &&
        (UUID_PATTERN.test(a.object_id) ? (
          <ShortId value={a.object_id} />
        ) : (
          <Typography.Text copyable>{a.object_id}</Typography.Text>
        ))}
    </Flex>
  );
}

function ActionCell({ action }: { action: string }) {
  return (
    <Flex vertical>
      <Typography.Text strong>{ACTION_LABELS[action] ?? action}</Typography.Text>
      <Typography.Text type="secondary" className="cw-hash">
        {action}
      </Typography.Text>
    </Flex>
  );
}

function WhoCell({ a }: { a: ApiAuditEntry }) {
  return (
    <Flex vertical align="flex-start">
      <Typography.Text>{a.actor_email}</Typography.Text>
      <Tag color={a.actor_role === 'Super-Admin' ? 'purple' : 'blue'} bordered={false}>
        {a.actor_role}
      </Tag>
    </Flex>
  );
}

export const auditColumns: TableColumnsType<ApiAuditEntry> = [
  {
    title: 'When',
    dataIndex: 'created_at',
    render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
  },
  { title: 'Who', key: 'who', render: (_, a) => <WhoCell a={a} /> },
  { title: 'Action', dataIndex: 'action', render: (v: string) => <ActionCell action={v} /> },
  { title: 'Object', key: 'object', render: (_, a) => <ObjectRef a={a} /> },
  {
    title: 'Details',
    key: 'details',
    width: '32%',
    render: (_, a) => (
      <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
        {detailsSummary(a)}
      </Typography.Paragraph>
    ),
  },
];

/** The compact row phones show. */
export function AuditItem({ a }: { a: ApiAuditEntry }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" align="flex-start" gap={8}>
        <ActionCell action={a.action} />
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          {dateTime(a.created_at)}
        </Typography.Text>
      </Flex>
      <Typography.Text ellipsis>
        {a.actor_email} <Typography.Text type="secondary">({a.actor_role})</Typography.Text>
      </Typography.Text>
      <ObjectRef a={a} />
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
        {detailsSummary(a)}
      </Typography.Paragraph>
    </Flex>
  );
}
