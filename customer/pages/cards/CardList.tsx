import { Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type ApiCard, brandOf } from '@shared/contract';
import { type CardListFilters, StatusTag, cardTypeLabel, dash, dateOnly, usd, useCardList } from '@shared/ui/cards';
import { PAGE_SIZE, PagedTable } from '@shared/ui/wallet';

const mono = {
  fontFamily: '"SFMono-Regular", Menlo, Consolas, monospace',
  fontSize: 13,
  whiteSpace: 'nowrap',
} as const;

/** The customer's live cards: a row opens the card; no row actions. */
export function CardList({ filters, filtered }: { filters: CardListFilters; filtered: boolean }) {
  const navigate = useNavigate();
  const cards = useCardList({}, filters);
  const [page, setPage] = useState(1);
  const rows = cards.data ?? [];
  const shown = rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <PagedTable<ApiCard>
      rowKey={(r) => r.id}
      rows={cards.data ? shown : undefined}
      total={rows.length}
      page={page}
      onPage={setPage}
      loading={cards.isFetching}
      error={cards.error}
      emptyText={filtered ? 'No cards match these filters' : 'You have no cards yet. Use Add New Card to create one.'}
      onRowClick={(r) => navigate(`/portal/prepaid-cards/${r.id}`)}
      rowLabel={(r) => `Open card ${r.nickname} ${r.masked_number}`}
      columns={[
        { title: 'Card Name', dataIndex: 'cardholder', render: (v: string) => dash(v) },
        { title: 'Card Type', dataIndex: 'type', render: (v: string) => cardTypeLabel(v) },
        {
          title: 'Card Number',
          dataIndex: 'masked_number',
          render: (v: string) => <span style={mono}>{dash(v)}</span>,
        },
        { title: 'Payment Purpose', dataIndex: 'purpose', render: (v: string) => brandOf(v) },
        { title: 'Status', dataIndex: 'state', render: (_, r) => <StatusTag card={r} /> },
        {
          title: 'Date Created',
          dataIndex: 'created_at',
          render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateOnly(v)}</span>,
        },
        { title: 'Card Nickname', dataIndex: 'nickname', render: (v: string) => dash(v) },
      ]}
      compact={(r) => ({
        title: (
          <>
            {dash(r.cardholder)}{' '}
            <Typography.Text type="secondary" style={{ fontWeight: 400, fontSize: 13 }}>
              · {brandOf(r.purpose)}
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
        // On a phone the list is where a customer checks what a card still holds.
        extra: (
          <div style={{ textAlign: 'right' }}>
            <div style={{ fontWeight: 600, whiteSpace: 'nowrap', marginBottom: 4 }} data-testid="card-row-balance">
              <span className="cw-sr-only">Balance </span>
              {usd(r.balance)}
            </div>
            <StatusTag card={r} />
          </div>
        ),
      })}
    />
  );
}
