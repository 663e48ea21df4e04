import { SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Select, Typography } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client';
import type { ApiCardTransaction, Paged } from '../../contract';
import { PageHeader } from '../PageHeader';
import {
  DEFAULT_PRESET,
  DateRangeFilter,
  type DayRange,
  type RangePreset,
  presetRange,
} from '../wallet/DateRangeFilter';
import { PAGE_SIZE } from '../wallet/PagedTable';
import { useIsPhone } from '../wallet/useIsPhone';
import { CardTransactionsTable } from './CardTransactionsTable';
import { cardOptionLabel } from './format';
import { type CardScope, useCardList } from './hooks';
import { CARD_KEYS } from './keys';
import { ExportCsvButton } from '../ExportCsvButton';

// The period is chosen from the start (the last 30 days): only the card is left to choose.
const BEFORE_SEARCH = 'Select a card to search. Results of query would be displayed here.';

const days = (r: DayRange) => ({ start: r.from!.format('YYYY-MM-DD'), end: r.to!.format('YYYY-MM-DD') });

export interface CardTransactionsScreenProps extends CardScope {
  /** a card to preselect (e.g. from a link on the card's page) */
  initialCardId?: string;
  title?: string;
}

/**
 * 'Card Transactions' (reports, shared by both apps): a card's transactions in a period, the last 30 days at first
 * (issue 31), paged; declined payments say why. Choosing the card, or a preset, searches at once.
 */
export function CardTransactionsScreen({
  staff,
  params,
  initialCardId,
  title = 'Card Transactions',
}: CardTransactionsScreenProps) {
  const phone = useIsPhone();
  const cards = useCardList({ staff, params });
  const [card, setCard] = useState<string | undefined>(initialCardId);
  const [draft, setDraft] = useState<DayRange>(() => presetRange(DEFAULT_PRESET));
  const [preset, setPreset] = useState<RangePreset>(DEFAULT_PRESET);
  const [popover, setPopover] = useState(false);
  const [cardError, setCardError] = useState<string>();
  const [rangeError, setRangeError] = useState<string>();
  const [search, setSearch] = useState<{ card: string; start: string; end: string } | undefined>(() =>
    initialCardId ? { card: initialCardId, ...days(draft) } : undefined,
  );
  const [page, setPage] = useState(1);

  const query = useQuery({
    queryKey: CARD_KEYS.transactions(search?.card ?? '', search ?? null, page),
    queryFn: () =>
      api<Paged<ApiCardTransaction>>('GET', '/reports/view-cards-transactions', {
        query: { card: search!.card, start_date: search!.start, end_date: search!.end, page, per_page: PAGE_SIZE },
        silent: true,
      }),
    enabled: !!search,
  });

  function runSearch(range = draft, chosen = card) {
    const noCard = !chosen;
    const noRange = !range.from || !range.to;
    setCardError(noCard ? 'Please select a card' : undefined);
    setRangeError(noRange ? 'Date range required' : undefined);
    if (noRange && !noCard) setPopover(true);
    if (noCard || noRange) return;
    setPopover(false);
    const next = { card: chosen!, ...days(range) };
    // The same search again reads the list again (the same query would come from the cache).
    if (page === 1 && JSON.stringify(next) === JSON.stringify(search)) void query.refetch();
    setPage(1);
    setSearch(next);
  }

  const errors = [cardError, popover ? undefined : rangeError].filter(Boolean);
  return (
    <>
      <PageHeader title={title} />
      <Card styles={{ body: { padding: phone ? 12 : 0 } }}>
        <Flex gap={8} wrap align="center" style={{ padding: phone ? '0 0 12px' : 16 }}>
          <Select
            aria-label="select card"
            placeholder="select card"
            showSearch
            optionFilterProp="label"
            loading={cards.isLoading}
            status={cardError ? 'error' : undefined}
            style={{ minWidth: phone ? '100%' : 320, flex: phone ? '1 1 100%' : undefined }}
            value={card}
            onChange={(v) => {
              setCard(v);
              setCardError(undefined);
              runSearch(draft, v);
            }}
            notFoundContent={cards.error ? 'Could not load your cards' : 'No cards'}
            options={(cards.data ?? []).map((c) => ({ value: c.id, label: cardOptionLabel(c) }))}
          />
          <DateRangeFilter
            value={draft}
            preset={preset}
            onChange={(v, p) => {
              setDraft(v);
              setPreset(p);
              if (v.from && v.to) setRangeError(undefined);
            }}
            onApply={(range) => {
              // before a card is chosen, a preset only sets the period
              if (card) runSearch(range);
            }}
            open={popover}
            onOpenChange={setPopover}
            error={rangeError}
            block={phone}
          />
          <Button type="primary" icon={<SearchOutlined />} onClick={() => runSearch()} block={phone}>
            Search
          </Button>
          {search && (
            <ExportCsvButton
              path="/reports/view-cards-transactions"
              query={{ card: search.card, start_date: search.start, end_date: search.end }}
              filename="card-transactions"
              block={phone}
            />
          )}
          {errors.map((e) => (
            <Typography.Text key={e} type="danger" role="alert" style={{ width: phone ? '100%' : undefined }}>
              {e}
            </Typography.Text>
          ))}
        </Flex>
        {!search ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BEFORE_SEARCH} style={{ padding: '32px 12px' }} />
        ) : (
          <>
            {query.data && query.data.total > 0 && (
              <Typography.Text
                type="secondary"
                style={{ display: 'block', padding: phone ? '0 4px 8px' : '0 16px 12px' }}
              >
                {query.data.total} {query.data.total === 1 ? 'transaction' : 'transactions'}
              </Typography.Text>
            )}
            <CardTransactionsTable
              variant="report"
              data={query.data}
              loading={query.isFetching}
              error={query.error}
              page={page}
              onPage={setPage}
              emptyText="No transactions on this card in this date range"
            />
          </>
        )}
      </Card>
    </>
  );
}
