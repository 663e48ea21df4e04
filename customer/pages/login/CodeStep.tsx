import { Button, Form, Grid, Input, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { AuthenticatorKey } from '@shared/ui/AuthenticatorKey';
import { NOT_ARIA_REQUIRED } from '@shared/ui/forms';

export { RecoveryCodesList } from '@shared/ui/RecoveryCodesList';

interface Props {
  setup: boolean;
  qrcode?: string;
  secret?: string;
  /** the account being set up: the authenticator link's label */
  email?: string;
  loading: boolean;
  /** why the last code was not taken */
  error?: string;
  onEdit(): void;
  onSubmit(code: string): void;
  onBack(): void;
  /** verify only: log in with a recovery code instead */
  onRecover?(): void;
}

/** Mode 2 ('Authentication Code') and mode 3 ('Setup your 2FA') of the login screen. */
export function CodeStep({ setup, qrcode, secret, email, loading, error, onEdit, onSubmit, onBack, onRecover }: Props) {
  const [form] = Form.useForm<{ code: string }>();
  const phone = Grid.useBreakpoint().md === false;
  // A refused code is cleared for the next one; the QR and key stay as they are.
  useEffect(() => {
    if (error) form.setFieldsValue({ code: '' });
  }, [error, form]);
  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark={false}
      onValuesChange={() => error && onEdit()}
      onFinish={(v: { code: string }) => onSubmit(v.code)}
    >
      {setup ? (
        <>
          <Typography.Title level={2} style={{ fontSize: 20 }}>
            Setup your 2FA
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            Install an authenticator app (Google Authenticator, Microsoft Authenticator, Authy or 1Password) on your
            phone,{' '}
            {phone
              ? 'add this account to it with the button below (or type the key), then enter the six-digit code the app shows.'
              : 'scan this QR code with it, then enter the six-digit code the app shows.'}
          </Typography.Paragraph>
          {qrcode && secret ? (
            <AuthenticatorKey
              qrcode={qrcode}
              secret={secret}
              email={email ?? ''}
              alt="QR code for your authenticator app"
              testId="totp-secret"
            />
          ) : (
            <Typography.Paragraph type="danger">No QR code data available</Typography.Paragraph>
          )}
        </>
      ) : (
        <Typography.Title level={2} style={{ fontSize: 20 }}>
          Authentication Code
        </Typography.Title>
      )}
      <Form.Item
        name="code"
        required={NOT_ARIA_REQUIRED}
        label={setup ? 'Six-digit code' : 'Enter the six-digit code from your authenticator app'}
        validateStatus={error ? 'error' : undefined}
        help={error}
        rules={[
          { required: true, message: 'Authentication code is required' },
          { pattern: /^\d{6}$/, message: 'Enter the six digits' },
        ]}
      >
        <Input.OTP
          length={6}
          formatter={(s) => s.replace(/\D/g, '')}
          autoFocus
          aria-label={setup ? 'Six-digit code' : 'Enter the six-digit code from your authenticator app'}
        />
      </Form.Item>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
          {loading ? 'Loading...' : 'Confirm OTP'}
        </Button>
        {!setup && onRecover && (
          <Button type="link" block onClick={onRecover}>
            Use a recovery code
          </Button>
        )}
        <Button type="link" block onClick={onBack}>
          Use another account
        </Button>
      </Space>
    </Form>
  );
}

/** The second step with one of the recovery codes saved at 2FA setup, for a lost authenticator. */
export function RecoverStep({
  loading,
  error,
  onEdit,
  onSubmit,
  onBack,
}: Omit<Props, 'setup' | 'qrcode' | 'secret' | 'email' | 'onRecover'>) {
  const [form] = Form.useForm<{ recovery_code: string }>();
  useEffect(() => {
    if (error) form.setFieldsValue({ recovery_code: '' });
  }, [error, form]);
  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark={false}
      onValuesChange={() => error && onEdit()}
      onFinish={(v: { recovery_code: string }) => onSubmit(v.recovery_code)}
    >
      <Typography.Title level={2} style={{ fontSize: 20 }}>
        Use a recovery code
      </Typography.Title>
      <Form.Item
        name="recovery_code"
        label="Recovery code"
        extra="Each code works once. Letters and digits, like ABCDE-23456."
        validateStatus={error ? 'error' : undefined}
        help={error}
        rules={[
          { required: true, whitespace: true, message: 'Recovery code is required' },
          {
            pattern: /^\s*[A-Za-z2-9]{5}[\s-]?[A-Za-z2-9]{5}\s*$/,
            message: 'Enter the code as shown, like ABCDE-23456',
          },
        ]}
      >
        <Input autoFocus autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} size="large" />
      </Form.Item>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button type="primary" htmlType="submit" block size="large" loading={loading} disabled={loading}>
          {loading ? 'Loading...' : 'Log in'}
        </Button>
        <Button type="link" block onClick={onBack}>
          Use my authenticator app instead
        </Button>
      </Space>
    </Form>
  );
}
