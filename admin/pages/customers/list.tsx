import { ACCOUNT_STATE_NAMES } from '@shared/vocabulary';
import { useState } from 'react';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Form, Input, Select } from 'antd';
import { CUSTOMER_STATES, type ApiCustomerRow } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { useCustomerActions } from './actions';
import { type ResetTarget, ResetTwoFactorModal } from '../../components/ResetTwoFactor';
import { CustomerItem, type Kind, customerColumns, customerName } from './columns';

type Search = { state?: string; name?: string; start_date?: string; end_date?: string };

const KINDS = {
  individual: {
    resource: 'customers-individuals',
    title: 'List of Individuals',
    subtitle: 'Individual customers, their wallets and cards.',
  },
  company: {
    resource: 'customers-companies',
    title: 'List of Companies',
    subtitle: 'Company customers, their wallets, cards and users.',
  },
} as const;

/**
 * /admin/customers-individuals and /admin/customers-companies: the customer database, filtered by
 * state, sign-up date and name; each row leads to the customer's cards, card transactions, wallet
 * loads (and a company's fees) and deactivates or reactivates the account.
 */
export default function CustomersList({ kind }: { kind: Kind }) {
  const k = KINDS[kind];
  const table = useTable<ApiCustomerRow, HttpError, Search>({
    resource: k.resource,
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters({ ...v, name: v.name?.trim() }),
  });
  const [resetting, setResetting] = useState<ResetTarget | null>(null);
  const actions = useCustomerActions(kind, () => void table.tableQuery.refetch(), setResetting);
  return (
    <>
      <PageHeader title={k.title} subtitle={k.subtitle} />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="state" label="State">
          <Select
            allowClear
            placeholder="Any state"
            style={{ minWidth: 150 }}
            options={CUSTOMER_STATES.map((s) => ({ value: s, label: ACCOUNT_STATE_NAMES[s] }))}
          />
        </Form.Item>
        <DateRangeFields />
        <Form.Item name="name" label="Name" rules={[{ max: 100, message: 'Name must be at most 100 characters' }]}>
          <Input
            allowClear
            placeholder={kind === 'company' ? 'Company name or email' : 'Name or email'}
            style={{ minWidth: 180 }}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<ApiCustomerRow>
        table={table}
        exportCsv={{
          path: kind === 'individual' ? 'individuals' : 'companies',
          filename: kind === 'individual' ? 'individuals' : 'companies',
        }}
        columns={customerColumns(kind, actions)}
        renderItem={(c) => <CustomerItem c={c} kind={kind} actions={actions(c)} />}
        rowLabel={(c) => customerName(c)}
        emptyText="No customers match these filters"
        minWidth={kind === 'company' ? 1150 : 1050}
      />
      <ResetTwoFactorModal target={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
