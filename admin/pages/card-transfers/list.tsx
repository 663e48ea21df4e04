import { useTable } from '@refinedev/antd';
import type { CrudFilter, HttpError } from '@refinedev/core';
import { FilePdfOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Select, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ApiWalletTransaction, WalletTransactionTotals } from '@shared/contract';
import { usd } from '@shared/ui/cards';
import { PageHeader } from '@shared/ui/PageHeader';
import { dateTime, txTypeLabel, useDetails } from '@shared/ui/wallet';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { plain } from '../../format';
import { CardTransferDrawer } from './show';

type Search = { type?: 'issuance' | 'topup' | 'withdraw'; start_date?: string; end_date?: string };

const TYPES = [
  { value: '', label: 'Any Type' },
  { value: 'issuance', label: 'Issuance' },
  { value: 'topup', label: 'Topup' },
  { value: 'withdraw', label: 'Withdrawal' },
];

const nowrap = { whiteSpace: 'nowrap' } as const;

function BalanceChange({ t }: { t: ApiWalletTransaction }) {
  return (
    <span>
      <span style={nowrap}>{plain(t.balance_before)} →</span> <span style={nowrap}>{plain(t.balance_after)}</span>
    </span>
  );
}

const columns: TableColumnsType<ApiWalletTransaction> = [
  {
    title: 'Type',
    dataIndex: 'type',
    render: (v: string) => <Typography.Text strong>{txTypeLabel(v)}</Typography.Text>,
  },
  {
    title: 'Trans. Reference',
    dataIndex: 'trans_ref',
    render: (v: string) => <Typography.Text className="cw-hash">{v}</Typography.Text>,
  },
  { title: 'Amount', dataIndex: 'amount', render: (v: string) => <span style={nowrap}>{usd(v)}</span> },
  { title: 'Fees', dataIndex: 'fees', render: (v: string) => <span style={nowrap}>{usd(v)}</span> },
  {
    title: 'Associated Card',
    dataIndex: 'card_number',
    render: (v: string | null) => (
      <span className="cw-hash" style={nowrap}>
        {v ?? '—'}
      </span>
    ),
  },
  { title: 'Date', dataIndex: 'created_at', render: (v: string) => <span style={nowrap}>{dateTime(v)}</span> },
  { title: 'Balance Change', key: 'balance', render: (_, t) => <BalanceChange t={t} /> },
];

function TransferItem({ t }: { t: ApiWalletTransaction }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong>{txTypeLabel(t.type)}</Typography.Text>
        <Typography.Text strong style={nowrap}>
          {usd(t.amount)}
        </Typography.Text>
      </Flex>
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text type="secondary" className="cw-hash">
          {t.trans_ref}
        </Typography.Text>
        <Typography.Text type="secondary">Fees {usd(t.fees)}</Typography.Text>
      </Flex>
      <Flex justify="space-between" gap={8} wrap>
        <span className="cw-hash">{t.card_number ?? '—'}</span>
        <Typography.Text type="secondary">{dateTime(t.created_at)}</Typography.Text>
      </Flex>
      <Typography.Text type="secondary">
        Balance <BalanceChange t={t} />
      </Typography.Text>
    </Flex>
  );
}

/**
 * /admin/card-transfers[?company_id|individual_id&acc_name] (back-office §2.15): the card
 * movements of master wallets (issuance, top-ups, withdrawals, refunds of deleted cards) with
 * type and date filters, the totals of the filtered set, and each movement's fee breakdown.
 */
function CardTransfers({
  accName,
  companyId,
  individualId,
}: {
  accName: string;
  companyId?: string;
  individualId?: string;
}) {
  const details = useDetails<ApiWalletTransaction>();
  const navigate = useNavigate();
  const permanent = useMemo<CrudFilter[]>(
    () => [
      { field: 'card_only', operator: 'eq', value: 'true' },
      ...(companyId ? [{ field: 'company_id', operator: 'eq', value: companyId } as const] : []),
      ...(individualId ? [{ field: 'individual_id', operator: 'eq', value: individualId } as const] : []),
    ],
    [companyId, individualId],
  );
  const table = useTable<ApiWalletTransaction, HttpError, Search>({
    resource: 'card-transfers',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { permanent, defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v),
  });
  const totals = table.result.totals as WalletTransactionTotals | undefined;

  return (
    <>
      <PageHeader
        title={`${accName} - Wallet Transactions for Cards`}
        subtitle="Card issuance, top-ups and withdrawals paid from or into master wallets."
        extra={
          // One account's every movement, where its PDF statement is downloaded (a statement is of one wallet).
          (companyId || individualId) && (
            <Button
              icon={<FilePdfOutlined />}
              onClick={() =>
                navigate(
                  `/admin/wallet-transactions?${new URLSearchParams({ ...(companyId ? { company_id: companyId } : { individual_id: individualId! }), acc_name: accName })}`,
                )
              }
            >
              Wallet statement
            </Button>
          )
        }
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="type" label="Type" initialValue="">
          <Select style={{ minWidth: 150 }} options={TYPES} aria-label="Type" />
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiWalletTransaction>
        table={table}
        exportCsv={{
          path: 'reports/view-wallet-transactions',
          filename: 'card-wallet-transactions',
          query: { card_only: 'true', company_id: companyId, individual_id: individualId },
        }}
        columns={columns}
        minWidth={1000}
        renderItem={(t) => <TransferItem t={t} />}
        onOpen={details.show}
        rowLabel={(t) => `Open transaction ${t.trans_ref}`}
        emptyText="No card transactions match these filters"
        footer={
          <div className="cw-totals" role="group" aria-label="Totals">
            <span>Total</span>
            <span data-testid="card-transfers-total-amount">{usd(totals?.amount ?? '0.00')}</span>
            <span>Fees</span>
            <span data-testid="card-transfers-total-fees">{usd(totals?.fees ?? '0.00')}</span>
          </div>
        }
      />
      <CardTransferDrawer tx={details.item} open={details.open} onClose={details.close} />
    </>
  );
}

export default function CardTransfersList() {
  const [params] = useSearchParams();
  const companyId = params.get('company_id') || undefined;
  const individualId = params.get('individual_id') || undefined;
  return (
    <CardTransfers
      key={`${companyId ?? ''}/${individualId ?? ''}`}
      accName={params.get('acc_name') || 'All Accounts'}
      companyId={companyId}
      individualId={individualId}
    />
  );
}
