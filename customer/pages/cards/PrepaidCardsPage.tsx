import { ArrowLeftOutlined, BarChartOutlined, PlusOutlined, SearchOutlined, SlidersOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Flex, Tag } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { CardType } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import { type CardListFilters, useOwnCardSource } from '@shared/ui/cards';
import { useIsPhone } from '@shared/ui/wallet';
import { CardFilters, filterCount } from './CardFilters';
import { CardAllowance, atCardCap, useCardAllowance } from './CardAllowance';
import { CardList } from './CardList';
import { CreateCardForm } from './CreateCardForm';
import { TypeChooser } from './TypeChooser';

type Mode = { name: 'list' } | { name: 'chooser' } | { name: 'form'; type: CardType };

/** /portal/prepaid-cards: the card list, the type chooser and the create-card form. */
export default function PrepaidCardsPage() {
  const phone = useIsPhone();
  const navigate = useNavigate();
  // The dashboard's "Create a card" opens the type chooser at once.
  const create = (useLocation().state as { create?: boolean } | null)?.create;
  const [mode, setMode] = useState<Mode>(create ? { name: 'chooser' } : { name: 'list' });
  const [filters, setFilters] = useState<CardListFilters>({});
  const [searching, setSearching] = useState(false);
  const allowance = useCardAllowance();
  /** 'Add New Card' was pressed at the cap: the list says why no form opened */
  const [capTold, setCapTold] = useState(false);
  const count = filterCount(filters);
  const toList = () => setMode({ name: 'list' });
  const own = useOwnCardSource();
  const exportCsv = own && (
    <ExportCsvButton
      path={`/cards/${own.kind}/${own.walletId}`}
      query={{ ...filters }}
      filename="cards"
      size={phone ? 'small' : undefined}
    />
  );

  const subtitle =
    mode.name === 'list'
      ? 'See all your cards here'
      : mode.name === 'chooser'
        ? phone
          ? 'Swipe to see card features'
          : 'See card features'
        : 'Complete the form below to create your new card';

  const extra =
    mode.name === 'list' ? (
      <>
        <Badge count={count} size="small">
          <Button
            icon={<SearchOutlined />}
            aria-label="Search Cards"
            title="Search Cards"
            onClick={() => setSearching(true)}
          />
        </Badge>
        {!phone && exportCsv}
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={async () => {
            // Pressed before the allowance has loaded: it is waited for, so the cap is told, not the chooser opened.
            const known = allowance.data ?? (await allowance.refetch()).data;
            if (atCardCap(known)) setCapTold(true);
            else setMode({ name: 'chooser' });
          }}
        >
          Add New Card
        </Button>
      </>
    ) : (
      <Button icon={<ArrowLeftOutlined />} onClick={toList}>
        Back
      </Button>
    );

  return (
    <>
      <PageHeader title="Prepaid Cards" subtitle={subtitle} extra={extra} />
      {mode.name === 'list' && (
        <>
          {capTold && atCardCap(allowance.data) && <CardAllowance />}
          {/* The phone menu has no Reports entries for cards: they are reachable from here. */}
          {phone && (
            <Flex gap={8} wrap style={{ marginBottom: 12 }}>
              <Button size="small" icon={<SlidersOutlined />} onClick={() => navigate('/portal/card-spending')}>
                Card Spending
              </Button>
              <Button size="small" icon={<BarChartOutlined />} onClick={() => navigate('/portal/card-transactions')}>
                Card Transactions
              </Button>
              {exportCsv}
            </Flex>
          )}
          {count > 0 && (
            <Flex gap={8} align="center" wrap style={{ marginBottom: 12 }}>
              <Tag color="blue">
                {count} {count === 1 ? 'filter' : 'filters'} applied
              </Tag>
              <Button type="link" size="small" onClick={() => setFilters({})} style={{ paddingInline: 0 }}>
                Clear filters
              </Button>
            </Flex>
          )}
          <Card styles={{ body: { padding: phone ? 12 : 0 } }}>
            <CardList key={JSON.stringify(filters)} filters={filters} filtered={count > 0} />
          </Card>
          <CardFilters open={searching} onClose={() => setSearching(false)} value={filters} onApply={setFilters} />
        </>
      )}
      {mode.name !== 'list' && <CardAllowance />}
      {mode.name === 'chooser' && <TypeChooser onCreate={(type) => setMode({ name: 'form', type })} />}
      {mode.name === 'form' && <CreateCardForm type={mode.type} onDone={toList} />}
    </>
  );
}
