import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Result, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import { type ApiTopup, type Paged, TOPUP_STATES, type TopupState } from '@shared/contract';
import {
  PAGE_SIZE,
  PagedTable,
  useDetails,
  TopupStateTag,
  WALLET_KEYS,
  dateTime,
  refreshWallet,
  shortId,
  useIsPhone,
  usdt,
} from '@shared/ui/wallet';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { MomoConfirmModal } from './MomoConfirmModal';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import { ResultHeading } from '@shared/ui/ResultHeading';

const FINAL = new Set(['Approved', 'Denied', 'MoMo processed']);
const mono = { fontFamily: 'monospace', fontSize: 12 } as const;

/** /portal/momo-loads: mobile-money top-ups for the momo agents to confirm. */
export default function MomoLoadsPage() {
  const session = useSession();
  const phone = useIsPhone();
  const qc = useQueryClient();
  const agent = !!session?.user.entities.includes('momo');
  const [page, setPage] = useState(1);
  const [state, setState] = useState<TopupState>();
  const confirm = useDetails<ApiTopup>();

  const query = useQuery({
    queryKey: [...WALLET_KEYS.momoTopups, state ?? null, page],
    queryFn: () =>
      api<Paged<ApiTopup>>('GET', '/wallet/list-momo-topups', {
        query: { state, page, per_page: PAGE_SIZE },
        silent: true,
      }),
    enabled: agent,
  });

  if (!agent)
    return (
      <Result
        status="403"
        title={<ResultHeading>Momo Top-Ups</ResultHeading>}
        subTitle="Only mobile-money agents see these top-ups."
      />
    );

  return (
    <>
      <PageHeader title="Momo Top-Ups" subtitle="Mobile-money top-ups waiting for your confirmation" />
      <Card
        styles={{ body: { padding: phone ? 12 : 0 } }}
        title={
          <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
            {query.data ? `${query.data.total} top-ups` : 'Top-ups'}
          </Typography.Text>
        }
        extra={
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
              options={TOPUP_STATES.map((s) => ({ value: s, label: s }))}
            />
            <ExportCsvButton
              path="/wallet/list-momo-topups"
              query={{ state }}
              filename="momo-top-ups"
              size="small"
              label={phone ? 'CSV' : 'Export CSV'}
            />
          </Space>
        }
      >
        <PagedTable<ApiTopup>
          rowKey={(r) => r.id}
          rows={query.data?.data}
          total={query.data?.total ?? 0}
          page={page}
          onPage={setPage}
          loading={query.isLoading}
          error={query.error}
          emptyText="No mobile-money top-ups"
          onRowClick={confirm.show}
          clickable={(r) => !FINAL.has(r.state)}
          rowLabel={(r) => `Confirm ${r.name}, ${r.amount} USDT`}
          columns={[
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
              title: 'Amount',
              dataIndex: 'amount',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{usdt(v)}</span>,
            },
            {
              title: 'Transaction Hash',
              dataIndex: 'transaction_hash',
              render: (v: string | null) => <span style={mono}>{v ?? '-'}</span>,
            },
            { title: 'State', dataIndex: 'state', render: (v: string) => <TopupStateTag state={v} processedIsDone /> },
            {
              title: 'Last Modified',
              dataIndex: 'updated_at',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
            },
          ]}
          compact={(r) => ({
            title: r.name,
            description: (
              <>
                <div>
                  {r.name_type} · {usdt(r.amount)}
                </div>
                {r.transaction_hash && <div style={mono}>{r.transaction_hash}</div>}
                <div>{dateTime(r.updated_at)}</div>
              </>
            ),
            extra: <TopupStateTag state={r.state} processedIsDone />,
          })}
        />
      </Card>
      <MomoConfirmModal
        topup={confirm.item}
        open={confirm.open}
        onClose={() => {
          confirm.close();
          void refreshWallet(qc);
        }}
      />
    </>
  );
}
