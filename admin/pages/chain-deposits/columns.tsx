import { CHAIN_DEPOSIT_STATUS_NAMES, moneyText } from '@shared/vocabulary';
import { Button, Flex, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { ApiChainDeposit, ChainDepositStatus } from '@shared/contract';
import { dateTime } from '../../format';
import { Hash } from '../wallet-loads/columns';
import { useCan } from '../../components/Allowed';

const STATUS_COLORS: Record<ChainDepositStatus, string> = {
  Unassigned: 'gold',
  Credited: 'green',
  Assigned: 'blue',
  Returned: 'default',
};

/** Why a deposit waits for staff, in a few words. */
const REASON_LABELS: Record<NonNullable<ApiChainDeposit['reason']>, string> = {
  'no-wallet': 'Address of no wallet',
  'below-minimum': 'Below the minimum top-up',
  'amount-mismatch': 'Not the amount its top-up expects',
};

function DepositStatusTag({ status }: { status: ChainDepositStatus }) {
  return (
    <Tag color={STATUS_COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {CHAIN_DEPOSIT_STATUS_NAMES[status]}
    </Tag>
  );
}

/** The status, then why it waits (Unassigned) or who decided (Assigned, Returned) and their note. */
function StatusCell({ d }: { d: ApiChainDeposit }) {
  const by = d.decided_by
    ? `by ${d.decided_by.first_name} ${d.decided_by.last_name}`
    : d.status === 'Credited'
      ? 'automatically'
      : null;
  return (
    <Flex vertical gap={2} align="flex-start">
      <DepositStatusTag status={d.status} />
      {d.status === 'Unassigned' && d.reason && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {REASON_LABELS[d.reason]}
        </Typography.Text>
      )}
      {d.status !== 'Unassigned' && by && (
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {by}
        </Typography.Text>
      )}
      {d.note && (
        <Typography.Text type="secondary" ellipsis={{ tooltip: d.note }} style={{ fontSize: 12, maxWidth: 200 }}>
          {d.note}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** An address, shortened with the full one in the tooltip and the copy. */
export function Address({ value }: { value: string }) {
  return (
    <Tooltip title={value}>
      <Typography.Text
        className="cw-hash"
        copyable={{ text: value, tooltips: ['Copy address', 'Copied'] }}
        style={{ whiteSpace: 'nowrap' }}
      >
        {`${value.slice(0, 6)}…${value.slice(-6)}`}
      </Typography.Text>
    </Tooltip>
  );
}

/** The wallet it went to (or was assigned to), under the address. */
function ToCell({ d }: { d: ApiChainDeposit }) {
  return (
    <Flex vertical gap={2}>
      <Address value={d.to} />
      <Typography.Text type={d.name ? undefined : 'secondary'} style={{ fontSize: 12 }}>
        {d.name ?? 'No wallet'}
      </Typography.Text>
    </Flex>
  );
}

export interface DepositActions {
  assign(d: ApiChainDeposit): void;
  giveBack(d: ApiChainDeposit): void;
}

/** Assign and Return, for a deposit still waiting for staff. */
function DepositButtons({ d, actions, block }: { d: ApiChainDeposit; actions: DepositActions; block?: boolean }) {
  const may = useCan('deposits.manage');
  if (d.status !== 'Unassigned' || !may) return null;
  const label = `${moneyText(d.amount, 'USDT')} from ${d.from}`;
  return (
    <Flex gap={8} style={block ? { width: '100%' } : undefined}>
      <Button
        size="small"
        type="primary"
        aria-label={`Assign ${label}`}
        onClick={() => actions.assign(d)}
        block={block}
      >
        Assign
      </Button>
      <Button size="small" aria-label={`Return ${label}`} onClick={() => actions.giveBack(d)} block={block}>
        Return
      </Button>
    </Flex>
  );
}

const nowrap = (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span>;

export function depositColumns(actions: DepositActions): TableColumnsType<ApiChainDeposit> {
  return [
    {
      title: 'Amount',
      dataIndex: 'amount',
      render: (v: string) => (
        <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
          {moneyText(v, 'USDT')}
        </Typography.Text>
      ),
    },
    { title: 'Status', dataIndex: 'status', render: (_, d) => <StatusCell d={d} /> },
    { title: 'To', dataIndex: 'to', render: (_, d) => <ToCell d={d} /> },
    { title: 'From', dataIndex: 'from', render: (v: string) => <Address value={v} /> },
    { title: 'Transaction Hash', dataIndex: 'hash', render: (v: string) => <Hash value={v} /> },
    { title: 'Received', dataIndex: 'block_time', render: (v: string) => nowrap(dateTime(v)) },
    { title: 'Actions', key: 'actions', render: (_, d) => <DepositButtons d={d} actions={actions} /> },
  ];
}

/** A deposit on a phone: amount and status, why or by whom, where from and to, the hash, the buttons. */
export function DepositItem({ d, actions }: { d: ApiChainDeposit; actions: DepositActions }) {
  return (
    <Flex vertical gap={6}>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text strong>{moneyText(d.amount, 'USDT')}</Typography.Text>
        <DepositStatusTag status={d.status} />
      </Flex>
      <StatusDetail d={d} />
      <Flex justify="space-between" gap={8} wrap>
        <span>
          <Typography.Text type="secondary">To </Typography.Text>
          <Address value={d.to} />
        </span>
        <Typography.Text type={d.name ? undefined : 'secondary'}>{d.name ?? 'No wallet'}</Typography.Text>
      </Flex>
      <span>
        <Typography.Text type="secondary">From </Typography.Text>
        <Address value={d.from} />
      </span>
      <Hash value={d.hash} />
      <Typography.Text type="secondary">{dateTime(d.block_time)}</Typography.Text>
      <DepositButtons d={d} actions={actions} block />
    </Flex>
  );
}

/** StatusCell without its tag (the phone row shows the tag beside the amount). */
function StatusDetail({ d }: { d: ApiChainDeposit }) {
  const by = d.decided_by
    ? `by ${d.decided_by.first_name} ${d.decided_by.last_name}`
    : d.status === 'Credited'
      ? 'Credited automatically'
      : null;
  const text = d.status === 'Unassigned' ? (d.reason ? REASON_LABELS[d.reason] : null) : by;
  if (!text && !d.note) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {[text, d.note].filter(Boolean).join(' · ')}
    </Typography.Text>
  );
}
