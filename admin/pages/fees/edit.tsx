import { useUpdate } from '@refinedev/core';
import { Alert, App, Button, Drawer, Form, Input, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { messageOf } from '@shared/api/errors';
import { type ApiFee, feeValueProblem } from '@shared/contract';
import { applyFieldErrors } from '@shared/ui/forms';
import { useSubmit } from '@shared/ui/useSubmit';
import { feeFor, feeType } from './columns';

type FeeForm = { name: string; type: string; for: string; for_name: string; value: string; active: boolean };

/**
 * A fee's edit panel: only the value and the state change (name, type, for and company are
 * read-only). From a company's schedule (`company` given) the change is that company's own
 * fee: editing a default it inherits creates its override.
 */
export function FeeEditDrawer({
  fee,
  company,
  onClose,
}: {
  fee: ApiFee | null;
  company?: { id: string; name: string | null };
  onClose(): void;
}) {
  const [form] = Form.useForm<FeeForm>();
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
  const { mutateAsync } = useUpdate<ApiFee>();
  const [error, setError] = useState<string>();
  const suffix = fee?.type === 'percentage' ? '%' : 'USD';

  useEffect(() => {
    if (!fee) return;
    setError(undefined);
    form.resetFields();
    form.setFieldsValue({
      name: fee.name,
      type: feeType(fee.type),
      for: company ? 'Company' : feeFor(fee),
      for_name: company ? (company.name ?? '') : (fee.for_name ?? '—'),
      value: fee.value,
      active: fee.state === 'Active',
    });
  }, [fee, company, form]);

  async function save(v: FeeForm) {
    if (!fee) return;
    setError(undefined);
    const values = {
      name: fee.name,
      type: fee.type,
      value: v.value.trim(),
      for: company ? 'company' : fee.for,
      for_id: company ? company.id : fee.for_id,
      for_name: company ? company.name : fee.for_name,
      status: v.active ? 1 : 0,
    };
    const r = await submit((key) =>
      mutateAsync({
        resource: 'fees',
        id: fee.id,
        values,
        meta: { idempotencyKey: key },
        successNotification: false,
        errorNotification: false,
      }),
    );
    if (r.ok) {
      message.success(`Fee ${fee.name} updated.`);
      onClose();
      return;
    }
    if (applyFieldErrors(form, r.error)) return;
    const text = messageOf(r.error, 'The fee was not updated. Please try again.');
    setError(text);
    message.error(text);
  }

  return (
    <Drawer title="Edit Fee" open={!!fee} onClose={onClose} width={Math.min(460, window.innerWidth)} destroyOnHidden>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={save}>
        <Form.Item name="name" label="Name">
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item name="type" label="Type">
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item
          name="value"
          label="Value"
          rules={[
            {
              // the server's own rule (format, and the range for the fee's type)
              validator: async (_, v: string | undefined) => {
                const problem = fee ? feeValueProblem(fee.type, v ?? '') : null;
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <Input inputMode="decimal" suffix={suffix} autoFocus />
        </Form.Item>
        <Form.Item name="for" label="For">
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item name="for_name" label="Company">
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item name="active" label="State" valuePropName="checked">
          <Switch checkedChildren="Active" unCheckedChildren="Inactive" aria-label="State" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          Save
        </Button>
      </Form>
    </Drawer>
  );
}
