import { App, Button, Form, Input } from 'antd';
import { apiData } from '../api/client';
import { emailRules, sayFailure } from './forms';
import { useSubmit } from './useSubmit';

interface Values {
  name: string;
  email: string;
  subject: string;
  message: string;
}

/** 'Send us a message': the Help Desk and the public Contact page. The toast says what really happened. */
export function ContactForm({ initial }: { initial?: Partial<Values> }) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const { busy: sending, submit: run } = useSubmit();

  async function submit(values: Values) {
    const r = await run((key) =>
      apiData<{ message: string }>('POST', '/account/helpdesk', { body: values, silent: true, idempotencyKey: key }),
    );
    if (r.ok) {
      message.success(r.data.message, 2);
      form.resetFields(['subject', 'message']);
    } else {
      sayFailure(form, r.error, (text) => message.error(text), 'Your message could not be sent. Please try again.');
    }
  }

  return (
    <Form noValidate form={form} layout="vertical" initialValues={initial} onFinish={submit} requiredMark={false}>
      <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: 'Name is required' }]}>
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item name="email" label="Email" rules={emailRules()}>
        <Input type="email" autoComplete="email" />
      </Form.Item>
      <Form.Item
        name="subject"
        label="Subject"
        rules={[{ required: true, whitespace: true, message: 'Subject is required' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="message"
        label="Message"
        rules={[{ required: true, whitespace: true, message: 'Message is required' }]}
      >
        <Input.TextArea rows={5} maxLength={5000} showCount />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={sending} disabled={sending}>
        {sending ? 'Loading...' : 'Send Message'}
      </Button>
    </Form>
  );
}
