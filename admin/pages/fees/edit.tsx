import { Alert, App, Button, Drawer, Form, Input, Switch } from 'antd';
import { useState } from 'react';
import { type ApiFee, feeValueProblem } from '@shared/contract';
import { usePanelForm } from '../../components/refineForms';
import { feeType } from './columns';
import { doneOrSent } from '../../components/approvals';

/** What PUT /fees/{id} takes: the row as it is, with the value and the state (1 or 0) as edited. */
type FeeValues = Pick<ApiFee, 'name' | 'type' | 'value' | 'for' | 'for_id' | 'for_name'> & { status: 0 | 1 };
type Company = { id: string; name: string | null };

/**
 * A fee's edit panel: only the value and the state change (name, type, for and company are
 * read-only). From a company's schedule (`company` given) the change is that company's own
 * fee: editing a default it inherits creates its override.
 */
export function FeeEditDrawer({ fee, company, onClose }: { fee: ApiFee | null; company?: Company; onClose(): void }) {
  return (
    <Drawer title="Edit Fee" open={!!fee} onClose={onClose} width={Math.min(460, window.innerWidth)} destroyOnHidden>
      {fee && <FeeEditForm key={fee.id} fee={fee} company={company} onDone={onClose} />}
    </Drawer>
  );
}

/** Mounted for each fee opened: Refine's form starts from that row. */
function FeeEditForm({ fee, company, onDone }: { fee: ApiFee; company?: Company; onDone(): void }) {
  const { message } = App.useApp();
  const [error, setError] = useState<string>();
  const { formProps, busy, submit } = usePanelForm<FeeValues>({
    action: 'edit',
    resource: 'fees',
    id: fee.id,
    // Said once, inside the drawer: a toast would cover the drawer's title.
    say: setError,
    fallback: 'The fee was not updated. Please try again.',
    onSaved: (_v, answer) => {
      message.success(doneOrSent(answer, `Fee ${fee.name} updated.`));
      onDone();
    },
  });
  const initialValues: FeeValues = {
    name: fee.name,
    type: fee.type,
    value: fee.value,
    for: company ? 'company' : fee.for,
    for_id: company ? company.id : fee.for_id,
    for_name: company ? (company.name ?? '') : fee.for_name,
    status: fee.state === 'Active' ? 1 : 0,
  };

  return (
    <>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form<FeeValues>
        noValidate
        {...formProps}
        initialValues={initialValues}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => {
          setError(undefined);
          submit({ ...initialValues, value: v.value.trim(), status: v.status });
        }}
      >
        <Form.Item name="name" label="Name">
          <Input readOnly variant="filled" />
        </Form.Item>
        {/* The read-only fields hold what is sent and show it in words. */}
        <Form.Item name="type" label="Type" getValueProps={(t: ApiFee['type']) => ({ value: feeType(t) })}>
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item
          name="value"
          label="Value"
          rules={[
            {
              // the server's own rule (format, and the range for the fee's type)
              validator: async (_, v: string | undefined) => {
                const problem = feeValueProblem(fee.type, v ?? '');
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <Input inputMode="decimal" suffix={fee.type === 'percentage' ? '%' : 'USD'} autoFocus />
        </Form.Item>
        <Form.Item
          name="for"
          label="For"
          getValueProps={(f: ApiFee['for']) => ({ value: f === 'company' ? 'Company' : 'Default' })}
        >
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item name="for_name" label="Company" getValueProps={(n: string | null) => ({ value: n ?? '—' })}>
          <Input readOnly variant="filled" />
        </Form.Item>
        <Form.Item
          name="status"
          label="State"
          getValueProps={(s: 0 | 1) => ({ checked: s === 1 })}
          normalize={(on: boolean) => (on ? 1 : 0)}
        >
          <Switch checkedChildren="Active" unCheckedChildren="Inactive" aria-label="State" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          Save
        </Button>
      </Form>
    </>
  );
}
