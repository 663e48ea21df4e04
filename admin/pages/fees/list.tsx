import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Form, Select } from 'antd';
import { useState } from 'react';
import type { ApiFee } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { FeeItem, feeColumns } from './columns';
import { useCan } from '../../components/Allowed';
import { FeeEditDrawer } from './edit';

/** /admin/fees: the whole schedule (defaults and company overrides); each row is edited in a panel. */
export default function FeesList() {
  const [editing, setEditing] = useState<ApiFee | null>(null);
  const mayEdit = useCan('fees.manage');
  const table = useTable<ApiFee, HttpError, { for?: 'default' | 'company'; start_date?: string; end_date?: string }>({
    resource: 'fees',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v),
  });
  return (
    <>
      <PageHeader
        title="List of Fees"
        subtitle="Fees are in USD; a company's own fee replaces the default of the same name."
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="for" label="Fees For">
          <Select
            allowClear
            placeholder="All fees"
            style={{ minWidth: 150 }}
            options={[
              { value: 'default', label: 'Default' },
              { value: 'company', label: 'Company' },
            ]}
          />
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiFee>
        table={table}
        exportCsv={{ path: 'fees', filename: 'fees' }}
        columns={feeColumns(mayEdit ? setEditing : undefined)}
        renderItem={(f) => <FeeItem f={f} onEdit={mayEdit ? setEditing : undefined} />}
        emptyText="No fees match these filters"
      />
      <FeeEditDrawer fee={editing} onClose={() => setEditing(null)} />
    </>
  );
}
