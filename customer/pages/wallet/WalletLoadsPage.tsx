import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Result, Row, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import { type ApiTopup, type Paged, TOPUP_STATES, type TopupState } from '@shared/contract';
import {
  BalanceCard,
  DetailsDrawer,
  useDetails,
  PAGE_SIZE,
  PagedTable,
  TopupDetails,
  TopupStateTag,
  customerTopupState,
  WALLET_KEYS,
  dateTime,
  shortId,
  useIsPhone,
  useLiveWallet,
  usdt,
} from '@shared/ui/wallet';
import { useSession } from '@shared/ui/useSession';
import { DepositAddressCard } from './DepositAddress';
import { TopUpFlow } from './TopUpFlow';
import { TopUpDrawer } from './WalletDialogs';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import { ResultHeading } from '@shared/ui/ResultHeading';

const Hash = ({ value }: { value: string | null }) =>
  value ? (
    <Typography.Text title={value} style={{ fontFamily: 'monospace', fontSize: 12 }}>
      {shortId(value, 10, 6)}
    </Typography.Text>
  ) : (
    '-'
  );

/** /portal/wallet-loads: the balance, Top Up, the wallet's deposit address, and its top-ups (Pending ones can be finished). */
export default function WalletLoadsPage() {
  const session = useSession();
  const phone = useIsPhone();
  const walletId = session?.user.wallet_id ?? null;
  const [page, setPage] = useState(1);
  const [state, setState] = useState<TopupState>();
  const [topUp, setTopUp] = useState(false);
  const details = useDetails<ApiTopup>();
  // Deposits to the wallet's address credit themselves: the balance and this list follow without a reload.
  useLiveWallet(walletId);

  const query = useQuery({
    queryKey: [...WALLET_KEYS.topups, walletId, state ?? null, page],
    queryFn: () =>
      api<Paged<ApiTopup>>('GET', '/reports/view-wallet-topups', {
        query: { wallet: walletId!, state, page, per_page: PAGE_SIZE },
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
  const open = details.item;
  const pending = open?.state === 'Pending';

  const filters = (
    <Space size={8}>
      <Select
        aria-label="State"
        allowClear
        placeholder="All states"
        size="small"
        style={{ width: phone ? 130 : 170 }}
        value={state}
        onChange={(v) => {
          setState(v);
          setPage(1);
        }}
        options={TOPUP_STATES.map((s) => ({ value: s, label: customerTopupState(s) }))}
      />
      <ExportCsvButton
        path="/reports/view-wallet-topups"
        query={{ wallet: walletId, state }}
        filename="wallet-loads"
        size="small"
        label={phone ? 'CSV' : 'Export CSV'}
      />
    </Space>
  );

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={13} xl={14}>
          <BalanceCard
            walletId={walletId}
            style={{ height: '100%' }}
            actions={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setTopUp(true)} block={phone}>
                Top Up
              </Button>
            }
          />
        </Col>
        <Col xs={24} lg={11} xl={10}>
          <DepositAddressCard walletId={walletId} />
        </Col>
      </Row>
      <Card
        title="Wallet Load Transactions"
        styles={{ body: { padding: phone ? 12 : 0 }, header: phone ? { paddingInline: 12 } : undefined }}
        // On phones the filters go under the title, which would otherwise be cut to make room.
        extra={phone ? undefined : filters}
      >
        {phone && <div style={{ marginBottom: 12 }}>{filters}</div>}
        <PagedTable<ApiTopup>
          rowKey={(r) => r.id}
          rows={query.data?.data}
          total={query.data?.total ?? 0}
          page={page}
          onPage={setPage}
          loading={query.isLoading}
          error={query.error}
          emptyText={
            state
              ? `No ${customerTopupState(state)} top-ups`
              : 'No top-ups yet. Use Top Up to add funds to your master wallet.'
          }
          onRowClick={details.show}
          rowLabel={(r) => `Top-up of ${r.amount} USDT, ${customerTopupState(r.state)}`}
          columns={[
            {
              title: 'Amount',
              dataIndex: 'amount',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{usdt(v)}</span>,
            },
            { title: 'Method', dataIndex: 'method' },
            {
              title: 'Transaction Hash',
              dataIndex: 'transaction_hash',
              render: (v: string | null) => <Hash value={v} />,
            },
            { title: 'State', dataIndex: 'state', render: (v: string) => <TopupStateTag state={v} /> },
            {
              title: 'Last Modified',
              dataIndex: 'updated_at',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
            },
          ]}
          compact={(r) => ({
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
          })}
        />
      </Card>
      <TopUpDrawer open={topUp} walletId={walletId} onClose={() => setTopUp(false)} />
      <DetailsDrawer open={details.open} onClose={details.close}>
        {open && pending && <TopUpFlow walletId={walletId} resume={open.reference} onDone={details.close} />}
        {open && !pending && <TopupDetails topup={open} />}
      </DetailsDrawer>
    </Space>
  );
}
