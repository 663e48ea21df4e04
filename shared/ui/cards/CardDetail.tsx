import { ArrowLeftOutlined, DownOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Dropdown, Flex, Result, Row, Skeleton, Space, Typography } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { ApiError, messageOf } from '../../api/errors';
import type { ApiCard, ApiCardTransaction, Paged } from '../../contract';
import { PAGE_SIZE } from '../wallet/PagedTable';
import { useIsPhone } from '../wallet/useIsPhone';
import { CardFace } from './CardFace';
import { CardSecretsTable, CardSumsSummary } from './CardInfo';
import { FundCardPanel, SpendLimitPanel, WithdrawPanel } from './CardPanels';
import { CardControlsSection } from './CardControls';
import { CardTransactionsTable } from './CardTransactionsTable';
import { ExportCsvButton } from '../ExportCsvButton';
import { cardKind, usdCents } from './format';
import { useCardDetail } from './hooks';
import { CARD_KEYS } from './keys';
import { StatusTag } from './StatusTag';
import { useCardActions } from './useCardActions';
import { amountText } from '../wallet/format';
import { centsOf } from '../../money';
import { ResultHeading } from '../ResultHeading';

/** Money held by payments not yet settled: ledger − available. */
const held = (c: ApiCard) => centsOf(c.ledger) - centsOf(c.available);

export interface CardDetailProps {
  cardId: string;
  /** the back-office path: sums instead of the details table, no Additional Spend Limit */
  staff?: boolean;
  backTo: string;
  backLabel?: string;
  /** after the card is deleted (e.g. back to the list) */
  onDeleted(): void;
  /** an app's own section between the card's figures and its transactions (the back-office's simulation) */
  children?: ReactNode;
}

function Back({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} style={{ display: 'inline-flex', gap: 6, alignItems: 'center', marginBottom: 12 }}>
      <ArrowLeftOutlined /> {label}
    </Link>
  );
}

/** What holds this card back, said to the person looking at it. */
function CardNotices({ card, staff }: { card: ApiCard; staff: boolean }) {
  const notes: Array<{ type: 'error' | 'warning' | 'info'; text: string }> = [];
  if (card.is_deleted)
    notes.push({ type: 'error', text: `This card has been deleted.${card.end_reason ? ` ${card.end_reason}.` : ''}` });
  else if (card.state !== 'Active')
    notes.push({ type: 'warning', text: 'This card is frozen: payments are declined until it is unfrozen.' });
  if (card.flagged)
    notes.push({
      type: 'warning',
      text: staff
        ? `Flagged: ${card.flag_reason ?? '-'}`
        : 'This card is under review: payments are declined until the review ends.',
    });
  if (card.suspended)
    notes.push({
      type: 'warning',
      text: staff
        ? `Suspended: ${card.suspend_reason ?? '-'}`
        : 'This card is suspended: payments are declined until it is released.',
    });
  return notes.length ? (
    <Space direction="vertical" style={{ width: '100%', marginBottom: 16 }}>
      {notes.map((n) => (
        <Alert key={n.text} type={n.type} showIcon message={n.text} />
      ))}
    </Space>
  ) : null;
}

/**
 * The card detail (back-office §2.9), shared by the customer portal and the back-office: the card
 * face, its balance, the details (customer) or sums (staff), the options, and its transactions.
 */
export function CardDetail({
  cardId,
  staff = false,
  backTo,
  backLabel = 'Back to cards',
  onDeleted,
  children,
}: CardDetailProps) {
  const phone = useIsPhone();
  const detail = useCardDetail(cardId);
  const [page, setPage] = useState(1);
  const txRef = useRef<HTMLDivElement>(null);
  const transactions = useQuery({
    queryKey: CARD_KEYS.transactions(cardId, 'all', page),
    queryFn: () =>
      api<Paged<ApiCardTransaction>>('GET', '/reports/view-cards-transactions', {
        query: { card: cardId, page, per_page: PAGE_SIZE },
        silent: true,
      }),
    enabled: detail.isSuccess,
  });
  const card = detail.data?.card;
  const actions = useCardActions({
    card,
    staff,
    onTransactions: () => txRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
    onDeleted,
  });

  // Pending, not only loading: a query paused (the browser thinks it is offline) is waited for, not shown as a failure.
  if (detail.isPending) {
    return (
      <div role="status" aria-label="Loading card">
        <Back to={backTo} label={backLabel} />
        <Row gutter={[24, 24]}>
          <Col xs={24} lg={10}>
            <Skeleton.Node active style={{ width: phone ? 320 : 380, height: phone ? 200 : 240, borderRadius: 16 }}>
              <span />
            </Skeleton.Node>
          </Col>
          <Col xs={24} lg={14}>
            <Skeleton active paragraph={{ rows: 8 }} />
          </Col>
        </Row>
      </div>
    );
  }
  if (detail.error || !detail.data || !card) {
    const notFound =
      detail.error instanceof ApiError && (detail.error.statusCode === 404 || detail.error.statusCode === 400);
    return (
      <>
        <Back to={backTo} label={backLabel} />
        {notFound ? (
          <Result
            status="404"
            title={<ResultHeading>Card not found</ResultHeading>}
            subTitle="This card does not exist or is not yours to see."
          />
        ) : (
          <Alert type="error" showIcon message={messageOf(detail.error, 'Could not load the card.')} />
        )}
      </>
    );
  }

  const { details } = detail.data;
  return (
    <>
      <Back to={backTo} label={backLabel} />
      <Flex justify="space-between" align="flex-start" gap={12} style={{ marginBottom: 16 }}>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={1} className="cw-page-title" ellipsis>
            {card.nickname}
          </Typography.Title>
          <Typography.Text type="secondary">
            {cardKind(card.type, card.purpose)}
            {staff && card.owner_name ? ` · ${card.owner_name}` : ''}
          </Typography.Text>
        </div>
        <Dropdown menu={{ items: actions.items, onClick: actions.onMenu }} trigger={['click']} placement="bottomRight">
          <Button type="primary" aria-label="Card options">
            Options <DownOutlined />
          </Button>
        </Dropdown>
      </Flex>
      <CardNotices card={card} staff={staff} />
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={10}>
          <Card styles={{ body: { padding: phone ? 16 : 24 } }}>
            <Flex vertical align="center" gap={20}>
              <CardFace
                purpose={card.purpose}
                type={card.type}
                maskedNumber={card.masked_number}
                holder={card.cardholder}
                expMonth={details.card_exp_month}
                expYear={details.card_exp_year}
                deactivated={card.state !== 'Active'}
              />
              <Flex justify="space-between" align="flex-end" style={{ width: '100%', maxWidth: 380 }}>
                <div>
                  <Typography.Text type="secondary">Balance (USD)</Typography.Text>
                  <Typography.Title level={2} style={{ margin: 0 }} data-testid="card-balance">
                    {amountText(card.balance)}
                  </Typography.Title>
                </div>
                <Flex vertical align="flex-end" gap={4}>
                  <StatusTag card={card} />
                  {held(card) > 0 && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      Pending payments: {usdCents(held(card))}
                    </Typography.Text>
                  )}
                </Flex>
              </Flex>
            </Flex>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card title={staff ? 'Card Summary' : 'Card Details'} styles={{ body: { padding: phone ? 12 : 24 } }}>
            {staff ? <CardSumsSummary detail={detail.data} /> : <CardSecretsTable detail={detail.data} />}
          </Card>
        </Col>
      </Row>
      <CardControlsSection card={card} staff={staff} />
      {children}
      <div ref={txRef} style={{ scrollMarginTop: 80 }}>
        <Card
          title="Card Transactions"
          extra={
            <ExportCsvButton
              path="/reports/view-cards-transactions"
              query={{ card: cardId }}
              filename="card-transactions"
              size="small"
            />
          }
          style={{ marginTop: 24 }}
          styles={{ body: { padding: phone ? 12 : 0 }, header: phone ? { paddingInline: 12 } : undefined }}
        >
          <CardTransactionsTable
            variant="detail"
            data={transactions.data}
            loading={transactions.isLoading}
            error={transactions.error}
            page={page}
            onPage={setPage}
            emptyText="No transactions on this card yet"
          />
        </Card>
      </div>
      <FundCardPanel open={actions.panel === 'fund'} onClose={actions.closePanel} card={card} staff={staff} />
      <WithdrawPanel open={actions.panel === 'withdraw'} onClose={actions.closePanel} card={card} staff={staff} />
      {!staff && <SpendLimitPanel open={actions.panel === 'spend-limit'} onClose={actions.closePanel} card={card} />}
    </>
  );
}
