import { Alert, Button, Form, Input } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { confirmCode, homeFor, loginWithPassword, recoverWithCode, requestPasswordReset } from '@shared/api/auth';
import { ApiError } from '@shared/api/errors';
import { fromBase64 } from '@shared/base64';
import type { LoginChallenge } from '@shared/contract';
import { LOGIN_EXPIRED } from '@shared/contract/login-messages';
import { emailRules } from '@shared/ui/forms';
import { SplitLayout } from '../../layouts/SplitLayout';
import { Muted, Paragraph, Title } from '@shared/ui/Type';
import { goToError } from '../onboarding/messages';

// The code step is loaded while the password is checked: the first screen does not carry it.
const loadCodeStep = () => import('./CodeStep');
const CodeStep = lazy(async () => ({ default: (await loadCodeStep()).CodeStep }));
const RecoverStep = lazy(async () => ({ default: (await loadCodeStep()).RecoverStep }));
const RecoveryCodesList = lazy(async () => ({ default: (await loadCodeStep()).RecoveryCodesList }));

/** codes: the recovery codes just issued at setup; recovered: logged in with a recovery code */
type Mode = 'password' | 'code' | 'setup' | 'recover' | 'codes' | 'recovered';

const SUBTITLES: Record<Mode, string> = {
  password: 'Log in to your account with your email and password.',
  code: 'Enter the code from your authenticator app to continue.',
  setup: 'Protect your account with two-factor authentication.',
  recover: 'Lost your phone? Enter one of the recovery codes you saved when you set up two-factor authentication.',
  codes:
    'Two-factor authentication is on. If you lose your phone, these recovery codes are the way back into your account. They are shown only this once.',
  recovered: 'You are logged in with a recovery code.',
};

/** / and /login: password, then the 6-digit code (or the first-time 2FA setup). */
export default function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<{ email: string; password: string }>();
  const [mode, setMode] = useState<Mode>('password');
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  /** the email the challenge is for */
  const [email, setEmail] = useState('');
  const [loading, setLoading] = useState(false);
  const [resetting, setResetting] = useState(false);
  /** why the code was not taken, shown under it */
  const [codeError, setCodeError] = useState<string>();
  /** why the person is back at the password step */
  const [notice, setNotice] = useState<string>();
  /** where to go once the recovery codes were saved or the recovery notice read */
  const [home, setHome] = useState<string>();
  const [issued, setIssued] = useState<{ codes: string[]; email: string }>();
  const [codesLeft, setCodesLeft] = useState<number>();
  const prefill = fromBase64(params.get('product')) || params.get('email') || '';

  const fail = (e: unknown) => goToError(navigate, e instanceof ApiError ? e.display : 'Error Logging In');

  async function submitPassword(v: { email: string; password: string }) {
    setLoading(true);
    setNotice(undefined);
    try {
      const [c] = await Promise.all([loginWithPassword(v.email.trim(), v.password), loadCodeStep()]);
      setChallenge(c);
      setEmail(v.email.trim());
      setCodeError(undefined);
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
      const session =
        mode === 'recover'
          ? await recoverWithCode(challenge.token, code)
          : await confirmCode(mode === 'setup' ? 'setup' : 'verify', challenge.token, code);
      if (session.recovery_codes?.length) {
        setIssued({ codes: session.recovery_codes, email: session.user.email });
        setHome(homeFor(session.user.role));
        setMode('codes');
      } else if (session.recovery_codes_left !== undefined) {
        setCodesLeft(session.recovery_codes_left);
        setHome(homeFor(session.user.role));
        setMode('recovered');
      } else {
        navigate(homeFor(session.user.role), { replace: true });
      }
    } catch (e) {
      if (e instanceof ApiError && e.error === LOGIN_EXPIRED) {
        // A new login shows the same QR and key again: the server keeps them until a code confirms them.
        setMode('password');
        setChallenge(null);
        setNotice(e.message);
      } else if (e instanceof ApiError && (e.statusCode === 401 || e.statusCode === 429)) {
        // A mistyped code (or too many): stay, so the QR already scanned stays in front of the person.
        setCodeError(e.display);
      } else {
        fail(e);
      }
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
      <Title level={1} style={{ fontSize: 30, lineHeight: 1.27 }}>
        Welcome back
      </Title>
      <Paragraph secondary>{SUBTITLES[mode]}</Paragraph>
      {mode === 'password' && notice && <Alert type="warning" showIcon message={notice} style={{ marginBottom: 16 }} />}
      {mode === 'password' && (
        <Form
          noValidate
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submitPassword}
          initialValues={{ email: prefill }}
        >
          <Form.Item name="email" label="Email" rules={emailRules()}>
            <Input type="email" autoComplete="username" />
          </Form.Item>
          <Form.Item
            name="password"
            label="Password"
            rules={[{ required: true, message: 'Password is required' }]}
            style={{ marginBottom: 8 }}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Paragraph style={{ textAlign: 'right' }}>
            <Muted>Forgot Password? </Muted>
            <Button type="link" size="small" style={{ padding: 0 }} onClick={reset} loading={resetting}>
              Reset
            </Button>
          </Paragraph>
          <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
            {loading ? 'Loading...' : 'Login'}
          </Button>
        </Form>
      )}
      {mode === 'codes' && issued && (
        <Suspense>
          <Title level={2} style={{ fontSize: 20, lineHeight: 1.4 }}>
            Save your recovery codes
          </Title>
          <RecoveryCodesList
            codes={issued.codes}
            email={issued.email}
            onDone={() => navigate(home!, { replace: true })}
          />
        </Suspense>
      )}
      {mode === 'recovered' && (
        <>
          <Alert
            type={codesLeft && codesLeft > 2 ? 'info' : 'warning'}
            showIcon
            style={{ marginBottom: 16 }}
            message={`That code is now used up. You have ${codesLeft} recovery ${codesLeft === 1 ? 'code' : 'codes'} left.`}
            description="If you lost your authenticator app, set up a new one now: open your Profile, then Security. You can also make new recovery codes there."
          />
          <Button type="primary" block size="large" onClick={() => navigate(home!, { replace: true })}>
            Continue
          </Button>
        </>
      )}
      {mode === 'recover' && (
        <Suspense>
          <RecoverStep
            loading={loading}
            error={codeError}
            onEdit={() => setCodeError(undefined)}
            onSubmit={submitCode}
            onBack={() => {
              setCodeError(undefined);
              setMode('code');
            }}
          />
        </Suspense>
      )}
      {(mode === 'code' || mode === 'setup') && (
        <Suspense>
          <CodeStep
            setup={mode === 'setup'}
            qrcode={challenge?.qrcode}
            secret={challenge?.secret}
            email={email}
            loading={loading}
            error={codeError}
            onEdit={() => setCodeError(undefined)}
            onSubmit={submitCode}
            onBack={() => {
              setMode('password');
              setChallenge(null);
            }}
            onRecover={() => {
              setCodeError(undefined);
              setMode('recover');
            }}
          />
        </Suspense>
      )}
      {mode !== 'codes' && mode !== 'recovered' && (
        <Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
          <Muted>Don't have an account? </Muted>
          <Link to="/onboarding">Sign Up</Link>
        </Paragraph>
      )}
    </SplitLayout>
  );
}
