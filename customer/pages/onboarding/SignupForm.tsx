import { Button, Form, Input, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { fromBase64 } from '@shared/base64';
import { splitFullName } from '@shared/contract';
import { emailRules } from '@shared/ui/forms';
import { fullNameRules, passwordRules } from './nameRules';
import { useRegistration } from './useRegistration';

/** What both sign-up forms ask: the person's name, email and password. */
export interface SignupValues {
  full_name: string;
  email: string;
  password: string;
}

interface Props<V extends SignupValues> {
  subtitle: string;
  /** the registration call: its path, the success screen's message, the error screen's fallback */
  register: [path: string, success: string, fallbackError: string];
  /** the form's own fields, between Email and Password */
  children: ReactNode;
  passwordExtra: string;
  /** the rest of the request body from the form's own fields */
  body(v: V): Record<string, unknown>;
}

/** An account sign-up form: the fields both forms share around each form's own; the email comes from {product}. */
export function SignupForm<V extends SignupValues>({ subtitle, register, children, passwordExtra, body }: Props<V>) {
  const [params] = useSearchParams();
  const email = fromBase64(params.get('product'));
  const registration = useRegistration(...register);
  const { loading } = registration;

  function submit(v: V) {
    void registration.register({
      ...splitFullName(v.full_name),
      email: v.email.trim(),
      password: v.password,
      confirm_password: v.password,
      ...body(v),
    });
  }

  return (
    <>
      <Typography.Title level={1} className="cw-form-title">
        Create your account
      </Typography.Title>
      <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>
      <Form<V>
        noValidate
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        initialValues={{ email } as Partial<V>}
      >
        <Form.Item name="full_name" label="Full Name" rules={fullNameRules}>
          <Input minLength={7} autoComplete="name" placeholder="First and last name" />
        </Form.Item>
        <Form.Item name="email" label="Email" rules={emailRules()}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        {children}
        <Form.Item name="password" label="Password" rules={passwordRules} extra={passwordExtra}>
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
