import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { App, Button, Flex, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { ApiError, messageOf } from '@shared/api/errors';
import { decideBody } from '@shared/contract';
import { applyFieldErrors } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { useAction } from '../../components/refineForms';

/**
 * Approve and Disapprove of a pending submission (spec §4): each asks first; disapproving asks for
 * the reason the customer will read. The server's answer is shown and the details reload.
 */
export function DecisionButtons({
  id,
  name,
  term,
  onDecided,
}: {
  id: string;
  name: string;
  term: 'KYC' | 'KYB';
  onDecided(): void;
}) {
  const { message, modal } = App.useApp();
  const { busy, run } = useAction<{ message: string; state: string }>();
  const [rejecting, setRejecting] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();

  async function send(decision: 'approve' | 'reject', reason?: string) {
    const r = await run('post', '/verification/decide', {
      verification_id: id,
      decision,
      ...(reason ? { reason } : {}),
    });
    if (r.ok) {
      message.success(r.data.data.message);
      setRejecting(false);
      onDecided();
      return true;
    }
    if (decision === 'reject' && applyFieldErrors(form, r.error)) return false;
    message.error(messageOf(r.error, 'The decision was not saved. Please try again.'));
    // Decided by someone else meanwhile: show it as it now is.
    if (r.error instanceof ApiError && r.error.statusCode === 409) {
      setRejecting(false);
      onDecided();
    }
    return false;
  }

  const approve = () =>
    modal.confirm({
      title: `Approve ${term} Verification`,
      content: `Do you want to approve this ${term} Verification for ${name}?`,
      okText: 'Approve',
      cancelText: 'Cancel',
      onOk: () => send('approve'),
    });

  return (
    <>
      <Flex gap={8} wrap>
        <Button type="primary" icon={<CheckOutlined />} onClick={approve} loading={busy && !rejecting}>
          Approve
        </Button>
        <Button danger icon={<CloseOutlined />} onClick={() => setRejecting(true)}>
          Disapprove
        </Button>
      </Flex>
      <Modal
        open={rejecting}
        title={`Disapprove ${term} Verification`}
        okText="Disapprove"
        okButtonProps={{ danger: true, loading: busy }}
        cancelText="Cancel"
        onCancel={() => setRejecting(false)}
        onOk={() => form.submit()}
        afterClose={() => form.resetFields()}
        forceRender
      >
        <Typography.Paragraph>{`Do you want to disapprove this ${term} Verification for ${name}?`}</Typography.Paragraph>
        <Form
          noValidate
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => send('reject', v.reason.trim())}
        >
          <Form.Item
            name="reason"
            label="Reason"
            extra="The customer reads this reason and may submit again."
            rules={[
              { required: true, whitespace: true, message: 'A reason is required to reject a verification' },
              contractRule(decideBody.shape.reason),
            ]}
          >
            <Input.TextArea rows={3} maxLength={500} autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
