import { UploadOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { App, Button, Card, Col, DatePicker, Form, Row, Select, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@shared/api/client';
import { type ApiStatement, STATEMENT_SOURCES, STATEMENT_SOURCE_NAMES, type StatementSource } from '@shared/contract';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { useCan } from '../../components/Allowed';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { dayPickerProps } from '../../format';
import { StatementItem, statementColumns } from './columns';

type UploadForm = { source: StatementSource; start_date?: string; end_date?: string; file?: unknown };

const SOURCE_OPTIONS = STATEMENT_SOURCES.map((s) => ({ value: s, label: STATEMENT_SOURCE_NAMES[s] }));

/**
 * /admin/statements: the outside parties' statements (card issuer, TronGrid, mobile money) matched
 * against the ledger. Finance uploads a CSV and opens its result; each source's columns are mapped
 * once, on the mappings screen.
 */
export default function StatementsList() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const canUpload = useCan('reconciliation.run');
  const [form] = Form.useForm<UploadForm>();
  const [file, setFile] = useState<UploadFile | null>(null);
  const { busy, submit } = useSubmit();
  const table = useTable<ApiStatement, HttpError>({
    resource: 'statements',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    syncWithLocation: false,
  });

  async function send(v: UploadForm) {
    const raw = file?.originFileObj;
    if (!raw) {
      form.setFields([{ name: 'file', errors: ['Choose a CSV file'] }]);
      return;
    }
    const body = new FormData();
    body.append('source', v.source);
    if (v.start_date) body.append('start_date', v.start_date);
    if (v.end_date) body.append('end_date', v.end_date);
    body.append('file', raw, raw.name);
    const r = await submit((key) =>
      api<{ data: ApiStatement & { existing: boolean } }>('POST', '/statements', {
        body,
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (!r.ok)
      return sayFailure(
        form,
        r.error,
        (text) => message.error(text, 6),
        'The statement was not uploaded. Please try again.',
      );
    const s = r.data.data;
    message.success(
      s.existing
        ? 'This file was uploaded before: here is its result.'
        : `Matched: ${s.counts.matched} of ${s.lines} lines; ${s.counts.open} to look at.`,
    );
    navigate(`/admin/statements/${s.id}`);
  }

  return (
    <>
      <PageHeader
        title="Statement Matching"
        subtitle="The card issuer's, the chain's and the mobile-money operator's statements against our ledger."
        extra={<Button onClick={() => navigate('/admin/statements/sources')}>Column mappings</Button>}
      />
      {canUpload && (
        <Card title="Upload a statement" style={{ marginBottom: 16 }}>
          <Form<UploadForm>
            form={form}
            noValidate
            layout="vertical"
            requiredMark={false}
            initialValues={{ source: 'chain' }}
            onValuesChange={clearErrorsOnChange(form)}
            onFinish={send}
            aria-label="Upload a statement"
          >
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name="source" label="Source">
                  <Select options={SOURCE_OPTIONS} />
                </Form.Item>
              </Col>
              <Col xs={12} md={4}>
                <Form.Item name="start_date" label="From (optional)" {...dayPickerProps}>
                  <DatePicker style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} md={4}>
                <Form.Item name="end_date" label="To (optional)" {...dayPickerProps}>
                  <DatePicker style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="file" label="CSV file" extra="Without dates, the period is the days the file covers.">
                  <Upload
                    accept=".csv,text/csv"
                    maxCount={1}
                    fileList={file ? [file] : []}
                    beforeUpload={() => false}
                    onChange={(i) => {
                      setFile(i.fileList.at(-1) ?? null);
                      form.setFields([{ name: 'file', errors: [] }]);
                    }}
                  >
                    <Button icon={<UploadOutlined />}>Choose file</Button>
                  </Upload>
                </Form.Item>
              </Col>
            </Row>
            <Button type="primary" htmlType="submit" loading={busy}>
              Upload and match
            </Button>
          </Form>
        </Card>
      )}
      <DataTable<ApiStatement>
        table={table}
        title="Statements"
        columns={statementColumns}
        renderItem={(s) => <StatementItem s={s} />}
        onOpen={(s) => navigate(`/admin/statements/${s.id}`)}
        rowLabel={(s) => `Statement of ${s.start_date} to ${s.end_date}`}
        emptyText="No statement uploaded yet."
        minWidth={860}
      />
    </>
  );
}
