import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Form, Input, Select } from 'antd';
import { useNavigate } from 'react-router';
import type { ApiVerificationRow } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { KINDS, type Kind, VERIFICATION_STATES, VerificationItem, verificationColumns } from './columns';

type Search = { state?: string; name?: string; start_date?: string; end_date?: string };

/**
 * /admin/verifications-individuals and /admin/verifications-companies: every KYC or KYB
 * submission, newest first, filtered by state, name and submission date; a row opens its details.
 */
export default function VerificationList({ kind }: { kind: Kind }) {
  const k = KINDS[kind];
  const navigate = useNavigate();
  const table = useTable<ApiVerificationRow, HttpError, Search>({
    resource: k.resource,
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters({ ...v, name: v.name?.trim() }),
  });
  return (
    <>
      <PageHeader
        title={k.title}
        subtitle={`${k.term} submissions to review. Open one to see its documents and decide.`}
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="state" label="State">
          <Select
            allowClear
            placeholder="Any state"
            style={{ minWidth: 150 }}
            options={VERIFICATION_STATES.map((s) => ({ value: s.value, label: s.label }))}
          />
        </Form.Item>
        <Form.Item name="name" label="Name" rules={[{ max: 100, message: 'Name must be at most 100 characters' }]}>
          <Input
            allowClear
            placeholder={kind === 'company' ? 'Company name' : 'First or last name'}
            style={{ minWidth: 180 }}
          />
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiVerificationRow>
        table={table}
        exportCsv={{
          path: kind === 'individual' ? 'verification/get-individuals' : 'verification/get-companies',
          filename: `${kind}-verifications`,
        }}
        columns={verificationColumns(kind)}
        renderItem={(v) => <VerificationItem v={v} />}
        onOpen={(v) => navigate(`/admin/${k.resource}/${v.id}`)}
        rowLabel={(v) =>
          `Open ${k.term} verification of ${v.name}, ${VERIFICATION_STATES.find((s) => s.value === v.state)?.label ?? v.state}`
        }
        emptyText="No verifications match these filters"
        minWidth={1000}
      />
    </>
  );
}
