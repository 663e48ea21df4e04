import type { CrudFilter } from '@refinedev/core';
import { FilePdfOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Select, Typography, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import type { ApiWalletTransaction, WalletTransactionTotals } from '@shared/contract';
import { usd } from '@shared/ui/cards';
import { PageHeader } from '@shared/ui/PageHeader';
import { dateTime, txTypeLabel, useDetails } from '@shared/ui/wallet';
import {
  type ListAccount,
  accountQuery,
  accountTitle,
  useAccountTable,
  useListAccount,
} from '../../components/accountList';
import { BalanceChange } from '../../components/BalanceChange';
import { DataTable } from '../../components/DataTable';
import { DateRangeFields, FilterBar } from '../../components/FilterBar';
import { CardTransferDrawer } from './show';

type Search = { type?: 'issuance' | 'topup' | 'withdraw'; start_date?: string; end_date?: string };

const TYPES = [
  { value: '', label: 'Any Type' },
  { value: 'issuance', label: 'Issuance' },
  { value: 'topup', label: 'Topup' },
  { value: 'withdraw', label: 'Withdrawal' },
];

const nowrap = { whiteSpace: 'nowrap' } as const;

/** Only the movements of cards: issuance, top-ups, withdrawals and refunds. */
const CARD_ONLY: CrudFilter[] = [{ field: 'card_only', operator: 'eq', value: 'true' }];

const columns: TableColumnsType<ApiWalletTransaction> = [
  {
    title: 'Type',
    dataIndex: 'type',
    render: (v: string) => <Typography.Text strong>{txTypeLabel(v)}</Typography.Text>,
  },
  {
    title: 'Trans. Reference',
    dataIndex: 'trans_ref',
    render: (v: string) => <Typography.Text className="cw-hash">{v}</Typography.Text>,
  },
  { title: 'Amount', dataIndex: 'amount', render: (v: string) => <span style={nowrap}>{usd(v)}</span> },
  { title: 'Fees', dataIndex: 'fees', render: (v: string) => <span style={nowrap}>{usd(v)}</span> },
  {
    title: 'Associated Card',
    dataIndex: 'card_number',
    render: (v: string | null) => (
      <span className="cw-hash" style={nowrap}>
        {v ?? '—'}
      </span>
    ),
  },
  { title: 'Date', dataIndex: 'created_at', render: (v: string) => <span style={nowrap}>{dateTime(v)}</span> },
  {
    title: 'Balance Change',
    key: 'balance',
    render: (_, t) => <BalanceChange before={t.balance_before} after={t.balance_after} currency="USD" />,
  },
];

function TransferItem({ t }: { t: ApiWalletTransaction }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" gap={8}>
        <Typography.Text strong>{txTypeLabel(t.type)}</Typography.Text>
        <Typography.Text strong style={nowrap}>
          {usd(t.amount)}
        </Typography.Text>
      </Flex>
      <Flex justify="space-between" gap={8} wrap>
        <Typography.Text type="secondary" className="cw-hash">
          {t.trans_ref}
        </Typography.Text>
        <Typography.Text type="secondary">Fees {usd(t.fees)}</Typography.Text>
      </Flex>
      <Flex justify="space-between" gap={8} wrap>
        <span className="cw-hash">{t.card_number ?? '—'}</span>
        <Typography.Text type="secondary">{dateTime(t.created_at)}</Typography.Text>
      </Flex>
      <Typography.Text type="secondary">
        Balance <BalanceChange before={t.balance_before} after={t.balance_after} currency="USD" />
      </Typography.Text>
    </Flex>
  );
}

/**
 * /admin/card-transfers[?company_id|individual_id&acc_name] (back-office §2.15): the card
 * movements of master wallets (issuance, top-ups, withdrawals, refunds of deleted cards) with
 * type and date filters, the totals of the filtered set, and each movement's fee breakdown.
 */
function CardTransfers({ account }: { account: ListAccount }) {
  const { accName = 'All Accounts', companyId, individualId } = account;
  const details = useDetails<ApiWalletTransaction>();
  const navigate = useNavigate();
  const table = useAccountTable<ApiWalletTransaction, Search>('card-transfers', account, CARD_ONLY);
  const totals = table.result.totals as WalletTransactionTotals | undefined;

  return (
    <>
      <PageHeader
        title={accountTitle(account, 'Wallet Transactions for Cards')}
        subtitle="Card issuance, top-ups and withdrawals paid from or into master wallets."
        extra={
          // One account's every movement, where its PDF statement is downloaded (a statement is of one wallet).
          (companyId || individualId) && (
            <Button
              icon={<FilePdfOutlined />}
              onClick={() =>
                navigate(
                  `/admin/wallet-transactions?${new URLSearchParams({ ...(companyId ? { company_id: companyId } : { individual_id: individualId! }), acc_name: accName })}`,
                )
              }
            >
              Wallet statement
            </Button>
          )
        }
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="type" label="Type" initialValue="">
          <Select style={{ minWidth: 150 }} options={TYPES} aria-label="Type" />
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiWalletTransaction>
        table={table}
        exportCsv={{
          path: 'reports/view-wallet-transactions',
          filename: 'card-wallet-transactions',
          query: { card_only: 'true', ...accountQuery(account) },
        }}
        columns={columns}
        minWidth={1000}
        renderItem={(t) => <TransferItem t={t} />}
        onOpen={details.show}
        rowLabel={(t) => `Open transaction ${t.trans_ref}`}
        emptyText="No card transactions match these filters"
        footer={
          <div className="cw-totals" role="group" aria-label="Totals">
            <span>Total</span>
            <span data-testid="card-transfers-total-amount">{usd(totals?.amount ?? '0.00')}</span>
            <span>Fees</span>
            <span data-testid="card-transfers-total-fees">{usd(totals?.fees ?? '0.00')}</span>
          </div>
        }
      />
      <CardTransferDrawer tx={details.item} open={details.open} onClose={details.close} />
    </>
  );
}

export default function CardTransfersList() {
  const { account, key } = useListAccount();
  return <CardTransfers key={key} account={account} />;
}
