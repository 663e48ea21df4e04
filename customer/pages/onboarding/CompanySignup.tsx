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
  company_phone: unknown;
  company_name: string;
  company_email: string;
  company_website: string;
  password: string;
}

/** /onboarding/company: the company account holder's form. */
export default function CompanySignup() {
  const [params] = useSearchParams();
  const email = fromBase64(params.get('product'));
  const { loading, register } = useRegistration(
    '/account/companies/register',
    'Verification mail sent to personal email address',
    'Error signing up as company',
  );

  function submit(v: Values) {
    void register({
      ...splitFullName(v.full_name),
      email: v.email.trim(),
      password: v.password,
      confirm_password: v.password,
      company_name: v.company_name.trim(),
      company_website: v.company_website.trim(),
      company_email: v.company_email.trim(),
      company_phone: phoneToString(v.company_phone as never),
    });
  }

  return (
    <>
      <Typography.Title level={2}>Create your account</Typography.Title>
      <Typography.Paragraph type="secondary">Sign up your company: you will be its account admin.</Typography.Paragraph>
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
          name="company_phone"
          label="Company Phone"
          rules={phoneRules('Company Phone Number is required', 'Valid Company Phone Number is required', 12)}
        >
          <PhoneField />
        </Form.Item>
        <Form.Item
          name="company_name"
          label="Company Name"
          rules={[{ required: true, whitespace: true, message: 'Company Name is required' }]}
        >
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item
          name="company_email"
          label="Company Email"
          rules={[
            { required: true, message: 'Company Email is required' },
            { type: 'email', message: 'Enter a valid email address' },
          ]}
        >
          <Input type="email" />
        </Form.Item>
        <Form.Item
          name="company_website"
          label="Company Website"
          rules={[{ required: true, whitespace: true, message: 'Company Website is required' }]}
        >
          <Input placeholder={window.location.host} />
        </Form.Item>
        <Form.Item
          name="password"
          label="Password"
          rules={passwordRules}
          extra="Minimum 8 characters. Use a strong password: mix upper and lower case letters, digits and symbols."
        >
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
