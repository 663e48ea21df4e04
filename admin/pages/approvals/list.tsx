import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { APPROVAL_STATES, type ApiApproval, type ApprovalState, rejectApprovalBody } from '@shared/contract';
import { messageOf } from '@shared/api/errors';
import { contractRule } from '@shared/ui/contractRules';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { FilterBar, searchFilters } from '../../components/FilterBar';
import { useAction } from '../../components/refineForms';
import { type ApprovalActions, ApprovalItem, STATE_NAMES, approvalColumns } from './columns';

type Search = { state?: ApprovalState };

/** What an approved action answered: its own message when it has one. */
function doneText(body: unknown): string {
  const data = (body as { data?: unknown } | null)?.data;
  if (typeof data === 'string') return data;
  const message = (data as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : 'Approved and done.';
}

/**
 * /admin/approvals: staff requests an approval policy held back (issue 33). Pending ones first;
 * another person than the one who asked approves (the request is performed once, as asked) or
 * rejects it with a reason.
 */
export default function ApprovalsList() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const session = useSession();
  const meId = session?.user.id;
  const [rejecting, setRejecting] = useState<ApiApproval | null>(null);
  const [busyId, setBusyId] = useState<string>();
  const [form] = Form.useForm<{ reason: string }>();
  const { busy, run } = useAction();
  const table = useTable<ApiApproval, HttpError, Search>({
    resource: 'approvals',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { initial: [{ field: 'state', operator: 'eq', value: 'pending' }], defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v),
  });
  const refresh = async () => {
    await Promise.all([table.tableQuery.refetch(), qc.invalidateQueries({ queryKey: ['admin', 'attention'] })]);
  };
  const actions: ApprovalActions = {
    meId,
    role: session?.user.role,
    busyId,
    approve: async (a) => {
      setBusyId(a.id);
      const r = await run('post', `/approvals/${encodeURIComponent(a.id)}/approve`, {});
      setBusyId(undefined);
      if (r.ok) message.success(doneText(r.data), 4);
      else message.error(messageOf(r.error, 'The request was not approved. Please try again.'), 5);
      await refresh();
    },
    reject: (a) => {
      form.resetFields();
      setRejecting(a);
    },
  };
  async function sendReject(v: { reason: string }) {
    if (!rejecting) return;
    const r = await run('post', `/approvals/${encodeURIComponent(rejecting.id)}/reject`, { reason: v.reason });
    if (!r.ok) return message.error(messageOf(r.error, 'The request was not rejected. Please try again.'), 5);
    message.success('Rejected: nothing was done, and the person who asked was told why.', 4);
    setRejecting(null);
    await refresh();
  }
  return (
    <>
      <PageHeader
        title="Approvals"
        subtitle="Requests that need a second person. Approving performs the request once, as it was asked; a request expires after 24 hours."
      />
      <FilterBar formProps={table.searchFormProps} query={table.tableQuery}>
        <Form.Item name="state" label="State">
          <Select
            allowClear
            placeholder="Any state"
            style={{ minWidth: 150 }}
            options={APPROVAL_STATES.map((s) => ({ value: s, label: STATE_NAMES[s] }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<ApiApproval>
        table={table}
        columns={approvalColumns(actions)}
        renderItem={(a) => <ApprovalItem a={a} actions={actions} />}
        emptyText="No requests match this filter"
        minWidth={900}
      />
      <Modal
        open={!!rejecting}
        title="Reject request"
        okText="Reject"
        okButtonProps={{ danger: true, loading: busy }}
        onOk={() => form.submit()}
        onCancel={() => setRejecting(null)}
        destroyOnHidden
      >
        {rejecting && (
          <Form form={form} layout="vertical" requiredMark={false} noValidate onFinish={sendReject}>
            <p>
              <strong>{rejecting.summary}</strong>, asked by {rejecting.initiator.email}.
            </p>
            <Form.Item name="reason" label="Reason" rules={[contractRule(rejectApprovalBody.shape.reason)]}>
              <Input.TextArea rows={3} maxLength={500} />
            </Form.Item>
          </Form>
        )}
      </Modal>
    </>
  );
}
