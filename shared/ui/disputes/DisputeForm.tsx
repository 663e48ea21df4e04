import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Select, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { apiData } from '../../api/client';
import type { ApiCardTransaction, ApiDisputeDetail } from '../../contract';
import { DISPUTE_REASON_NAMES } from '../../vocabulary';
import { NOT_ARIA_REQUIRED, clearErrorsOnChange, sayFailure } from '../forms';
import { useSubmit } from '../useSubmit';
import { amountRule } from '../wallet/format';

const REASONS = Object.entries(DISPUTE_REASON_NAMES).map(([value, label]) => ({ value, label }));
const MAX_FILES = 5;
const ACCEPT = '.jpg,.jpeg,.png,.pdf';

interface Values {
  reason?: string;
  amount?: string;
  explanation?: string;
}

/**
 * "Dispute this payment": reason, amount (the payment's by default), what happened, and up to five
 * receipts or photos. Sent as multipart with the files in `evidence`; the server's refusals land
 * on their fields.
 */
export function DisputeForm({
  tx,
  open,
  onClose,
  onDone,
}: {
  tx: ApiCardTransaction;
  open: boolean;
  onClose(): void;
  onDone(d: ApiDisputeDetail): void;
}) {
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [fileError, setFileError] = useState<string>();
  const { busy, submit } = useSubmit();
  const { message } = App.useApp();

  async function send(v: Values) {
    const body = new FormData();
    body.append('reason', v.reason ?? '');
    body.append('amount', String(v.amount ?? '').replace(/,/g, ''));
    body.append('explanation', v.explanation ?? '');
    for (const f of files) if (f.originFileObj) body.append('evidence', f.originFileObj, f.name);
    const r = await submit((key) =>
      apiData<ApiDisputeDetail>('POST', `/card-transactions/${tx.id}/disputes`, {
        body,
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (r.ok) {
      form.resetFields();
      setFiles([]);
      onDone(r.data);
      return;
    }
    const evidence = (r.error as { errors?: Record<string, string[]> }).errors?.evidence?.[0];
    if (evidence) setFileError(evidence);
    sayFailure(form, r.error, (t) => message.error(t), 'The dispute could not be sent.');
  }

  return (
    <Modal
      title="Dispute this payment"
      open={open}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="c" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="s" type="primary" loading={busy} onClick={() => form.submit()}>
          Send dispute
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">
        Tell us what went wrong with this payment at {tx.merchant}. We review it and send it to the card issuer, who
        decides. You can follow it under Card Disputes.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ amount: tx.amount }}
        onFinish={send}
        onValuesChange={clearErrorsOnChange(form)}
        requiredMark
      >
        <Form.Item
          name="reason"
          label="Reason"
          required={NOT_ARIA_REQUIRED}
          rules={[{ required: true, message: 'Choose a reason' }]}
        >
          <Select placeholder="Choose a reason" options={REASONS} />
        </Form.Item>
        <Form.Item name="amount" label="Amount (USD)" rules={[amountRule()]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item
          name="explanation"
          label="What happened"
          rules={[
            { required: true, whitespace: true, message: 'Explain what happened' },
            { max: 2000, message: 'Must be at most 2000 characters' },
          ]}
        >
          <Input.TextArea rows={4} maxLength={2000} showCount />
        </Form.Item>
        <Form.Item
          label="Receipts or photos (optional)"
          validateStatus={fileError ? 'error' : undefined}
          help={fileError ?? `JPEG, PNG or PDF, up to 5 MB each, at most ${MAX_FILES} files.`}
        >
          <Upload
            accept={ACCEPT}
            multiple
            maxCount={MAX_FILES}
            fileList={files}
            beforeUpload={() => false}
            onChange={({ fileList }) => {
              setFileError(undefined);
              setFiles(fileList.slice(0, MAX_FILES));
            }}
          >
            <Button icon={<UploadOutlined />}>Add files</Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
