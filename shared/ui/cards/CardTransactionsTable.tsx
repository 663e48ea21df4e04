import { Flex, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { ApiCardTransaction, Paged } from '../../contract';
import { PaymentDisputes } from '../disputes/PaymentDisputes';
import { DetailRows, DetailsDrawer, useDetails } from '../wallet/DetailsDrawer';
import { type CompactRow, PagedTable } from '../wallet/PagedTable';
import { dateTime } from '../wallet/format';
import { categoryText, countryText } from './controlTexts';
import { TX_KIND_LABELS, dash, signedCardAmount, txTag, usd } from './format';

type Tx = ApiCardTransaction;

const TxStatusTag = ({ tx }: { tx: Tx }) => {
  const tag = txTag(tx);
  return (
    <Tag color={tag.color} style={{ marginInlineEnd: 0 }}>
      {tag.label}
    </Tag>
  );
};

/** A payment that still holds less than it was approved for (cleared in part, reversed in part) says so. */
const stillHeld = (tx: Tx) => (tx.kind === 'authorization' && tx.status === 'approved' && tx.held ? tx.held : null);

/**
 * The description (the server tells each step's story in words), what a pending payment still holds,
 * and for a declined one why it was declined (customers must see it).
 */
function TxDescription({ tx }: { tx: Tx }) {
  const held = stillHeld(tx);
  return (
    <Flex vertical gap={2} style={{ minWidth: 0, maxWidth: 360, whiteSpace: 'normal' }}>
      <span>{dash(tx.description)}</span>
      {held && held !== tx.amount && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Still held: {usd(held)}
        </Typography.Text>
      )}
      {tx.status === 'declined' && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="decline-reason">
          Declined: {tx.decline_reason ?? 'no reason was given'}
        </Typography.Text>
      )}
    </Flex>
  );
}

const Amount = ({ tx }: { tx: Tx }) => (
  <Typography.Text
    type={
      tx.status === 'declined' || tx.status === 'reversed' || tx.status === 'expired'
        ? 'secondary'
        : tx.kind === 'load' || tx.kind === 'merchant_refund'
          ? 'success'
          : undefined
    }
    delete={tx.status === 'declined'}
    style={{ whiteSpace: 'nowrap' }}
  >
    {signedCardAmount(tx)}
  </Typography.Text>
);

/** Everything about one card transaction, in the details panel. */
function CardTransactionDetails({ tx }: { tx: Tx }) {
  return (
    <DetailRows
      rows={[
        { label: 'Description', value: dash(tx.description) },
        { label: 'Type', value: TX_KIND_LABELS[tx.kind] },
        { label: 'Status', value: <TxStatusTag tx={tx} /> },
        ...(tx.status === 'declined'
          ? [
              {
                label: 'Decline Reason',
                value: <Typography.Text type="danger">{tx.decline_reason ?? '-'}</Typography.Text>,
              },
            ]
          : []),
        { label: 'Amount', value: signedCardAmount(tx) },
        ...(stillHeld(tx) ? [{ label: 'Still Held', value: usd(stillHeld(tx)) }] : []),
        { label: 'Currency', value: tx.currency },
        { label: 'Merchant', value: dash(tx.merchant) },
        { label: 'Category', value: dash(categoryText(tx)) },
        { label: 'Country', value: dash(countryText(tx)) },
        { label: 'Date Created', value: dateTime(tx.date_created) },
        { label: 'Date Updated', value: dateTime(tx.date_updated) },
      ]}
    />
  );
}

const when = (iso: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(iso)}</span>;

const category = { title: 'Category', key: 'category', render: (_: unknown, r: Tx) => dash(categoryText(r)) };
const country = { title: 'Country', dataIndex: 'country', render: (_: unknown, r: Tx) => dash(countryText(r)) };

/** The merchant, with its category and country under it (the detail table keeps the spec's five columns). */
function MerchantCell({ tx }: { tx: Tx }) {
  const where = [categoryText(tx), countryText(tx)].filter(Boolean).join(' · ');
  return (
    <Flex vertical gap={2}>
      <span>{dash(tx.merchant)}</span>
      {where && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="merchant-where">
          {where}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Card detail: merchant (with its category and country), description, amount, currency, date created. */
const DETAIL_COLUMNS: TableColumnsType<Tx> = [
  { title: 'Merchant', dataIndex: 'merchant', render: (_, r) => <MerchantCell tx={r} /> },
  { title: 'Description', dataIndex: 'description', render: (_, r) => <TxDescription tx={r} /> },
  { title: 'Status', dataIndex: 'status', render: (_, r) => <TxStatusTag tx={r} /> },
  { title: 'Amount', dataIndex: 'amount', align: 'right', render: (_, r) => <Amount tx={r} /> },
  { title: 'Currency', dataIndex: 'currency' },
  { title: 'Date Created', dataIndex: 'date_created', render: when },
];

/** Card Transactions report: Description, Amount, Currency, Merchant, Category, Country, Date Updated. */
const REPORT_COLUMNS: TableColumnsType<Tx> = [
  { title: 'Description', dataIndex: 'description', render: (_, r) => <TxDescription tx={r} /> },
  { title: 'Amount', dataIndex: 'amount', align: 'right', render: (_, r) => <Amount tx={r} /> },
  { title: 'Currency', dataIndex: 'currency' },
  { title: 'Merchant', dataIndex: 'merchant', render: (v: string) => dash(v) },
  category,
  country,
  { title: 'Date Updated', dataIndex: 'date_updated', render: when },
];

const compact =
  (variant: 'detail' | 'report') =>
  (r: Tx): CompactRow => ({
    title: dash(r.merchant),
    description: (
      <>
        <TxDescription tx={r} />
        <div>{[categoryText(r), countryText(r)].filter(Boolean).join(' · ')}</div>
        <div>{dateTime(variant === 'report' ? r.date_updated : r.date_created)}</div>
      </>
    ),
    extra: (
      <Flex vertical align="flex-end" gap={4}>
        <strong>
          <Amount tx={r} />
        </strong>
        <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.6)' }}>{r.currency}</span>
        <TxStatusTag tx={r} />
      </Flex>
    ),
  });

/** A page of a card's transactions: table on desktop, compact list on phones; a row opens its details. */
export function CardTransactionsTable({
  variant,
  data,
  loading,
  error,
  page,
  onPage,
  emptyText,
}: {
  variant: 'detail' | 'report';
  data: Paged<Tx> | undefined;
  loading: boolean;
  error: unknown;
  page: number;
  onPage(page: number): void;
  emptyText: string;
}) {
  const details = useDetails<Tx>();
  return (
    <>
      <PagedTable<Tx>
        rowKey={(r) => r.id}
        rows={data?.data}
        total={data?.total ?? 0}
        page={page}
        onPage={onPage}
        loading={loading}
        error={error}
        columns={variant === 'detail' ? DETAIL_COLUMNS : REPORT_COLUMNS}
        compact={compact(variant)}
        emptyText={emptyText}
        onRowClick={details.show}
        rowLabel={(r) => `${r.description} ${usd(r.amount)}, ${txTag(r).label}`}
      />
      <DetailsDrawer open={details.open} onClose={details.close}>
        {details.item && <CardTransactionDetails tx={details.item} />}
        {details.item && <PaymentDisputes tx={details.item} />}
      </DetailsDrawer>
    </>
  );
}
