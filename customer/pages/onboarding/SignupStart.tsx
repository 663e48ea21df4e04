import { Button, Form, Input, Select, Typography } from 'antd';
import { Link, useNavigate } from 'react-router';
import { toBase64 } from '@shared/base64';
import { NOT_ARIA_REQUIRED, emailRules } from '@shared/ui/forms';

interface Values {
  email: string;
  type?: 'individual' | 'company';
}

/** /onboarding: the first step, which sends the email on to the form for the chosen account type. */
export default function SignupStart() {
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();

  function next(v: Values) {
    const product = encodeURIComponent(toBase64(v.email.trim()));
    if (v.type === 'individual') navigate(`/onboarding/signup?product=${product}`);
    else if (v.type === 'company') navigate(`/onboarding/company?product=${product}`);
  }

  return (
    <>
      <Typography.Title level={1} className="cw-form-title">
        Create your account
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Welcome! Fund a USDT wallet and spend it anywhere with virtual cards. Let's get you started.
      </Typography.Paragraph>
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={next}>
        <Form.Item name="email" label="Email" rules={emailRules()}>
          <Input type="email" autoComplete="email" placeholder="you@example.com" />
        </Form.Item>
        <Form.Item
          name="type"
          label="Account Type"
          required={NOT_ARIA_REQUIRED}
          rules={[{ required: true, message: 'Account type is required' }]}
        >
          <Select
            placeholder="Select Account Type"
            options={[
              { value: 'individual', label: 'Individual' },
              { value: 'company', label: 'Company' },
            ]}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large">
          Next
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        <Link to="/login">Already have an account? Sign in</Link>
      </Typography.Paragraph>
    </>
  );
}
