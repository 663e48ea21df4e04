import { useQuery } from '@tanstack/react-query';
import { Card, Flex } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@shared/api/client';
import type { ApiDispute, Paged } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { usd } from '@shared/ui/cards';
import { DisputeStateTag, reasonText } from '@shared/ui/disputes/DisputeDetails';
import { DISPUTE_KEYS } from '@shared/ui/disputes/PaymentDisputes';
import { PAGE_SIZE, PagedTable } from '@shared/ui/wallet/PagedTable';
import { dateTime } from '@shared/ui/wallet/format';

const COLUMNS: ColumnsType<ApiDispute> = [
  { title: 'Date Created', dataIndex: 'created_at', render: (v: string) => dateTime(v) },
  { title: 'Merchant', dataIndex: 'merchant' },
  { title: 'Card', key: 'card', render: (_, d) => `${d.card_nickname}${d.card_last4 ? ` •••• ${d.card_last4}` : ''}` },
  { title: 'Reason', dataIndex: 'reason', render: (_, d) => reasonText(d.reason) },
  { title: 'Amount', dataIndex: 'amount', align: 'right', render: (_, d) => usd(d.amount) },
  { title: 'State', dataIndex: 'state', render: (_, d) => <DisputeStateTag state={d.state} /> },
];

/** /portal/disputes: the customer's card disputes, newest first; a row opens the dispute. */
export default function DisputesPage() {
  const [page, setPage] = useState(1);
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: [...DISPUTE_KEYS.all, 'mine', page],
    queryFn: () => api<Paged<ApiDispute>>('GET', '/disputes', { query: { page, per_page: PAGE_SIZE }, silent: true }),
  });
  return (
    <>
      <PageHeader
        title="Card Disputes"
        subtitle="Payments you disputed. To dispute a payment, open it under Card Transactions or on its card."
      />
      <Card styles={{ body: { padding: 0 } }}>
        <PagedTable<ApiDispute>
          rowKey={(d) => d.id}
          rows={query.data?.data}
          total={query.data?.total ?? 0}
          page={page}
          onPage={setPage}
          loading={query.isFetching}
          error={query.error}
          columns={COLUMNS}
          compact={(d) => ({
            title: d.merchant,
            description: (
              <>
                <div>{reasonText(d.reason)}</div>
                <div>{dateTime(d.created_at)}</div>
              </>
            ),
            extra: (
              <Flex vertical align="flex-end" gap={4}>
                <strong>{usd(d.amount)}</strong>
                <DisputeStateTag state={d.state} />
              </Flex>
            ),
          })}
          emptyText="No disputes yet"
          onRowClick={(d) => navigate(`/portal/disputes/${d.id}`)}
          rowLabel={(d) => `Dispute at ${d.merchant}, ${usd(d.amount)}`}
        />
      </Card>
    </>
  );
}
