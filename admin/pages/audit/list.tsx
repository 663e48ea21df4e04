import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { AutoComplete, Form, Input, Select } from 'antd';
import { useState } from 'react';
import type { ApiAuditEntry } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { ACTION_LABELS, AuditItem, OBJECT_TYPES, auditColumns } from './columns';
import { AuditEntryDrawer } from './show';

type Search = {
  actor?: string;
  action?: string;
  object_type?: string;
  object_id?: string;
  start_date?: string;
  end_date?: string;
};

const trimmed = (v: Search) =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x]));
const ACTION_OPTIONS = Object.entries(ACTION_LABELS).map(([value, label]) => ({ value, label: `${value} (${label})` }));

/**
 * /admin/audit-logs (Super-Admin): every staff action, newest first, filtered by who, what
 * (an action or its start, e.g. "card."), which object and when; a row shows the entry in full.
 */
export default function AuditList() {
  const [open, setOpen] = useState<ApiAuditEntry | null>(null);
  const table = useTable<ApiAuditEntry, HttpError, Search>({
    resource: 'audit-logs',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(trimmed(v)),
  });
  return (
    <>
      <PageHeader
        title="Audit Trail"
        subtitle="Every change staff made: who, when, what and to which object. Entries cannot be changed."
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="actor" label="Actor">
          <Input allowClear placeholder="Email or user id" style={{ minWidth: 200 }} />
        </Form.Item>
        <Form.Item name="action" label="Action">
          <AutoComplete
            allowClear
            placeholder="e.g. verification."
            style={{ minWidth: 200 }}
            options={ACTION_OPTIONS}
            filterOption={(input, o) => String(o?.value ?? '').startsWith(input.trim().toLowerCase())}
            popupMatchSelectWidth={280}
          />
        </Form.Item>
        <Form.Item name="object_type" label="Object Type">
          <Select
            allowClear
            placeholder="Any"
            style={{ minWidth: 160 }}
            options={OBJECT_TYPES.map((t) => ({ value: t, label: t }))}
          />
        </Form.Item>
        <Form.Item name="object_id" label="Object Id">
          <Input allowClear style={{ minWidth: 200 }} />
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiAuditEntry>
        table={table}
        exportCsv={{ path: 'audit-logs', filename: 'audit-trail' }}
        columns={auditColumns}
        renderItem={(a) => <AuditItem a={a} />}
        onOpen={setOpen}
        rowLabel={(a) => `Open audit entry: ${ACTION_LABELS[a.action] ?? a.action} by ${a.actor_email}`}
        emptyText="No audit entries match these filters"
        minWidth={1000}
      />
      <AuditEntryDrawer entry={open} onClose={() => setOpen(null)} />
    </>
  );
}
