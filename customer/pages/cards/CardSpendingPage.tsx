import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { type ApiCard, brandOf } from '@shared/contract';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import { PageHeader } from '@shared/ui/PageHeader';
import { StatusTag, cardTypeLabel, dash, dateOnly, useCardList, useOwnCardSource } from '@shared/ui/cards';
import { PAGE_SIZE, PagedTable, useDetails, useIsPhone } from '@shared/ui/wallet';
import { SpendingLimitModal } from './SpendingLimitModal';

const mono = {
  fontFamily: '"SFMono-Regular", Menlo, Consolas, monospace',
  fontSize: 13,
  whiteSpace: 'nowrap',
} as const;

/** /portal/card-spending: each card with an edit action that sets its spending limit. */
export default function CardSpendingPage() {
  const phone = useIsPhone();
  const cards = useCardList({});
  const own = useOwnCardSource();
  const [page, setPage] = useState(1);
  const editing = useDetails<ApiCard>();
  const rows = cards.data ?? [];
  // Spending limits are for Visa cards only: other rows offer no Edit that could only say 'Not applicable!'.
  const edit = (r: ApiCard) =>
    r.purpose !== 'media' ? (
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap', fontSize: 13 }}>
        Visa only
      </Typography.Text>
    ) : (
      <Button
        icon={<EditOutlined />}
        aria-label={`Edit spending limit of ${r.nickname}`}
        title="Edit"
        onClick={() => editing.show(r)}
        size={phone ? 'small' : 'middle'}
      />
    );
  return (
    <>
      <PageHeader
        title="Card Spending"
        subtitle="Update your virtual card spending controls to suit your spending needs!"
        extra={
          own && (
            <ExportCsvButton
              path={`/cards/${own.kind}/${own.walletId}`}
              filename="card-spending"
              size={phone ? 'small' : undefined}
            />
          )
        }
      />
      <Card styles={{ body: { padding: phone ? 12 : 0 } }}>
        <PagedTable<ApiCard>
          rowKey={(r) => r.id}
          rows={cards.data ? rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) : undefined}
          total={rows.length}
          page={page}
          onPage={setPage}
          loading={cards.isFetching}
          error={cards.error}
          emptyText="You have no cards yet."
          columns={[
            { title: 'Card Name', dataIndex: 'cardholder', render: (v: string) => dash(v) },
            { title: 'Card Type', dataIndex: 'type', render: (v: string) => cardTypeLabel(v) },
            {
              title: 'Card Number',
              dataIndex: 'masked_number',
              render: (v: string) => <span style={mono}>{dash(v)}</span>,
            },
            { title: 'Status', dataIndex: 'state', render: (_, r) => <StatusTag card={r} /> },
            {
              title: 'Date Created',
              dataIndex: 'created_at',
              render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateOnly(v)}</span>,
            },
            { title: 'Card Nickname', dataIndex: 'nickname', render: (v: string) => dash(v) },
            { title: 'Action', key: 'action', align: 'center', render: (_, r) => edit(r) },
          ]}
          compact={(r) => ({
            title: (
              <>
                {dash(r.cardholder)}{' '}
                <Typography.Text type="secondary" style={{ fontWeight: 400, fontSize: 13 }}>
                  · {cardTypeLabel(r.type)} {brandOf(r.purpose)}
                </Typography.Text>
              </>
            ),
            description: (
              <>
                <span style={mono}>{dash(r.masked_number)}</span>
                <div>
                  {dateOnly(r.created_at)} · {dash(r.nickname)}
                </div>
              </>
            ),
            extra: (
              <Flex vertical align="flex-end" gap={8}>
                <StatusTag card={r} />
                {edit(r)}
              </Flex>
            ),
          })}
        />
      </Card>
      <SpendingLimitModal card={editing.item} open={editing.open} onClose={editing.close} />
    </>
  );
}
