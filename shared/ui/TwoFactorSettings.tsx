import { Alert, App, Button, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { apiData } from '../api/client';
import { AuthenticatorKey } from './AuthenticatorKey';
import { enrolConfirmBody, secondFactorCheckBody } from '../contract';
import { clearErrorsOnChange, sayFailure } from './forms';
import { contractRule } from './contractRules';
import { RecoveryCodesList } from './RecoveryCodesList';
import { useSubmit } from './useSubmit';

type Step =
  | { at: 'menu' }
  | { at: 'check'; action: 'codes' | 'enrol' }
  | { at: 'codes'; codes: string[] }
  | { at: 'scan'; qrcode: string; secret: string };

// The check takes a password and a code or a recovery code: each is required where the form asks for it.
const { password, code, recovery_code } = secondFactorCheckBody.shape;

/** Profile → Security: new recovery codes, or moving 2FA to a new authenticator app. */
export function TwoFactorSettings({ email }: { email: string }) {
  const { message } = App.useApp();
  const [step, setStep] = useState<Step>({ at: 'menu' });
  const { busy, submit } = useSubmit();
  const [form] = Form.useForm();
  /** unused recovery codes, once known */
  const [left, setLeft] = useState<number>();
  /** the phone is lost: a recovery code stands in for the authenticator's code */
  const [withRecovery, setWithRecovery] = useState(false);

  useEffect(() => {
    if (step.at !== 'menu') return;
    apiData<{ recovery_codes_left: number }>('GET', '/account/two-factor', { silent: true })
      .then((r) => setLeft(r.recovery_codes_left))
      .catch(() => setLeft(undefined));
  }, [step.at]);

  async function run<T>(call: (key: string) => Promise<T>): Promise<T | undefined> {
    const r = await submit(call);
    if (r.ok) return r.data;
    sayFailure(form, r.error, (text) => message.error(text), 'Something went wrong. Please try again.');
    return undefined;
  }

  async function check(action: 'codes' | 'enrol', v: { password: string; code?: string; recovery_code?: string }) {
    if (action === 'codes') {
      const r = await run(() =>
        apiData<{ recovery_codes: string[] }>('POST', '/account/recovery-codes', { body: v, silent: true }),
      );
      if (r) setStep({ at: 'codes', codes: r.recovery_codes });
    } else {
      const r = await run(() =>
        apiData<{ qrcode: string; secret: string }>('POST', '/account/two-factor/enrol', { body: v, silent: true }),
      );
      if (r) setStep({ at: 'scan', ...r });
    }
  }

  async function confirm(v: { code: string }) {
    const r = await run(() =>
      apiData<{ message: string }>('POST', '/account/two-factor/enrol-confirm', { body: v, silent: true }),
    );
    if (r) {
      message.success(r.message, 4);
      form.resetFields();
      // The new app is at hand now: the next check asks for its code, not a recovery code.
      setWithRecovery(false);
      setStep({ at: 'menu' });
    }
  }

  const back = () => {
    form.resetFields();
    setWithRecovery(false);
    setStep({ at: 'menu' });
  };

  if (step.at === 'codes') {
    return (
      <div>
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 16 }}
          message="Your new recovery codes. The old ones no longer work."
        />
        <RecoveryCodesList codes={step.codes} email={email} onDone={back} doneLabel="Done" />
      </div>
    );
  }
  if (step.at === 'scan') {
    return (
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={confirm}
        onValuesChange={clearErrorsOnChange(form)}
      >
        <h3 style={{ fontSize: 16, marginTop: 0 }}>Add your account to the new authenticator app</h3>
        <AuthenticatorKey
          qrcode={step.qrcode}
          secret={step.secret}
          email={email}
          alt="QR code for your new authenticator app"
          testId="new-totp-secret"
        />
        <Form.Item
          name="code"
          label="Six-digit code from the new app"
          rules={[contractRule(enrolConfirmBody.shape.code)]}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={busy}>
            Confirm new authenticator
          </Button>
          <Button onClick={back}>Cancel</Button>
        </Space>
      </Form>
    );
  }
  if (step.at === 'check') {
    const action = step.action;
    return (
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v: { password: string; code?: string; recovery_code?: string }) => check(action, v)}
        preserve={false}
        onValuesChange={clearErrorsOnChange(form)}
      >
        <h3 style={{ fontSize: 16, marginTop: 0 }}>
          {action === 'codes' ? 'Make new recovery codes' : 'Set up a new authenticator app'}
        </h3>
        <p>
          {action === 'codes'
            ? 'Confirm it is you. Your current recovery codes stop working once the new ones are made.'
            : withRecovery
              ? 'Confirm it is you with your password and one of your recovery codes.'
              : 'Confirm it is you with your password and a code from your current authenticator app. The current app keeps working until the new one is confirmed.'}
        </p>
        <Form.Item name="password" label="Password" rules={[contractRule(password.unwrap())]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        {withRecovery ? (
          <Form.Item
            name="recovery_code"
            label="Recovery code"
            extra="The code is used up, like at a login."
            rules={[contractRule(recovery_code.unwrap())]}
          >
            <Input autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} />
          </Form.Item>
        ) : (
          <Form.Item
            name="code"
            label="Six-digit code from your authenticator app"
            rules={[contractRule(code.unwrap())]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
        )}
        <p>
          <Button type="link" style={{ padding: 0 }} onClick={() => setWithRecovery((w) => !w)}>
            {withRecovery ? 'Use my authenticator app instead' : 'Lost your phone? Use a recovery code instead'}
          </Button>
        </p>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={busy}>
            Continue
          </Button>
          <Button onClick={back}>Cancel</Button>
        </Space>
      </Form>
    );
  }
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Alert type="success" showIcon message="Two-factor authentication is on." />
      <section>
        <h3 style={{ fontSize: 16, marginTop: 0 }}>Recovery codes</h3>
        <p>
          If you lose your phone, a recovery code lets you log in. Each code works once. Make a new set if yours are
          used up or may have been seen.
        </p>
        {left !== undefined && (
          <Alert
            style={{ marginBottom: 12 }}
            type={left === 0 ? 'error' : left <= 3 ? 'warning' : 'info'}
            showIcon
            message={
              left === 0
                ? 'You have no unused recovery codes. Make a new set now.'
                : `You have ${left} unused recovery ${left === 1 ? 'code' : 'codes'}.`
            }
          />
        )}
        <Button onClick={() => setStep({ at: 'check', action: 'codes' })}>Make new recovery codes</Button>
      </section>
      <section>
        <h3 style={{ fontSize: 16, marginTop: 0 }}>Authenticator app</h3>
        <p>Moving to a new phone? Set up the new app here; every other session is signed out once it is confirmed.</p>
        <Button onClick={() => setStep({ at: 'check', action: 'enrol' })}>Set up a new authenticator app</Button>
      </section>
    </Space>
  );
}
