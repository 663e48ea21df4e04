import { useQuery } from '@tanstack/react-query';
import { Card, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import type { ApiWalletTransaction, Paged } from '@shared/contract';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import {
  DetailsDrawer,
  useDetails,
  DirectionTag,
  PAGE_SIZE,
  PagedTable,
  WALLET_KEYS,
  WalletTransactionDetails,
  dateTime,
  signedUsdt,
  txTypeLabel,
  useIsPhone,
} from '@shared/ui/wallet';

/** The dashboard's 'Recent Transactions': the master wallet's movements, newest first. */
export function RecentTransactions({ walletId }: { walletId: string }) {
  const phone = useIsPhone();
  const [page, setPage] = useState(1);
  const details = useDetails<ApiWalletTransaction>();
  const query = useQuery({
    queryKey: [...WALLET_KEYS.transactions, 'recent', walletId, page],
    queryFn: () =>
      api<Paged<ApiWalletTransaction>>('GET', '/reports/view-wallet-transactions', {
        query: { wallet: walletId, page, per_page: PAGE_SIZE },
        silent: true,
      }),
  });
  const amount = (r: ApiWalletTransaction) => (
    <Typography.Text
      type={r.direction === 'credit' ? 'success' : undefined}
      strong={phone}
      style={{ whiteSpace: 'nowrap' }}
    >
      {signedUsdt(r.amount, r.direction)}
    </Typography.Text>
  );
  return (
    <Card
      title="Recent Transactions"
      extra={
        <ExportCsvButton
          path="/reports/view-wallet-transactions"
          query={{ wallet: walletId }}
          filename="wallet-transactions"
          size="small"
        />
      }
      styles={{ body: { padding: phone ? 12 : 0 }, header: phone ? { paddingInline: 12 } : undefined }}
    >
      <PagedTable<ApiWalletTransaction>
        rowKey={(r) => r.id}
        rows={query.data?.data}
        total={query.data?.total ?? 0}
        page={page}
        onPage={setPage}
        loading={query.isLoading}
        error={query.error}
        emptyText="You have no transactions yet. All your recent master wallet transaction will appear here"
        onRowClick={details.show}
        rowLabel={(r) => `Transaction ${r.trans_ref}`}
        columns={[
          { title: 'Amount', dataIndex: 'amount', render: (_, r) => amount(r) },
          {
            title: 'Transaction Hash',
            dataIndex: 'trans_ref',
            render: (v: string) => <span style={{ fontFamily: 'monospace', fontSize: 13 }}>{v}</span>,
          },
          {
            title: 'State',
            dataIndex: 'type',
            render: (_, r) => <DirectionTag direction={r.direction}>{txTypeLabel(r.type)}</DirectionTag>,
          },
          {
            title: 'Last Modified',
            dataIndex: 'created_at',
            render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
          },
        ]}
        compact={(r) => ({
          title: txTypeLabel(r.type),
          description: (
            <>
              <div style={{ fontFamily: 'monospace', fontSize: 12 }}>{r.trans_ref}</div>
              <div>{dateTime(r.created_at)}</div>
            </>
          ),
          extra: amount(r),
        })}
      />
      <DetailsDrawer open={details.open} onClose={details.close}>
        {details.item && <WalletTransactionDetails tx={details.item} />}
      </DetailsDrawer>
    </Card>
  );
}
