import { FilterOutlined, PoweroffOutlined, UploadOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { CrudFilter, HttpError } from '@refinedev/core';
import { Badge, Button, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Query } from '@shared/api/client';
import type { ApiCard } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useListAccount } from '../../components/accountList';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { searchFilters } from '../../components/FilterBar';
import { useCardRowActions } from './actions';
import { CardItem, cardColumns } from './columns';
import { ActivateCardsPanel, type CardSearch, CardWithdrawalPanel, SearchCardsPanel } from './panels';
import { useCan } from '../../components/Allowed';

export type CardListKind = 'all' | 'deleted' | 'flagged';

const KIND_TITLE: Record<CardListKind, string> = {
  all: 'All Cards',
  deleted: 'Deleted Cards',
  flagged: 'Flagged Cards',
};
const RESOURCE: Record<CardListKind, string> = { all: 'cards', deleted: 'cards-deleted', flagged: 'cards-flagged' };

type Panel = 'search' | 'activate' | 'withdraw' | null;

/**
 * /admin/cards, /admin/cards/deleted, /admin/cards/flagged [?company_id|individual_id&acc_name]:
 * the cards of back-office §2.8 with their row menu, the Search Cards, Activate Cards and Card
 * Withdrawal panels. A row opens the card's detail.
 */
function CardsList({
  kind,
  accName,
  companyId,
  individualId,
}: {
  kind: CardListKind;
  accName?: string;
  companyId?: string;
  individualId?: string;
}) {
  const navigate = useNavigate();
  const [panel, setPanel] = useState<Panel>(null);
  const mayFreeze = useCan('cards.freeze');
  const mayMove = useCan('cards.money');
  const scope = useMemo<Query>(
    () => ({
      ...(companyId ? { company_id: companyId } : {}),
      ...(individualId ? { individual_id: individualId } : {}),
      ...(kind === 'deleted' ? { deleted_only: 'true' } : {}),
      ...(kind === 'flagged' ? { flagged_only: 'true' } : {}),
    }),
    [kind, companyId, individualId],
  );
  const permanent = useMemo<CrudFilter[]>(
    () => Object.entries(scope).map(([field, value]) => ({ field, operator: 'eq', value })),
    [scope],
  );
  const table = useTable<ApiCard, HttpError, CardSearch>({
    resource: RESOURCE[kind],
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { permanent, defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v as Record<string, unknown>),
  });
  const refetch = () => void table.tableQuery.refetch();
  const actions = useCardRowActions(refetch);
  const active = (table.filters ?? []).filter(
    (f) => 'field' in f && f.value !== undefined && f.value !== '' && !(f.field in scope),
  ).length;

  const columns: TableColumnsType<ApiCard> = [
    ...cardColumns,
    { title: '', key: 'menu', width: 48, fixed: 'right', render: (_, c) => actions.menuButton(c) },
  ];
  const title = `${accName ? `${accName} - ` : ''}${KIND_TITLE[kind]} - List of Cards`;
  const walletId = companyId ?? individualId;

  return (
    <>
      <PageHeader
        title={title}
        subtitle={
          kind === 'deleted'
            ? 'Cards that have been deleted.'
            : kind === 'flagged'
              ? 'Cards flagged for review.'
              : 'Every card, newest first.'
        }
        extra={
          <>
            <Badge count={active} size="small">
              <Button icon={<FilterOutlined />} onClick={() => setPanel('search')}>
                Search Cards
              </Button>
            </Badge>
            {mayFreeze && (
              <Button icon={<PoweroffOutlined />} onClick={() => setPanel('activate')}>
                Activate Cards
              </Button>
            )}
            {mayMove && (
              <Button icon={<UploadOutlined />} onClick={() => setPanel('withdraw')}>
                Card Withdrawal
              </Button>
            )}
          </>
        }
      />
      <DataTable<ApiCard>
        table={table}
        exportCsv={{ path: 'cards', filename: 'cards', query: scope }}
        columns={columns}
        minWidth={1100}
        renderItem={(c) => <CardItem card={c} menu={actions.menuButton(c)} />}
        onOpen={(c) => navigate(`/admin/cards/${c.id}`)}
        rowLabel={(c) => `Open card ${c.nickname} ${c.masked_number}`}
        emptyText={active ? 'No cards match these filters' : 'No cards found'}
      />
      <SearchCardsPanel
        open={panel === 'search'}
        onClose={() => setPanel(null)}
        formProps={table.searchFormProps}
        query={table.tableQuery}
        scope={scope}
      />
      <ActivateCardsPanel
        open={panel === 'activate'}
        onClose={() => setPanel(null)}
        walletId={walletId}
        onDone={() => {
          setPanel(null);
          refetch();
        }}
      />
      <CardWithdrawalPanel
        open={panel === 'withdraw'}
        onClose={() => setPanel(null)}
        scope={{
          ...(companyId ? { company_id: companyId } : {}),
          ...(individualId ? { individual_id: individualId } : {}),
        }}
        onDone={() => {
          setPanel(null);
          refetch();
        }}
      />
      {actions.dialogs}
    </>
  );
}

export default function CardsListPage({ kind }: { kind: CardListKind }) {
  const { account, key } = useListAccount();
  return <CardsList key={`${kind}/${key}`} kind={kind} {...account} />;
}
