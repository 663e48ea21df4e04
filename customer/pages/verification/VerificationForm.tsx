import { Button, Form, Row } from 'antd';
import type { ReactNode } from 'react';
import { useIsPhone } from '@shared/ui/wallet';
import { FileField, fileRules } from './FileField';
import { appendAll, useVerificationSubmit } from './useVerification';

type Sent = Record<string, string | boolean | File | undefined | null>;

/**
 * The frame the KYC and KYB forms share: their fields in a grid and Submit, sent as one multipart
 * form; what the server says of a field lands on it (`fields` are the names it may name).
 */
export function VerificationForm<V extends object>({
  path,
  fields,
  initialValues,
  toBody,
  children,
}: {
  path: string;
  fields: readonly string[];
  initialValues: Partial<V>;
  toBody(values: V): Sent;
  children: ReactNode;
}) {
  const phone = useIsPhone();
  const [form] = Form.useForm<V>();
  const { busy, send } = useVerificationSubmit(path, form, fields);
  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      onFinish={(v) => send(appendAll(new FormData(), toBody(v)))}
      initialValues={initialValues}
      disabled={busy}
      scrollToFirstError
    >
      <Row gutter={16}>{children}</Row>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={busy} size="large" block={phone}>
          Submit
        </Button>
      </Form.Item>
    </Form>
  );
}

/** A document of either form: required with the contract's message, or optional (`required` null). */
export function DocumentItem({
  name,
  label,
  extra,
  required,
}: {
  name: string;
  label: string;
  extra?: string;
  required: string | null;
}) {
  return (
    <Form.Item name={name} label={label} extra={extra} rules={fileRules(required)}>
      <FileField />
    </Form.Item>
  );
}
