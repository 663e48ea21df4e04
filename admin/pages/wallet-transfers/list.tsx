import { moneyText } from '@shared/vocabulary';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Flex, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import type { ApiWalletTransfer } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { dateTime } from '../../format';
import { TransferDetailsDrawer } from './show';

const columns: TableColumnsType<ApiWalletTransfer> = [
  {
    title: 'Transaction Id',
    dataIndex: 'trans_ref',
    render: (v: string) => <Typography.Text className="cw-hash">{v}</Typography.Text>,
  },
  { title: 'Type', dataIndex: 'type' },
  {
    title: 'Amount',
    dataIndex: 'amount',
    render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{moneyText(v, 'USDT')}</span>,
  },
  { title: 'Reference', dataIndex: 'reference', render: (v: string | null) => v || '—' },
  { title: 'Transaction By', dataIndex: 'transferer', render: (v: string | null) => v ?? '—' },
  {
    title: 'Last Modified',
    dataIndex: 'updated_at',
    render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
  },
];

function TransferItem({ t }: { t: ApiWalletTransfer }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong>{moneyText(t.amount, 'USDT')}</Typography.Text>
        <Typography.Text type="secondary">{t.type}</Typography.Text>
      </Flex>
      <Typography.Text ellipsis>{t.reference || '—'}</Typography.Text>
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text type="secondary" className="cw-hash">
          {t.trans_ref}
        </Typography.Text>
        <Typography.Text type="secondary">{dateTime(t.updated_at)}</Typography.Text>
      </Flex>
      <Typography.Text type="secondary">By {t.transferer ?? '—'}</Typography.Text>
    </Flex>
  );
}

/** /admin/wallet-transfers: every wallet-to-wallet transfer, from the sender's side. */
export default function WalletTransfersList() {
  const [open, setOpen] = useState<ApiWalletTransfer | null>(null);
  const table = useTable<ApiWalletTransfer, HttpError, { start_date?: string; end_date?: string }>({
    resource: 'wallet-transfers',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v),
  });
  return (
    <>
      <PageHeader title="Wallet Transfer Transactions" subtitle="Transfers between master wallets." />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiWalletTransfer>
        table={table}
        exportCsv={{ path: 'reports/view-wallet-transfers', filename: 'wallet-transfers' }}
        columns={columns}
        renderItem={(t) => <TransferItem t={t} />}
        onOpen={setOpen}
        rowLabel={(t) => `Open transfer ${t.trans_ref}`}
        emptyText="No transfers found"
      />
      <TransferDetailsDrawer transfer={open} onClose={() => setOpen(null)} />
    </>
  );
}
