import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { UNCONFIRMED_NOTE_REQUIRED, approveTopupBody } from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { NOT_ARIA_REQUIRED } from '@shared/ui/forms';

/**
 * The last question before approving a Tron top-up the chain did not confirm: it says so and asks
 * why (the server refuses such an approval without a note, and keeps the note with the decision and
 * in the audit trail). Cancel leaves the decision form as it was.
 */
export function UnconfirmedApproval({
  open,
  note,
  busy,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  /** what staff already wrote in the drawer's note */
  note?: string;
  busy: boolean;
  onCancel(): void;
  onConfirm(note: string): void;
}) {
  const [form] = Form.useForm<{ note: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ note: note ?? '' });
  }, [open, note, form]);
  return (
    <Modal
      open={open}
      title="Approve a payment the chain did not confirm?"
      okText="Approve"
      cancelText="Cancel"
      okButtonProps={{ danger: true, loading: busy }}
      onCancel={onCancel}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        message="The chain did not confirm this payment."
        description="Approving credits the customer's wallet anyway. Check the hash on a Tron explorer first."
        style={{ marginBottom: 16 }}
      />
      {/* Its own ids: the drawer's form beside it has a 'note' field too. */}
      <Form
        noValidate
        name="unconfirmed-approval"
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => onConfirm(v.note.trim())}
      >
        <Form.Item
          required={NOT_ARIA_REQUIRED}
          name="note"
          label="Reason for approving"
          extra="Kept with the decision and in the audit trail."
          rules={[
            {
              validator: (_, v?: string) =>
                v?.trim() ? Promise.resolve() : Promise.reject(new Error(UNCONFIRMED_NOTE_REQUIRED)),
            },
            contractRule(approveTopupBody.shape.note),
          ]}
        >
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        The customer does not see this note.
      </Typography.Text>
    </Modal>
  );
}
