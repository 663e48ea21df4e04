import { Button, Flex, Tag, Typography, type TableColumnsType } from 'antd';
import { APPROVAL_ACTIONS, APPROVAL_ACTION_LABELS, type ApiApproval, type ApprovalState, can } from '@shared/contract';
import { dateTime } from '../../format';

const STATE_COLORS: Record<ApprovalState, string> = {
  pending: 'gold',
  approved: 'green',
  rejected: 'red',
  expired: 'default',
  failed: 'volcano',
};
export const STATE_NAMES: Record<ApprovalState, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  failed: 'Failed',
};

export interface ApprovalActions {
  approve(a: ApiApproval): void;
  reject(a: ApiApproval): void;
  /** the signed-in staff member: nobody decides their own request */
  meId?: string;
  /** the viewer's role: the buttons show only on requests it may approve */
  role?: string;
  busyId?: string;
}

/** How long ago, in words a queue reads ("3 h ago"). */
function age(iso: string, now = Date.now()): string {
  const min = Math.max(0, Math.round((now - new Date(iso).getTime()) / 60_000));
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  return h < 24 ? `${h} h ago` : `${Math.floor(h / 24)} d ago`;
}

function StateTag({ a }: { a: ApiApproval }) {
  const state = a.state as ApprovalState;
  return (
    <Tag color={STATE_COLORS[state]} style={{ marginInlineEnd: 0 }}>
      {STATE_NAMES[state]}
    </Tag>
  );
}

/** Who decided, and why it was rejected or refused. */
function Outcome({ a }: { a: ApiApproval }) {
  if (a.state === 'pending')
    return <Typography.Text type="secondary">Expires {dateTime(a.expires_at)}</Typography.Text>;
  const refused =
    a.state === 'failed' && a.result?.body && typeof a.result.body === 'object'
      ? (a.result.body as { message?: string }).message
      : null;
  return (
    <Flex vertical gap={2}>
      {a.decided_by && <Typography.Text type="secondary">by {a.decided_by.email}</Typography.Text>}
      {a.reason && <Typography.Text type="secondary">Reason: {a.reason}</Typography.Text>}
      {refused && <Typography.Text type="danger">{refused}</Typography.Text>}
    </Flex>
  );
}

function Buttons({ a, actions, block }: { a: ApiApproval; actions: ApprovalActions; block?: boolean }) {
  if (a.state !== 'pending') return null;
  if (a.initiator.id === actions.meId)
    return <Typography.Text type="secondary">Waiting for another person</Typography.Text>;
  if (!can(actions.role, APPROVAL_ACTIONS[a.action]))
    return <Typography.Text type="secondary">Waiting for someone who may approve it</Typography.Text>;
  return (
    <Flex gap={8} wrap>
      <Button
        type="primary"
        size="small"
        block={block}
        loading={actions.busyId === a.id}
        onClick={(e) => {
          e.stopPropagation();
          actions.approve(a);
        }}
        aria-label={`Approve: ${a.summary}`}
      >
        Approve
      </Button>
      <Button
        danger
        size="small"
        block={block}
        onClick={(e) => {
          e.stopPropagation();
          actions.reject(a);
        }}
        aria-label={`Reject: ${a.summary}`}
      >
        Reject
      </Button>
    </Flex>
  );
}

export const approvalColumns = (actions: ApprovalActions): TableColumnsType<ApiApproval> => [
  {
    title: 'Request',
    key: 'summary',
    render: (_v, a) => (
      <Flex vertical gap={2}>
        <Typography.Text strong>{a.summary}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {APPROVAL_ACTION_LABELS[a.action]}
        </Typography.Text>
      </Flex>
    ),
  },
  { title: 'Asked by', key: 'initiator', render: (_v, a) => a.initiator.email },
  {
    title: 'Asked',
    key: 'age',
    render: (_v, a) => <span title={dateTime(a.created_at)}>{age(a.created_at)}</span>,
  },
  {
    title: 'State',
    key: 'state',
    render: (_v, a) => (
      <Flex vertical gap={2} align="flex-start">
        <StateTag a={a} />
        <Outcome a={a} />
      </Flex>
    ),
  },
  { title: 'Actions', key: 'actions', render: (_v, a) => <Buttons a={a} actions={actions} /> },
];

export function ApprovalItem({ a, actions }: { a: ApiApproval; actions: ApprovalActions }) {
  return (
    <Flex vertical gap={6}>
      <Flex justify="space-between" align="flex-start" gap={8}>
        <Typography.Text strong>{a.summary}</Typography.Text>
        <StateTag a={a} />
      </Flex>
      <Typography.Text type="secondary">
        {a.initiator.email} · {age(a.created_at)}
      </Typography.Text>
      <Outcome a={a} />
      <Buttons a={a} actions={actions} block />
    </Flex>
  );
}
