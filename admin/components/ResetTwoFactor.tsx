import { App, Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { type CompanyUserRow, type Paged, resetTwoFactorBody } from '@shared/contract';
import { NOT_ARIA_REQUIRED, clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { useAction } from './refineForms';
import { doneOrSent } from './approvals';

/** Whose 2FA: one person (an Individual, a staff member), or one of a company's users, picked here. */
export type ResetTarget = { userId: string; name: string } | { companyId: string; name: string };

/**
 * Staff reset a user's two-factor authentication, with the reason the audit trail and the user's
 * mail will carry. The user's sessions end; their next login sets 2FA up again.
 */
export function ResetTwoFactorModal({ target, onClose }: { target: ResetTarget | null; onClose(): void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ user_id?: string; reason: string }>();
  const { busy, run } = useAction<{ message: string }>();
  const [members, setMembers] = useState<CompanyUserRow[]>();
  const companyId = target && 'companyId' in target ? target.companyId : null;

  useEffect(() => {
    form.resetFields();
    setMembers(undefined);
    if (!companyId) return;
    api<Paged<CompanyUserRow>>('GET', `/company/users/${encodeURIComponent(companyId)}?per_page=100`)
      .then((r) => setMembers(r.data.filter((u) => u.state !== 'Invited')))
      .catch((e: unknown) => message.error(messageOf(e, "Could not load the company's users.")));
  }, [companyId, form, message]);

  async function send(v: { user_id?: string; reason: string }) {
    if (!target) return;
    const userId = 'userId' in target ? target.userId : v.user_id!;
    const r = await run('post', `/account/reset-2fa/${encodeURIComponent(userId)}`, { reason: v.reason });
    if (r.ok) {
      message.success(doneOrSent(r.data.data, r.data.data.message), 4);
      onClose();
    } else {
      sayFailure(
        form,
        r.error,
        (text) => message.error(text),
        'Two-factor authentication was not reset. Please try again.',
      );
    }
  }

  return (
    <Modal
      open={!!target}
      title="Reset two-factor authentication"
      okText="Reset 2FA"
      okButtonProps={{ danger: true, loading: busy }}
      cancelText="Cancel"
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {target && (
        <Form
          noValidate
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={send}
          onValuesChange={clearErrorsOnChange(form)}
        >
          <p>
            {companyId ? `Choose the user of ${target.name} who lost access.` : `For ${target.name}.`} Their sessions
            end at once, their recovery codes stop working, and at their next login they scan a new QR code. They are
            told by mail. Do this only once you have checked who is asking.
          </p>
          {companyId && (
            <Form.Item
              name="user_id"
              label="User"
              required={NOT_ARIA_REQUIRED}
              rules={[{ required: true, message: 'User is required' }]}
            >
              <Select
                showSearch
                optionFilterProp="label"
                loading={!members}
                placeholder="Choose a user"
                options={(members ?? []).map((u) => ({
                  value: u.id,
                  label: `${u.first_name} ${u.last_name} (${u.email})`,
                }))}
              />
            </Form.Item>
          )}
          <Form.Item
            name="reason"
            label="Reason"
            extra="Recorded in the audit trail and sent to the user."
            rules={[contractRule(resetTwoFactorBody.shape.reason)]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
