import { CHAIN_DEPOSIT_STATUS_NAMES } from '@shared/vocabulary';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Form, Select } from 'antd';
import { useMemo, useState } from 'react';
import { type ApiChainDeposit, CHAIN_DEPOSIT_STATUSES, type ChainDepositStatus } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { FilterBar, searchFilters } from '../../components/FilterBar';
import { AssignDepositModal, ReturnDepositModal } from './actions';
import { type DepositActions, DepositItem, depositColumns } from './columns';

type Search = { status?: ChainDepositStatus };

/**
 * /admin/chain-deposits: USDT that reached one of the platform's Tron addresses and that the
 * watcher could not credit by itself (an address of no wallet, an amount no top-up expects).
 * Unassigned ones first (the default filter): staff assign each to a wallet or record its return.
 */
export default function ChainDepositsList() {
  const [assigning, setAssigning] = useState<ApiChainDeposit | null>(null);
  const [returning, setReturning] = useState<ApiChainDeposit | null>(null);
  const table = useTable<ApiChainDeposit, HttpError, Search>({
    resource: 'chain-deposits',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { initial: [{ field: 'status', operator: 'eq', value: 'Unassigned' }], defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v),
  });
  const actions = useMemo<DepositActions>(() => ({ assign: setAssigning, giveBack: setReturning }), []);
  const done = () => {
    setAssigning(null);
    setReturning(null);
    void table.tableQuery.refetch();
  };
  return (
    <>
      <PageHeader
        title="Chain Deposits"
        subtitle="USDT received on Tron that no top-up could take. Assign each to a wallet, or return it."
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="status" label="Status">
          <Select
            allowClear
            placeholder="Any status"
            style={{ minWidth: 150 }}
            options={CHAIN_DEPOSIT_STATUSES.map((s) => ({ value: s, label: CHAIN_DEPOSIT_STATUS_NAMES[s] }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<ApiChainDeposit>
        table={table}
        columns={depositColumns(actions)}
        renderItem={(d) => <DepositItem d={d} actions={actions} />}
        emptyText="No deposits match this filter"
        minWidth={1050}
      />
      <AssignDepositModal deposit={assigning} onClose={() => setAssigning(null)} onDone={done} />
      <ReturnDepositModal deposit={returning} onClose={() => setReturning(null)} onDone={done} />
    </>
  );
}
