import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Flex, Form, Input, Select, Typography, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { type ApiDispute, DISPUTE_REASONS, DISPUTE_STATES } from '@shared/contract';
import { DISPUTE_REASON_NAMES, DISPUTE_STATE_NAMES } from '@shared/vocabulary';
import { PageHeader } from '@shared/ui/PageHeader';
import { usd } from '@shared/ui/cards';
import { DisputeStateTag, reasonText } from '@shared/ui/disputes/DisputeDetails';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { DateRangeFields, FilterBar, searchFilters } from '../../components/FilterBar';
import { dateTime } from '../../format';

type Search = { state?: string; reason?: string; customer?: string; start_date?: string; end_date?: string };

const card = (d: ApiDispute) => `${d.card_nickname}${d.card_last4 ? ` •••• ${d.card_last4}` : ''}`;

const columns: TableColumnsType<ApiDispute> = [
  { title: 'Date Created', dataIndex: 'created_at', render: (v: string) => dateTime(v) },
  { title: 'Customer', dataIndex: 'owner_name' },
  { title: 'Card', key: 'card', render: (_, d) => card(d) },
  { title: 'Merchant', dataIndex: 'merchant' },
  { title: 'Reason', dataIndex: 'reason', render: (_, d) => reasonText(d.reason) },
  { title: 'Amount', dataIndex: 'amount', align: 'right', render: (_, d) => usd(d.amount) },
  { title: 'State', dataIndex: 'state', render: (_, d) => <DisputeStateTag state={d.state} /> },
];

function DisputeItem({ d }: { d: ApiDispute }) {
  return (
    <Flex justify="space-between" gap={8} style={{ width: '100%' }}>
      <Flex vertical>
        <strong>{d.owner_name}</strong>
        <span>
          {d.merchant} · {reasonText(d.reason)}
        </span>
        <Typography.Text type="secondary">{dateTime(d.created_at)}</Typography.Text>
      </Flex>
      <Flex vertical align="flex-end" gap={4}>
        <strong>{usd(d.amount)}</strong>
        <DisputeStateTag state={d.state} />
      </Flex>
    </Flex>
  );
}

/**
 * /admin/disputes (issue 36): card disputes customers opened, newest first, filtered by state, reason,
 * customer and date; a row opens the dispute, where staff send it to the issuer.
 */
export default function DisputesList() {
  const navigate = useNavigate();
  const table = useTable<ApiDispute, HttpError, Search>({
    resource: 'disputes',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters({ ...v, customer: v.customer?.trim() || undefined }),
  });
  return (
    <>
      <PageHeader
        title="Disputes"
        subtitle="Card payments customers disputed. Review each and send it to the card issuer."
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="state" label="State">
          <Select
            allowClear
            placeholder="Any state"
            style={{ minWidth: 150 }}
            options={DISPUTE_STATES.map((s) => ({ value: s, label: DISPUTE_STATE_NAMES[s] }))}
          />
        </Form.Item>
        <Form.Item name="reason" label="Reason">
          <Select
            allowClear
            placeholder="Any reason"
            style={{ minWidth: 170 }}
            options={DISPUTE_REASONS.map((r) => ({ value: r, label: DISPUTE_REASON_NAMES[r] }))}
          />
        </Form.Item>
        <Form.Item name="customer" label="Customer Id">
          <Input allowClear placeholder="Individual or company id" style={{ minWidth: 220 }} />
        </Form.Item>
        <DateRangeFields />
      </FilterBar>
      <DataTable<ApiDispute>
        table={table}
        exportCsv={{ path: 'disputes', filename: 'disputes' }}
        columns={columns}
        renderItem={(d) => <DisputeItem d={d} />}
        onOpen={(d) => navigate(`/admin/disputes/${d.id}`)}
        rowLabel={(d) => `Open dispute: ${d.owner_name}, ${d.merchant}, ${usd(d.amount)}`}
        emptyText="No disputes match these filters"
        minWidth={1000}
      />
    </>
  );
}
