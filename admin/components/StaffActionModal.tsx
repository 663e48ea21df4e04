import { App, Form, type FormInstance, type FormProps, Modal } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { apiData } from '@shared/api/client';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { useSubmit } from '@shared/ui/useSubmit';
import { doneOrSent } from './approvals';

const FALLBACK = 'Something went wrong. Please try again.';

interface Props<S, V> {
  /** what the action is on; the dialog is open while there is one, and starts afresh for each */
  subject: S | null;
  form: FormInstance<V>;
  title: string;
  okText: string;
  /** the POST the action makes, from the subject and the form's values */
  call(subject: S, v: V): { path: string; body: object };
  onClose(): void;
  onDone(): void;
  formProps?: Omit<FormProps<V>, 'form' | 'onFinish'>;
  children(subject: S): ReactNode;
}

/**
 * A staff action in a dialog: one POST with its own Idempotency-Key, the server's message as a toast
 * when it is done, and a failure said on the form's fields (or as a toast when it names none).
 */
export function StaffActionModal<S, V>({
  subject,
  form,
  title,
  okText,
  call,
  onClose,
  onDone,
  formProps,
  children,
}: Props<S, V>) {
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();

  useEffect(() => {
    if (subject) form.resetFields();
  }, [subject, form]);

  async function send(v: V) {
    if (!subject) return;
    const { path, body } = call(subject, v);
    const r = await submit((key) =>
      apiData<{ message: string }>('POST', path, { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok) return sayFailure(form, r.error, (text) => message.error(text, 4), FALLBACK);
    message.success(doneOrSent(r.data, r.data.message), 3);
    onDone();
  }

  return (
    <Modal
      open={!!subject}
      title={title}
      okText={okText}
      okButtonProps={{ loading: busy }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {subject && (
        <Form<V>
          noValidate
          layout="vertical"
          requiredMark={false}
          onValuesChange={clearErrorsOnChange(form)}
          {...formProps}
          form={form}
          onFinish={send}
        >
          {children(subject)}
        </Form>
      )}
    </Modal>
  );
}
