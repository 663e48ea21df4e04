import { moneyText } from '@shared/vocabulary';
import { topupStateName } from '@shared/ui/wallet/StateTag';
import { Checkbox, Form, Select } from 'antd';
import { useState } from 'react';
import { TOPUP_STATES, type ApiTopup, type TopupState, type TopupTotals } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import {
  type ListAccount,
  accountQuery,
  accountTitle,
  useAccountTable,
  useListAccount,
} from '../../components/accountList';
import { DataTable } from '../../components/DataTable';
import { DateRangeFields, FilterBar } from '../../components/FilterBar';

import { TopupItem, canDecide, topupColumns } from './columns';
import { DecideTopupDrawer } from './edit';
import { useCan } from '../../components/Allowed';

type Search = { state?: TopupState; ready?: boolean; start_date?: string; end_date?: string };

/**
 * /admin/wallet-loads[?acc_name&company_id&individual_id]: every top-up (or one account's),
 * filtered by state, readiness (the dashboard's "Top-ups to decide" opens it so) and dates, with the amount sum of the filtered set; open rows lead to the
 * approve/deny panel.
 */
function WalletLoads({ account }: { account: ListAccount }) {
  const [open, setOpen] = useState<ApiTopup | null>(null);
  const mayDecide = useCan('topups.decide');
  const table = useAccountTable<ApiTopup, Search>('wallet-loads', account);
  const totals = table.result.totals as TopupTotals | undefined;

  return (
    <>
      <PageHeader
        title={accountTitle(account, 'Wallet Top-Ups / Loads')}
        subtitle="Approve or deny top-ups of master wallets."
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="state" label="State">
          <Select
            allowClear
            placeholder="Any state"
            style={{ minWidth: 170 }}
            options={TOPUP_STATES.map((s) => ({ value: s, label: topupStateName(s) }))}
          />
        </Form.Item>
        <Form.Item
          name="ready"
          valuePropName="checked"
          getValueProps={(v) => ({ checked: v === true || v === 'true' })}
        >
          <Checkbox>Ready to decide</Checkbox>
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiTopup>
        table={table}
        exportCsv={{
          path: 'wallet/list-topups',
          filename: 'wallet-top-ups',
          query: accountQuery(account),
        }}
        columns={topupColumns}
        renderItem={(t) => <TopupItem t={t} />}
        onOpen={setOpen}
        canOpen={mayDecide ? canDecide : () => false}
        rowLabel={(t) => `Open top-up of ${t.name}, ${t.amount} ${t.method}, ${t.state}`}
        emptyText="No top-ups match these filters"
        footer={
          // What was received apart from what is pending or denied: one sum of every state says little.
          <div
            className="cw-totals"
            role="group"
            aria-label="Totals"
            style={{ flexWrap: 'wrap', columnGap: 20, rowGap: 4 }}
          >
            <span>
              Received <strong data-testid="topups-received">{moneyText(totals?.received ?? '0.00', 'USDT')}</strong>
            </span>
            <span>
              Pending <span data-testid="topups-pending">{moneyText(totals?.pending ?? '0.00', 'USDT')}</span>
            </span>
            <span>
              Denied <span data-testid="topups-denied">{moneyText(totals?.denied ?? '0.00', 'USDT')}</span>
            </span>
            <span>
              Total <span data-testid="topups-total">{moneyText(totals?.amount ?? '0.00', 'USDT')}</span>
            </span>
          </div>
        }
      />
      <DecideTopupDrawer
        topup={open}
        onClose={() => setOpen(null)}
        onDecided={() => {
          setOpen(null);
          void table.tableQuery.refetch();
        }}
        onStale={() => void table.tableQuery.refetch()}
      />
    </>
  );
}

export default function WalletLoadsList() {
  const { account, key } = useListAccount();
  return <WalletLoads key={key} account={account} />;
}
