import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { confirmCode, homeFor, loginWithPassword, requestPasswordReset } from '../../../shared/api/auth';
import { ApiError } from '../../../shared/api/errors';
import { fromBase64 } from '../../../shared/base64';
import type { LoginChallenge } from '../../../shared/contract';
import { SplitLayout } from '../../layouts/SplitLayout';
import { goToError } from '../onboarding/messages';
import { CodeStep } from './CodeStep';

type Mode = 'password' | 'code' | 'setup';

const SUBTITLES: Record<Mode, string> = {
  password: 'Log in to your account with your email and password.',
  code: 'Enter the code from your authenticator app to continue.',
  setup: 'Protect your account with two-factor authentication.',
};

/** / and /login: password, then the 6-digit code (or the first-time 2FA setup). */
export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<{ email: string; password: string }>();
  const [mode, setMode] = useState<Mode>('password');
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  const [loading, setLoading] = useState(false);
  const [resetting, setResetting] = useState(false);
  const prefill = fromBase64(params.get('product')) || params.get('email') || '';

  const fail = (e: unknown) => goToError(navigate, e instanceof ApiError ? e.display : 'Error Logging In');

  async function submitPassword(v: { email: string; password: string }) {
    setLoading(true);
    try {
      const c = await loginWithPassword(v.email.trim(), v.password);
      setChallenge(c);
      setMode(c.qrcode ? 'setup' : 'code');
    } catch (e) {
      fail(e);
    } finally {
      setLoading(false);
    }
  }

  async function submitCode(code: string) {
    if (!challenge) return;
    setLoading(true);
    try {
      const session = await confirmCode(mode === 'setup' ? 'setup' : 'verify', challenge.token, code);
      navigate(homeFor(session.user.role), { replace: true });
    } catch (e) {
      fail(e);
    } finally {
      setLoading(false);
    }
  }

  async function reset() {
    try {
      const { email } = await form.validateFields(['email']);
      setResetting(true);
      const r = await requestPasswordReset(email.trim());
      if (r.code === 202) navigate('/onboarding/reset');
    } catch (e) {
      if (e instanceof ApiError || e instanceof Error) fail(e);
      // Otherwise the email field shows why it is not valid.
    } finally {
      setResetting(false);
    }
  }

  return (
    <SplitLayout panel="left">
      <Typography.Title level={2}>Welcome back</Typography.Title>
      <Typography.Paragraph type="secondary">{SUBTITLES[mode]}</Typography.Paragraph>
      {mode === 'password' && (
        <Form form={form} layout="vertical" requiredMark={false} onFinish={submitPassword} initialValues={{ email: prefill }}>
          <Form.Item
            name="email"
            label="Email"
            rules={[
              { required: true, message: 'Email is required' },
              { type: 'email', message: 'Enter a valid email address' },
            ]}
          >
            <Input type="email" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label="Password" rules={[{ required: true, message: 'Password is required' }]} style={{ marginBottom: 8 }}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Typography.Paragraph style={{ textAlign: 'right' }}>
            <Typography.Text type="secondary">Forgot Password? </Typography.Text>
            <Button type="link" size="small" style={{ padding: 0 }} onClick={reset} loading={resetting}>
              Reset
            </Button>
          </Typography.Paragraph>
          <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
            {loading ? 'Loading...' : 'Login'}
          </Button>
        </Form>
      )}
      {mode !== 'password' && (
        <CodeStep
          setup={mode === 'setup'}
          qrcode={challenge?.qrcode}
          secret={challenge?.secret}
          loading={loading}
          onSubmit={submitCode}
          onBack={() => {
            setMode('password');
            setChallenge(null);
          }}
        />
      )}
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        <Typography.Text type="secondary">Don't have an account? </Typography.Text>
        <Link to="/onboarding">Sign Up</Link>
      </Typography.Paragraph>
    </SplitLayout>
  );
}
