import { SwapOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Space, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import type { ApiWalletTransfer, Paged } from '@shared/contract';
import {
  BalanceCard,
  DetailsDrawer,
  useDetails,
  DirectionTag,
  PAGE_SIZE,
  PagedTable,
  TransferDetails,
  WALLET_KEYS,
  dateTime,
  useIsPhone,
  usdt,
} from '@shared/ui/wallet';
import { useSession } from '@shared/ui/useSession';
import { TransferModal } from './WalletDialogs';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import { PageHeader } from '@shared/ui/PageHeader';
import { ResultHeading } from '@shared/ui/ResultHeading';

const direction = (t: ApiWalletTransfer) => (t.type === 'Credit' ? 'credit' : 'debit');

/** /portal/wallet-transfers: the balance, Internal Transfer, and the transfers in and out. */
export default function WalletTransfersPage() {
  const session = useSession();
  const phone = useIsPhone();
  const walletId = session?.user.wallet_id ?? null;
  const [page, setPage] = useState(1);
  const [transfer, setTransfer] = useState(false);
  const details = useDetails<ApiWalletTransfer>();

  const query = useQuery({
    queryKey: [...WALLET_KEYS.transfers, walletId, page],
    queryFn: () =>
      api<Paged<ApiWalletTransfer>>('GET', '/reports/view-wallet-transfers', {
        query: { wallet: walletId!, page, per_page: PAGE_SIZE },
        silent: true,
      }),
    enabled: !!walletId,
  });

  if (!walletId)
    return (
      <Result
        status="404"
        title={<ResultHeading>No master wallet</ResultHeading>}
        subTitle="This account has no master wallet."
      />
    );

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title="Wallet Transfers" subtitle="Send USDT to another master wallet and see what came and went." />
      <BalanceCard
        walletId={walletId}
        actions={
          <Button type="primary" icon={<SwapOutlined />} onClick={() => setTransfer(true)} block={phone}>
            Transfer
          </Button>
        }
      />
      <Card
        title="Wallet Transfer Transactions"
        styles={{ body: { padding: phone ? 12 : 0 }, header: phone ? { paddingInline: 12 } : undefined }}
        extra={
          <ExportCsvButton
            path="/reports/view-wallet-transfers"
            query={{ wallet: walletId }}
            filename="wallet-transfers"
            size="small"
            label={phone ? 'CSV' : 'Export CSV'}
          />
        }
      >
        <PagedTable<ApiWalletTransfer>
          rowKey={(r) => `${r.id}-${r.type}`}
          rows={query.data?.data}
          total={query.data?.total ?? 0}
          page={page}
          onPage={setPage}
          loading={query.isLoading}
          error={query.error}
          emptyText="No transfers yet. Transfers to and from your master wallet will appear here."
          onRowClick={details.show}
          rowLabel={(r) => `Transfer ${r.trans_ref}`}
          columns={[
            {
              title: 'Transaction Id',
              dataIndex: 'trans_ref',
              render: (v: string) => <span style={{ fontFamily: 'monospace', fontSize: 13 }}>{v}</span>,
            },
            {
              title: 'Type',
              dataIndex: 'type',
              render: (_, r) => <DirectionTag direction={direction(r)}>{r.type}</DirectionTag>,
            },
            {
              title: 'Amount',
              dataIndex: 'amount',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{usdt(v)}</span>,
            },
            { title: 'Reference', dataIndex: 'reference', render: (v: string | null) => v || '-' },
            { title: 'Transaction By', dataIndex: 'transferer', render: (v: string | null) => v ?? '-' },
            {
              title: 'Last Modified',
              dataIndex: 'updated_at',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
            },
          ]}
          compact={(r) => ({
            title:
              r.type === 'Credit' ? `From ${r.from_name ?? 'another wallet'}` : `To ${r.to_name ?? 'another wallet'}`,
            description: (
              <>
                {r.reference && <div>{r.reference}</div>}
                <div style={{ fontFamily: 'monospace', fontSize: 12 }}>{r.trans_ref}</div>
                <div>{dateTime(r.updated_at)}</div>
              </>
            ),
            extra: (
              <Space direction="vertical" size={4} align="end">
                <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                  {usdt(r.amount)}
                </Typography.Text>
                <DirectionTag direction={direction(r)}>{r.type}</DirectionTag>
              </Space>
            ),
          })}
        />
      </Card>
      <TransferModal title="Internal Transfer" open={transfer} walletId={walletId} onClose={() => setTransfer(false)} />
      <DetailsDrawer open={details.open} onClose={details.close}>
        {details.item && <TransferDetails transfer={details.item} />}
      </DetailsDrawer>
    </Space>
  );
}
