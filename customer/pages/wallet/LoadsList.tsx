import { useQuery } from '@tanstack/react-query';
import { Card, Select, Space, type TableColumnsType, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { api } from '@shared/api/client';
import { type ApiTopup, type Paged, TOPUP_STATES, type TopupState } from '@shared/contract';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import {
  type CompactRow,
  PAGE_SIZE,
  PagedTable,
  TopupStateTag,
  topupStateName,
  WALLET_KEYS,
  dateTime,
  ghs,
  shortId,
  useIsPhone,
  usdt,
} from '@shared/ui/wallet';

const mono = { fontFamily: 'monospace', fontSize: 12 } as const;
const nowrap = (text: string) => <span style={{ whiteSpace: 'nowrap' }}>{text}</span>;

const Hash = ({ value }: { value: string | null }) =>
  value ? (
    <Typography.Text title={value} style={mono}>
      {shortId(value, 10, 6)}
    </Typography.Text>
  ) : (
    '-'
  );

/** The agents' filter of the states they act on (MOMO_CONFIRMABLE), beside each state. */
const TO_CONFIRM = 'to-confirm';
type StateFilter = TopupState | typeof TO_CONFIRM;

/** Momo top-ups in these states have nothing left for an agent to confirm. */
const FINAL = new Set(['Approved', 'Denied', 'MoMo processed']);

const amountColumn = { title: 'Amount', dataIndex: 'amount', render: (v: string) => nowrap(usdt(v)) };
const modifiedColumn = { title: 'Last Modified', dataIndex: 'updated_at', render: (v: string) => nowrap(dateTime(v)) };

interface Variant {
  path: string;
  csvName: string;
  key(walletId: string | undefined, state: StateFilter | null, page: number): readonly unknown[];
  /** the filter the list opens on; the agents' list opens on what they can confirm */
  initialState?: StateFilter;
  title(total: number | undefined): ReactNode;
  /** on phones the filters go under the title, which would otherwise be cut to make room */
  filtersBelowOnPhone: boolean;
  emptyText(state: StateFilter | undefined): string;
  rowLabel(r: ApiTopup): string;
  clickable?(r: ApiTopup): boolean;
  columns: TableColumnsType<ApiTopup>;
  compact(r: ApiTopup): CompactRow;
}

const VARIANTS: Record<'wallet' | 'momo', Variant> = {
  /** the customer's own top-ups (/portal/wallet-loads) */
  wallet: {
    path: '/reports/view-wallet-topups',
    csvName: 'wallet-loads',
    key: (walletId, state, page) => [...WALLET_KEYS.topups, walletId, state, page],
    title: () => 'Wallet Load Transactions',
    filtersBelowOnPhone: true,
    emptyText: (state) =>
      state && state !== TO_CONFIRM
        ? `No ${topupStateName(state)} top-ups`
        : 'No top-ups yet. Use Top Up to add funds to your master wallet.',
    rowLabel: (r) => `Top-up of ${usdt(r.amount)}, ${topupStateName(r.state)}`,
    columns: [
      amountColumn,
      { title: 'Method', dataIndex: 'method' },
      { title: 'Transaction Hash', dataIndex: 'transaction_hash', render: (v: string | null) => <Hash value={v} /> },
      { title: 'State', dataIndex: 'state', render: (v: string) => <TopupStateTag state={v} /> },
      modifiedColumn,
    ],
    compact: (r) => ({
      title: usdt(r.amount),
      description: (
        <>
          <div>
            {r.method} · {dateTime(r.updated_at)}
          </div>
          {r.transaction_hash && <Hash value={r.transaction_hash} />}
        </>
      ),
      extra: <TopupStateTag state={r.state} />,
    }),
  },
  /** mobile-money top-ups for the momo agents to confirm (/portal/momo-loads) */
  momo: {
    path: '/wallet/list-momo-topups',
    csvName: 'momo-top-ups',
    key: (_, state, page) => [...WALLET_KEYS.momoTopups, state, page],
    title: (total) => (
      <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
        {total === undefined ? 'Top-ups' : `${total} top-ups`}
      </Typography.Text>
    ),
    filtersBelowOnPhone: false,
    initialState: TO_CONFIRM,
    emptyText: (state) => (state === TO_CONFIRM ? 'No mobile-money top-ups to confirm' : 'No mobile-money top-ups'),
    rowLabel: (r) => `Confirm ${r.name}, ${usdt(r.amount)}`,
    clickable: (r) => !FINAL.has(r.state),
    columns: [
      { title: 'Name', dataIndex: 'name' },
      { title: 'Account Type', dataIndex: 'name_type' },
      {
        title: 'Wallet',
        dataIndex: 'wallet_id',
        render: (v: string) => (
          <span title={v} style={mono}>
            {shortId(v, 8, 4)}
          </span>
        ),
      },
      {
        // with what the customer pays by mobile money (kept with the top-up, at the rate of the day), in the
        // spec's Amount column: a column more would not fit beside the sidebar
        title: 'Amount',
        dataIndex: 'amount',
        render: (v: string, r) => (
          <>
            {nowrap(usdt(v))}
            <div>
              <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                {ghs(r.momo_amount)}
              </Typography.Text>
            </div>
          </>
        ),
      },
      {
        title: 'Transaction Hash',
        dataIndex: 'transaction_hash',
        render: (v: string | null) => <span style={mono}>{v ?? '-'}</span>,
      },
      { title: 'State', dataIndex: 'state', render: (v: string) => <TopupStateTag state={v} processedIsDone /> },
      modifiedColumn,
    ],
    compact: (r) => ({
      title: r.name,
      description: (
        <>
          <div>
            {r.name_type} · {usdt(r.amount)} · <strong style={{ whiteSpace: 'nowrap' }}>{ghs(r.momo_amount)}</strong>
          </div>
          {r.transaction_hash && <div style={mono}>{r.transaction_hash}</div>}
          <div>{dateTime(r.updated_at)}</div>
        </>
      ),
      extra: <TopupStateTag state={r.state} processedIsDone />,
    }),
  },
};

/** The list of top-ups on both loads pages: a state filter, Export CSV and the paged table. */
export function LoadsList({
  variant,
  walletId,
  onOpen,
}: {
  variant: keyof typeof VARIANTS;
  /** the wallet whose top-ups are listed (the customer's own); none for the agents' list */
  walletId?: string;
  onOpen(r: ApiTopup): void;
}) {
  const v = VARIANTS[variant];
  const phone = useIsPhone();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<StateFilter | undefined>(v.initialState);
  const scope = walletId ? { wallet: walletId } : {};
  const filter = state === TO_CONFIRM ? { to_confirm: 'true' } : { state };
  const query = useQuery({
    queryKey: v.key(walletId, state ?? null, page),
    queryFn: () =>
      api<Paged<ApiTopup>>('GET', v.path, { query: { ...scope, ...filter, page, per_page: PAGE_SIZE }, silent: true }),
  });

  const filters = (
    <Space size={8}>
      <Select
        aria-label="State"
        allowClear
        placeholder="All states"
        size="small"
        style={{ width: phone ? 130 : 170 }}
        value={state}
        onChange={(s) => {
          setState(s);
          setPage(1);
        }}
        options={[
          ...(v.initialState === TO_CONFIRM ? [{ value: TO_CONFIRM, label: 'To confirm' }] : []),
          ...TOPUP_STATES.map((s) => ({ value: s, label: topupStateName(s) })),
        ]}
      />
      <ExportCsvButton
        path={v.path}
        query={{ ...scope, ...filter }}
        filename={v.csvName}
        size="small"
        label={phone ? 'CSV' : 'Export CSV'}
      />
    </Space>
  );
  const below = phone && v.filtersBelowOnPhone;

  return (
    <Card
      title={v.title(query.data?.total)}
      styles={{ body: { padding: phone ? 12 : 0 }, header: below ? { paddingInline: 12 } : undefined }}
      extra={below ? undefined : filters}
    >
      {below && <div style={{ marginBottom: 12 }}>{filters}</div>}
      <PagedTable<ApiTopup>
        rowKey={(r) => r.id}
        rows={query.data?.data}
        total={query.data?.total ?? 0}
        page={page}
        onPage={setPage}
        loading={query.isLoading}
        error={query.error}
        emptyText={v.emptyText(state)}
        onRowClick={onOpen}
        clickable={v.clickable}
        rowLabel={v.rowLabel}
        columns={v.columns}
        compact={v.compact}
      />
    </Card>
  );
}
