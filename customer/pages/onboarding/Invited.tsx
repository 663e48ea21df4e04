import { Alert, Button, Form, Input, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '@shared/api/client';
import { ApiError } from '@shared/api/errors';
import { fromBase64, toBase64 } from '@shared/base64';
import { splitFullName } from '@shared/contract';
import { PhoneItem, phoneToString } from '@shared/ui/phone';
import { goToError } from './messages';
import { passwordRules } from './nameRules';

interface Identity {
  email?: string;
  phone?: string;
  fullname?: string;
  token?: string;
}

/** /onboarding/invited?identity=base64(JSON): an invited company user sets a password. */
export default function Invited() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [loading, setLoading] = useState(false);
  const identity = useMemo<Identity>(() => {
    try {
      return JSON.parse(fromBase64(params.get('identity'))) as Identity;
    } catch {
      return {};
    }
  }, [params]);

  async function submit(v: { full_name: string; email: string; phone_number: unknown; password: string }) {
    setLoading(true);
    try {
      await api('POST', '/account/accept-invite', {
        body: {
          ...splitFullName(v.full_name),
          password: v.password,
          token: identity.token ?? '',
          phone_number: phoneToString(v.phone_number as never),
        },
        silent: true,
      });
      navigate(`/login?product=${encodeURIComponent(toBase64(v.email.trim()))}`);
    } catch (e) {
      goToError(navigate, e instanceof ApiError ? e.display : 'Error signing up');
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      <Typography.Title level={1} className="cw-form-title">
        Create your account
      </Typography.Title>
      <Typography.Paragraph type="secondary">You have been invited to join</Typography.Paragraph>
      {!identity.token && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message="This invitation link is incomplete. Open the link from your invitation mail again."
        />
      )}
      <Form
        noValidate
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        initialValues={{
          full_name: identity.fullname ?? '',
          email: identity.email ?? '',
          phone_number: identity.phone ?? '',
        }}
      >
        <Form.Item
          name="full_name"
          label="Full Name"
          rules={[{ required: true, whitespace: true, message: 'Full Name is required' }]}
        >
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item name="email" label="Email" rules={[{ required: true, message: 'Email is required' }]}>
          <Input type="email" readOnly />
        </Form.Item>
        <PhoneItem of="person" />
        <Form.Item name="password" label="Password" rules={passwordRules}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
          {loading ? 'Loading...' : 'Proceed'}
        </Button>
      </Form>
    </>
  );
}
