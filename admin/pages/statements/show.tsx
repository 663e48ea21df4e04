import { useTable } from '@refinedev/antd';
import { type HttpError, useCustom } from '@refinedev/core';
import { App, Button, Card, Descriptions, Form, Input, Modal, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { apiData } from '@shared/api/client';
import {
  type ApiStatement,
  type ApiStatementLine,
  STATEMENT_SOURCE_NAMES,
  type StatementLineStatus,
  resolveStatementLineBody,
} from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { useCan } from '../../components/Allowed';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { dateTime } from '../../format';
import { LineItem, STATUS_LABELS, lineColumns } from './columns';

const TABS: StatementLineStatus[] = ['missing_ours', 'missing_theirs', 'matched'];

/** The note that settles an unmatched item. */
function ResolveModal({
  statementId,
  line,
  onClose,
  onDone,
}: {
  statementId: string;
  line: ApiStatementLine | null;
  onClose(): void;
  onDone(): void;
}) {
  const [form] = Form.useForm<{ note: string }>();
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
  async function send(v: { note: string }) {
    if (!line) return;
    const r = await submit((key) =>
      apiData('POST', `/statements/${statementId}/lines/${line.id}/resolve`, {
        body: { note: v.note },
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (!r.ok)
      return sayFailure(
        form,
        r.error,
        (text) => message.error(text, 4),
        'The item was not resolved. Please try again.',
      );
    message.success('Resolved.');
    onDone();
  }
  return (
    <Modal
      open={!!line}
      title="Resolve item"
      okText="Resolve"
      okButtonProps={{ loading: busy }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {line && (
        <Form
          form={form}
          noValidate
          layout="vertical"
          requiredMark={false}
          onFinish={send}
          onValuesChange={clearErrorsOnChange(form)}
        >
          <Typography.Paragraph>
            {STATUS_LABELS[line.status]}: {line.amount} on {dateTime(line.at)}
            {line.reference ? `, ${line.reference}` : ''}.
          </Typography.Paragraph>
          <Form.Item name="note" label="Note" rules={[contractRule(resolveStatementLineBody.shape.note)]}>
            <Input.TextArea rows={3} maxLength={1000} placeholder="What happened, and what was done about it" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** /admin/statements/:id: a statement's result, by what needs looking at first; staff resolve each unmatched item with a note. */
export default function StatementShow() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const canResolve = useCan('reconciliation.run');
  const [tab, setTab] = useState<StatementLineStatus>('missing_ours');
  const [resolving, setResolving] = useState<ApiStatementLine | null>(null);
  const head = useCustom<ApiStatement>({ url: `/statements/${id}`, method: 'get' });
  // Refine's result holds an empty object until the first answer arrives.
  const got = head.result?.data as Partial<ApiStatement> | undefined;
  const s = got?.id ? (got as ApiStatement) : undefined;
  const table = useTable<ApiStatementLine, HttpError>({
    resource: 'statement-lines',
    meta: { path: `statements/${id}/lines` },
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { permanent: [{ field: 'status', operator: 'eq', value: tab }] },
    syncWithLocation: false,
  });
  const resolveCell = (l: ApiStatementLine) =>
    l.resolved ? (
      <Typography.Text>
        {l.resolved.note}
        <Typography.Text type="secondary">
          {' '}
          — {l.resolved.by ?? 'staff'}, {dateTime(l.resolved.at)}
        </Typography.Text>
      </Typography.Text>
    ) : l.status === 'matched' ? null : canResolve ? (
      <Button size="small" onClick={() => setResolving(l)}>
        Resolve
      </Button>
    ) : (
      <Typography.Text type="secondary">Open</Typography.Text>
    );
  const count = (t: StatementLineStatus) => s?.counts[t] ?? 0;

  return (
    <>
      <PageHeader
        title="Statement"
        subtitle={s ? `${STATEMENT_SOURCE_NAMES[s.source]}, ${s.start_date} to ${s.end_date}` : undefined}
        extra={<Button onClick={() => navigate('/admin/statements')}>All statements</Button>}
      />
      <Card loading={head.query.isLoading} style={{ marginBottom: 16 }}>
        {s && (
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, lg: 4 }}
            items={[
              { key: 'file', label: 'File', children: s.file_name },
              { key: 'lines', label: 'Lines', children: s.lines },
              { key: 'matched', label: 'Matched', children: s.counts.matched },
              { key: 'open', label: 'Still open', children: s.counts.open },
              { key: 'by', label: 'Uploaded by', children: s.uploaded_by ?? '—' },
              { key: 'at', label: 'Uploaded', children: dateTime(s.created_at) },
              {
                key: 'rules',
                label: 'Rules',
                children: `tolerance ${s.rules.tolerance}, window ${s.rules.window_hours} h, reference ${s.rules.reference}, one-to-many ${s.rules.one_to_many ? 'on' : 'off'}`,
              },
            ]}
          />
        )}
      </Card>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as StatementLineStatus)}
        items={TABS.map((t) => ({ key: t, label: `${STATUS_LABELS[t]} (${count(t)})` }))}
      />
      <DataTable<ApiStatementLine>
        table={table}
        columns={lineColumns(resolveCell)}
        renderItem={(l) => <LineItem l={l} resolveCell={resolveCell} />}
        emptyText={tab === 'matched' ? 'No line matched.' : 'Nothing here: every item matched.'}
        minWidth={1000}
      />
      <ResolveModal
        statementId={id}
        line={resolving}
        onClose={() => setResolving(null)}
        onDone={() => {
          setResolving(null);
          void table.tableQuery.refetch();
          void head.query.refetch();
        }}
      />
    </>
  );
}
