import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Select, Typography } from 'antd';
import { useState } from 'react';
import { api, type Query } from '../../api/client';
import { type ApiWalletTransaction, type Paged, WALLET_TX_TYPES, type WalletTransactionTotals } from '../../contract';
import { PageHeader } from '../PageHeader';
import { DEFAULT_PRESET, DateRangeFilter, type DayRange, type RangePreset, presetRange } from './DateRangeFilter';
import { DetailsDrawer, useDetails } from './DetailsDrawer';
import { WALLET_KEYS } from './keys';
import { PAGE_SIZE, PagedTable } from './PagedTable';
import { DirectionTag } from './StateTag';
import { WalletTransactionDetails } from './TransactionDetails';
import { dateTime, signedUsdt, txTypeLabel, usdt } from './format';
import { useIsPhone } from './useIsPhone';
import { ExportCsvButton } from '../ExportCsvButton';
import { StatementButton } from './StatementButton';

type Totals = { totals?: WalletTransactionTotals };

export interface WalletTransactionsScreenProps {
  /** the wallet to report on; none for staff (every wallet, narrowed by `params`) */
  walletId?: string | null;
  /** further filters the host adds, e.g. { company_id } in the back-office */
  params?: Query;
  title?: string;
  subtitle?: string;
}

const asId = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

type Search = { start: string; end: string; type?: string };

const searchOf = (r: DayRange, type?: string): Search => ({
  start: r.from!.format('YYYY-MM-DD'),
  end: r.to!.format('YYYY-MM-DD'),
  type,
});

/**
 * 'Wallet Transactions' (reports): the movements of the wallet in a period, the last 30 days at first (issue 31),
 * paged, each opening its details and fees. A preset applies at once; a custom range and the type on Search.
 * Used by the customer portal and the back-office alike.
 */
export function WalletTransactionsScreen({
  walletId,
  params,
  title = 'Wallet Transactions',
  subtitle = 'See all transactions that occur in your account',
}: WalletTransactionsScreenProps) {
  const phone = useIsPhone();
  const [draft, setDraft] = useState<DayRange>(() => presetRange(DEFAULT_PRESET));
  const [preset, setPreset] = useState<RangePreset>(DEFAULT_PRESET);
  const [type, setType] = useState<string>();
  const [popover, setPopover] = useState(false);
  const [error, setError] = useState<string>();
  const [search, setSearch] = useState<Search>(() => searchOf(draft));
  const [page, setPage] = useState(1);
  const details = useDetails<ApiWalletTransaction>();
  // A statement is of one wallet: the customer's own, or the account staff narrowed the screen to.
  const statementWallet = walletId ?? asId(params?.company_id) ?? asId(params?.individual_id);

  const query = useQuery({
    queryKey: [...WALLET_KEYS.transactions, 'report', walletId ?? null, params ?? null, search, page],
    queryFn: () =>
      api<Paged<ApiWalletTransaction> & Totals>('GET', '/reports/view-wallet-transactions', {
        query: {
          ...params,
          wallet: walletId ?? undefined,
          type: search.type,
          start_date: search.start,
          end_date: search.end,
          page,
          per_page: PAGE_SIZE,
        },
        silent: true,
      }),
  });

  function askForRange() {
    setError('Date range required');
    setPopover(true);
  }

  function runSearch(range = draft) {
    if (!range.from || !range.to) return askForRange();
    setError(undefined);
    setPopover(false);
    const next = searchOf(range, type);
    // The same search again reads the list again (the same query would come from the cache).
    if (page === 1 && JSON.stringify(next) === JSON.stringify(search)) void query.refetch();
    setPage(1);
    setSearch(next);
  }

  const data = query.data;
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <Card styles={{ body: { padding: phone ? 12 : 0 } }}>
        <Flex gap={8} wrap align="center" style={{ padding: phone ? '0 0 12px' : 16 }}>
          <DateRangeFilter
            value={draft}
            preset={preset}
            onChange={(v, p) => {
              setDraft(v);
              setPreset(p);
              if (v.from && v.to) setError(undefined);
            }}
            onApply={runSearch}
            open={popover}
            onOpenChange={setPopover}
            error={error}
            block={phone}
          />
          <Select
            aria-label="Transaction Type"
            allowClear
            placeholder="All transaction types"
            style={{ minWidth: 200, flex: phone ? 1 : undefined }}
            value={type}
            onChange={setType}
            options={WALLET_TX_TYPES.map((t) => ({ value: t, label: txTypeLabel(t) }))}
          />
          <Button type="primary" icon={<SearchOutlined />} onClick={() => runSearch()} block={phone}>
            Search
          </Button>
          <ExportCsvButton
            path="/reports/view-wallet-transactions"
            query={{
              ...params,
              wallet: walletId ?? undefined,
              type: search.type,
              start_date: search.start,
              end_date: search.end,
            }}
            filename="wallet-transactions"
            block={phone}
          />
          {statementWallet && (
            <StatementButton walletId={statementWallet} range={draft} onNeedRange={askForRange} block={phone} />
          )}
          {error && !popover && (
            <Typography.Text type="danger" role="alert" style={{ width: phone ? '100%' : undefined }}>
              {error}
            </Typography.Text>
          )}
        </Flex>
        {data && data.total > 0 && (
          <Typography.Text type="secondary" style={{ display: 'block', padding: phone ? '0 4px 8px' : '0 16px 12px' }}>
            {data.total} {data.total === 1 ? 'transaction' : 'transactions'}
            {data.totals ? ` · Total fees ${usdt(data.totals.fees)}` : ''}
          </Typography.Text>
        )}
        <PagedTable<ApiWalletTransaction>
          rowKey={(r) => r.id}
          rows={data?.data}
          total={data?.total ?? 0}
          page={page}
          onPage={setPage}
          loading={query.isFetching}
          error={query.error}
          emptyText="No transactions in this date range"
          onRowClick={details.show}
          rowLabel={(r) => `Transaction ${r.trans_ref}`}
          columns={[
            {
              title: 'Reference',
              dataIndex: 'trans_ref',
              render: (v: string) => <span style={{ fontFamily: 'monospace', fontSize: 13 }}>{v}</span>,
            },
            {
              title: 'Amount',
              dataIndex: 'amount',
              align: 'right',
              render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{signedUsdt(r.amount, r.direction)}</span>,
            },
            {
              title: 'Transaction Type',
              dataIndex: 'type',
              render: (_, r) => <DirectionTag direction={r.direction}>{txTypeLabel(r.type)}</DirectionTag>,
            },
            { title: 'Total Fees', dataIndex: 'fees', align: 'right', render: (v: string) => usdt(v) },
            { title: 'Associated Card', dataIndex: 'card_number', render: (v: string | null) => v ?? '-' },
            {
              title: 'Date',
              dataIndex: 'created_at',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
            },
          ]}
          compact={(r) => ({
            title: txTypeLabel(r.type),
            description: (
              <>
                <div style={{ fontFamily: 'monospace', fontSize: 12 }}>{r.trans_ref}</div>
                <div>Fees: {usdt(r.fees)}</div>
                <div>{dateTime(r.created_at)}</div>
              </>
            ),
            extra: (
              <Typography.Text
                type={r.direction === 'credit' ? 'success' : undefined}
                strong
                style={{ whiteSpace: 'nowrap' }}
              >
                {signedUsdt(r.amount, r.direction)}
              </Typography.Text>
            ),
          })}
        />
      </Card>
      <DetailsDrawer open={details.open} onClose={details.close}>
        {details.item && <WalletTransactionDetails tx={details.item} />}
      </DetailsDrawer>
    </>
  );
}
