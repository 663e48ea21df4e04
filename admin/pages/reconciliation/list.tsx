import { useTable } from '@refinedev/antd';
import { type HttpError, useCustom } from '@refinedev/core';
import { App, Button, Card, Descriptions, Flex, Segmented, Table } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiIssuerOperation, ApiReconciliationRun } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { dateTime } from '../../format';
import { useCan } from '../../components/Allowed';
import { OperationItem, driftColumns, operationColumns } from './columns';

type State = 'failed' | 'pending';

/**
 * /admin/reconciliation (staff): the last comparison of every card's ledger balance with the card
 * issuer and the drift it found; the issuer operations that failed for good (with the refund each
 * gave the customer) or are still owed. A Super-Admin runs the comparison now.
 */
export default function ReconciliationList() {
  const { message } = App.useApp();
  const canRun = useCan('reconciliation.run');
  const [state, setState] = useState<State>('failed');
  const { busy, submit } = useSubmit();
  const last = useCustom<ApiReconciliationRun>({ url: '/reconciliation', method: 'get' });
  const table = useTable<ApiIssuerOperation, HttpError>({
    resource: 'reconciliation-operations',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { permanent: [{ field: 'state', operator: 'eq', value: state }] },
    syncWithLocation: false,
  });
  // Refine's result holds an empty object until the first answer arrives.
  const run = last.result?.data as Partial<ApiReconciliationRun> | undefined;
  const drift = run?.drift ?? [];

  async function runNow() {
    const r = await submit((key) =>
      api<{ data: ApiReconciliationRun }>('POST', '/reconciliation/run', { idempotencyKey: key }),
    );
    if (!r.ok) {
      message.error(messageOf(r.error, 'The reconciliation did not run. Please try again.'));
      return;
    }
    const drift = r.data.data.drift.length;
    message.success(
      drift
        ? `Reconciliation done: ${drift} ${drift === 1 ? 'card' : 'cards'} with drift.`
        : 'Reconciliation done: no drift.',
    );
    void last.query.refetch();
    void table.tableQuery.refetch();
  }

  return (
    <>
      <PageHeader
        title="Reconciliation"
        subtitle="Each card's ledger balance against what the card issuer holds. Drift is a difference that no operation still owed to the issuer explains."
      />
      <Card
        title="Last run"
        loading={last.query.isLoading}
        extra={
          canRun && (
            <Button type="primary" onClick={runNow} loading={busy}>
              Run now
            </Button>
          )
        }
        style={{ marginBottom: 16 }}
      >
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 3 }}
          items={[
            { key: 'at', label: 'Run at', children: run?.run_at ? dateTime(run.run_at) : 'Never' },
            { key: 'checked', label: 'Cards checked', children: run?.checked ?? 0 },
            { key: 'drift', label: 'Cards with drift', children: drift.length },
          ]}
        />
        <Table
          rowKey="card_id"
          size="small"
          style={{ marginTop: 12 }}
          columns={driftColumns}
          dataSource={drift}
          pagination={drift.length > PAGE_SIZE ? { pageSize: PAGE_SIZE } : false}
          // Sideways scrolling only with rows to scroll: an empty table is its message, which wraps.
          scroll={drift.length ? { x: 640 } : undefined}
          locale={{ emptyText: run?.run_at ? 'No drift: every card matches the issuer.' : 'Not run yet.' }}
        />
      </Card>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <h2 style={{ margin: 0, fontSize: 18 }}>Issuer operations</h2>
        <Segmented<State>
          aria-label="Issuer operations to show"
          value={state}
          onChange={setState}
          options={[
            { value: 'failed', label: 'Failed' },
            { value: 'pending', label: 'Pending' },
          ]}
        />
      </Flex>
      <DataTable<ApiIssuerOperation>
        table={table}
        columns={operationColumns}
        renderItem={(op) => <OperationItem op={op} />}
        emptyText={state === 'failed' ? 'No issuer operation has failed.' : 'Nothing is waiting for the card issuer.'}
        minWidth={900}
      />
    </>
  );
}
