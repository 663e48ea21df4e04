import { PlusOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { App, Button } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiAdmin } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { useSubmit } from '@shared/ui/useSubmit';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { AdminItem, adminColumns, adminName } from './columns';
import { AddAdminDrawer, EditAdminDrawer } from './edit';
import { useAccessMenu } from './access';
import { type ResetTarget, ResetTwoFactorModal } from '../../components/ResetTwoFactor';
import { useCan } from '../../components/Allowed';

/**
 * /admin/administration-admins (Super-Admin): the staff, added with an emailed link to set a
 * password, edited in a panel, deleted after the 'Delete Admin' dialog. Nobody deletes their own
 * row; the server's refusals (the last Super-Admin, one's own privileges) are shown as it says them.
 */
export default function AdminsList() {
  const me = useSession()?.user.id;
  const { message, modal } = App.useApp();
  const { submit } = useSubmit();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ApiAdmin | null>(null);
  const table = useTable<ApiAdmin, HttpError>({
    resource: 'administration-admins',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
  });
  const reload = () => void table.tableQuery.refetch();

  const remove = (a: ApiAdmin) =>
    modal.confirm({
      title: 'Delete Admin',
      content: `You are about to delete this user, ${adminName(a)}.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: async () => {
        const r = await submit((key) =>
          api<{ data: string }>('DELETE', `/account/admins/${encodeURIComponent(a.id)}`, { idempotencyKey: key }),
        );
        if (r.ok) message.success(r.data.data);
        else message.error(messageOf(r.error, 'The admin was not deleted. Please try again.'));
        reload();
      },
    });

  const [resetting, setResetting] = useState<ResetTarget | null>(null);
  const mayManage = useCan('staff.manage');
  const access = useAccessMenu(reload);
  const act = {
    access,
    meId: me,
    mayManage,
    onEdit: setEditing,
    onDelete: remove,
    onResetTwoFactor: (a: ApiAdmin) => setResetting({ userId: a.id, name: adminName(a) }),
  };
  return (
    <>
      <PageHeader
        title="List of Administrators"
        subtitle="Staff who use the back-office: each one's role, second factor, last sign-in and open sessions."
        extra={
          mayManage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              Add Admin
            </Button>
          )
        }
      />
      <DataTable<ApiAdmin>
        table={table}
        exportCsv={{ path: 'account/admins', filename: 'administrators' }}
        // The access review's columns make it wider than a laptop's screen: it scrolls, its actions pinned.
        minWidth={1440}
        columns={adminColumns(act)}
        renderItem={(a) => <AdminItem a={a} {...act} />}
        emptyText="No administrators"
      />
      <ResetTwoFactorModal target={resetting} onClose={() => setResetting(null)} />
      {/* Refine refreshes the list after a save. */}
      <AddAdminDrawer open={adding} onClose={() => setAdding(false)} onDone={() => setAdding(false)} />
      <EditAdminDrawer admin={editing} meId={me} onClose={() => setEditing(null)} onDone={() => setEditing(null)} />
    </>
  );
}
