import { Button, Form, Input, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { fromBase64 } from '@shared/base64';
import { splitFullName } from '@shared/contract';
import { PhoneField, phoneRules, phoneToString } from '@shared/ui/phone';
import { fullNameRules, passwordRules } from './nameRules';
import { useRegistration } from './useRegistration';

interface Values {
  full_name: string;
  email: string;
  phone_number: unknown;
  password: string;
}

/** /onboarding/signup: the individual's form; the email comes from {product}. */
export default function IndividualSignup() {
  const [params] = useSearchParams();
  const email = fromBase64(params.get('product'));
  const { loading, register } = useRegistration(
    '/account/individuals/register',
    'Email Verification Sent.',
    'Error signing up',
  );

  function submit(v: Values) {
    const phone = phoneToString(v.phone_number as never);
    void register({
      ...splitFullName(v.full_name),
      email: v.email.trim(),
      password: v.password,
      confirm_password: v.password,
      phone_number: phone,
    });
  }

  return (
    <>
      <Typography.Title level={2}>Create your account</Typography.Title>
      <Typography.Paragraph type="secondary">
        Sign up as an individual to get your own wallet and cards.
      </Typography.Paragraph>
      <Form<Values> noValidate layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ email }}>
        <Form.Item name="full_name" label="Full Name" rules={fullNameRules}>
          <Input minLength={7} autoComplete="name" placeholder="First and last name" />
        </Form.Item>
        <Form.Item
          name="email"
          label="Email"
          rules={[
            { required: true, message: 'Email is required' },
            { type: 'email', message: 'Enter a valid email address' },
          ]}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          name="phone_number"
          label="Phone Number"
          rules={phoneRules('Phone Number is required', 'Valid Phone Number is required', 10)}
        >
          <PhoneField />
        </Form.Item>
        <Form.Item name="password" label="Password" rules={passwordRules} extra="Minimum 8 characters">
          <Input.Password minLength={8} autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
          {loading ? 'Loading...' : 'Create Account'}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        <Link to="/login">Already have an account? Sign in</Link>
      </Typography.Paragraph>
    </>
  );
}
