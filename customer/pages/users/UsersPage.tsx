import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Grid, List, Result, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { api } from '@shared/api/client';
import type { CompanyUserRow, Paged } from '@shared/contract';
import { formatPhone } from '@shared/phone';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { AddUserDrawer, DeleteUserModal, EditUserModal } from './UserDialogs';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';
import { ResultHeading } from '@shared/ui/ResultHeading';

const PAGE_SIZE = 25;
const stateColor = { Active: 'green', Invited: 'gold', Deactivated: 'red' } as const;

/** /portal/users: the company's users; only a Company-Admin manages them, never their own row. */
export default function UsersPage() {
  const session = useSession();
  const screens = Grid.useBreakpoint();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CompanyUserRow | null>(null);
  const [deleting, setDeleting] = useState<CompanyUserRow | null>(null);
  const companyId = session?.user.company_id;
  const isAdmin = session?.user.role === 'Company-Admin';

  const query = useQuery({
    queryKey: ['company-users', companyId, page],
    queryFn: () =>
      api<Paged<CompanyUserRow>>('GET', `/company/users/${companyId}`, { query: { page, per_page: PAGE_SIZE } }),
    enabled: !!companyId && isAdmin,
  });
  const reload = () => qc.invalidateQueries({ queryKey: ['company-users'] });

  if (!isAdmin) {
    return (
      <Result
        status="403"
        title={<ResultHeading>Users</ResultHeading>}
        subTitle="Only your company's admin can manage users."
      />
    );
  }
  const canManage = (row: CompanyUserRow) => isAdmin && row.id !== session?.user.id;
  const actions = (row: CompanyUserRow) =>
    canManage(row) ? (
      <Space>
        <Button size="small" icon={<EditOutlined />} aria-label={`Edit ${row.email}`} onClick={() => setEditing(row)} />
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={`Delete ${row.email}`}
          onClick={() => setDeleting(row)}
        />
      </Space>
    ) : null;

  const total = query.data?.total ?? 0;
  const pagination =
    total > PAGE_SIZE
      ? { current: page, pageSize: PAGE_SIZE, total, onChange: setPage, showSizeChanger: false }
      : false;

  return (
    <>
      <PageHeader
        title="Users"
        subtitle="List of all your current users. Update permission or delete user."
        extra={
          <>
            <ExportCsvButton path={`/company/users/${companyId}`} filename="users" />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              Add New User
            </Button>
          </>
        }
      />
      <Card styles={{ body: { padding: screens.md ? 0 : 12 } }}>
        {screens.md ? (
          <Table<CompanyUserRow>
            rowKey="id"
            loading={query.isLoading}
            dataSource={query.data?.data}
            pagination={pagination}
            locale={{ emptyText: 'No users yet' }}
            columns={[
              { title: 'First Name', dataIndex: 'first_name' },
              { title: 'Last Name', dataIndex: 'last_name' },
              { title: 'Email', dataIndex: 'email' },
              { title: 'Phone Number', dataIndex: 'phone_number', render: (v) => formatPhone(v) || '-' },
              { title: 'Role', dataIndex: 'role', render: (v) => (v === 'admin' ? 'Admin' : 'User') },
              {
                title: 'State',
                dataIndex: 'state',
                render: (v: CompanyUserRow['state']) => <Tag color={stateColor[v]}>{v}</Tag>,
              },
              { title: '', key: 'actions', align: 'right', render: (_, row) => actions(row) },
            ]}
          />
        ) : (
          <List<CompanyUserRow>
            loading={query.isLoading}
            dataSource={query.data?.data}
            pagination={pagination ? { ...pagination, size: 'small' } : false}
            locale={{ emptyText: 'No users yet' }}
            renderItem={(row) => (
              <List.Item extra={actions(row)}>
                <List.Item.Meta
                  title={`${row.first_name} ${row.last_name}`}
                  description={
                    <Flex vertical gap={2}>
                      <Typography.Text type="secondary">{row.email}</Typography.Text>
                      <span>
                        <Tag>{row.role === 'admin' ? 'Admin' : 'User'}</Tag>
                        <Tag color={stateColor[row.state]}>{row.state}</Tag>
                      </span>
                    </Flex>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      {companyId && (
        <>
          <AddUserDrawer
            open={adding}
            companyId={companyId}
            onClose={() => setAdding(false)}
            onDone={() => {
              setAdding(false);
              void reload();
            }}
          />
          <EditUserModal
            companyId={companyId}
            row={editing}
            onClose={() => setEditing(null)}
            onDone={() => {
              setEditing(null);
              void reload();
            }}
          />
          <DeleteUserModal
            companyId={companyId}
            row={deleting}
            onClose={() => setDeleting(null)}
            onDone={() => {
              setDeleting(null);
              void reload();
            }}
          />
        </>
      )}
    </>
  );
}
