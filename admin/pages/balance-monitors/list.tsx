import { PlusOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { App, Button } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiBalanceMonitor } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { DataTable } from '../../components/DataTable';
import { AddMonitorDrawer } from './add';
import { MonitorItem, monitorColumns } from './columns';

/**
 * /admin/balance-monitors (Finance, Super-Admin): the balance alerts, with each account's balance now and whether it
 * is below; added in a panel, deleted after a confirmation.
 */
export default function BalanceMonitorsList() {
  const { message, modal } = App.useApp();
  const { submit } = useSubmit();
  const [adding, setAdding] = useState(false);
  const table = useTable<ApiBalanceMonitor, HttpError>({
    resource: 'balance-monitors',
    pagination: { mode: 'off' },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
  });
  const reload = () => void table.tableQuery.refetch();
  const remove = (m: ApiBalanceMonitor) =>
    modal.confirm({
      title: 'Delete Balance Alert',
      content: `${m.label} will no longer be watched.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: async () => {
        const r = await submit((key) =>
          api<{ data: string }>('DELETE', `/balance-monitors/${encodeURIComponent(m.id)}`, { idempotencyKey: key }),
        );
        if (r.ok) message.success(r.data.data);
        else message.error(messageOf(r.error, 'The alert was not deleted. Please try again.'));
        reload();
      },
    });
  return (
    <>
      <PageHeader
        title="Balance Alerts"
        subtitle="Finance and Super-Admins are told when a payment takes one of these balances below its alert."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            Add Alert
          </Button>
        }
      />
      <DataTable<ApiBalanceMonitor>
        table={table}
        paginate={false}
        columns={monitorColumns(remove)}
        renderItem={(m) => <MonitorItem m={m} onDelete={remove} />}
        emptyText="No balance alerts yet"
      />
      <AddMonitorDrawer
        open={adding}
        onClose={() => {
          setAdding(false);
          reload();
        }}
      />
    </>
  );
}
