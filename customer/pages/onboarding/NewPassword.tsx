import { Alert, Button, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { apiData } from '@shared/api/client';
import { ApiError } from '@shared/api/errors';
import { toBase64 } from '@shared/base64';
import { PASSWORD_HINT, newPasswordBody } from '@shared/contract';
import { applyFieldErrors } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { ResultHeading } from '@shared/ui/ResultHeading';

/** /onboarding/new-password?token=…: the page the reset (or new staff account) mail links to. */
export default function NewPassword() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const token = params.get('token') ?? '';

  if (!token) {
    return (
      <Result
        status="warning"
        title={<ResultHeading>This link is incomplete</ResultHeading>}
        subTitle="Open the link from your email again, or request a new one from the login page."
      />
    );
  }

  async function submit(v: { password: string; confirm_password: string }) {
    setLoading(true);
    setError(undefined);
    try {
      const r = await apiData<{ email: string }>('POST', '/account/reset-password', {
        body: { token, ...v },
        silent: true,
      });
      navigate(`/login?product=${encodeURIComponent(toBase64(r.email))}`);
    } catch (e) {
      if (!applyFieldErrors(form, e) || (e instanceof ApiError && e.fieldError('token'))) {
        setError(e instanceof ApiError ? e.display : 'Could not set the password. Please try again.');
      }
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      <Typography.Title level={1} className="cw-form-title">
        Set a new password
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Choose a strong password you do not use anywhere else.
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          name="password"
          label="New Password"
          rules={[contractRule(newPasswordBody.shape.password)]}
          extra={PASSWORD_HINT}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          label="Confirm Password"
          dependencies={['password']}
          rules={[
            contractRule(newPasswordBody.shape.confirm_password),
            ({ getFieldValue }) => ({
              validator: async (_, v) => {
                if (v && v !== getFieldValue('password')) throw new Error('Passwords do not match');
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
          {loading ? 'Loading...' : 'Set Password'}
        </Button>
      </Form>
    </>
  );
}
