import { Button, Result, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fromBase64 } from '@shared/base64';
import { readMessage } from './messages';
import { ResultHeading } from '@shared/ui/ResultHeading';

/** /onboarding/error: the stored message (or one the server put in the link). */
export function OnboardingError() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const message = params.get('message') || readMessage() || 'Error creating account';
  return (
    <Result
      status="error"
      title={<ResultHeading>{message}</ResultHeading>}
      subTitle="Try again"
      extra={
        <Button type="primary" onClick={() => navigate(-1)}>
          Proceed
        </Button>
      }
    />
  );
}

/** /onboarding/success: the account waits for its email to be verified. */
export function OnboardingSuccess() {
  const stored = readMessage();
  return (
    <Result
      status="success"
      title={<ResultHeading>Email Verification</ResultHeading>}
      subTitle={
        <>
          <Typography.Paragraph>
            Your account creation is in progress pending email verification. Open the link we sent to your email to
            finish.
          </Typography.Paragraph>
          {stored && <Typography.Text strong>{stored}</Typography.Text>}
        </>
      }
      extra={<Link to="/">Back to Home</Link>}
    />
  );
}

/** /onboarding/email-verified?identity=base64(email) */
export function EmailVerified() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = fromBase64(params.get('identity'));
  // The link opened a second time (people and mail scanners click twice): nothing is wrong, log in.
  const already = params.get('already') === '1';
  const toLogin = () => navigate(`/login?email=${encodeURIComponent(email)}`);
  return (
    <Result
      status="success"
      title={
        <ResultHeading>
          {already
            ? 'Your email is already verified'
            : 'Your email has been verified and your Account created successfully'}
        </ResultHeading>
      }
      subTitle={
        already ? `${email ? `${email}: ` : ''}this link was used before. Log in to continue.` : email || undefined
      }
      extra={
        <Button type="primary" onClick={toLogin}>
          {already ? 'Log in' : 'Proceed to Dashboard'}
        </Button>
      }
    />
  );
}

/** /onboarding/reset: after a reset request was accepted. */
export function ResetConfirmation() {
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={<ResultHeading>Password Reset Confirmation</ResultHeading>}
      subTitle={
        <>
          <Typography.Paragraph>Your account password reset process has been completed</Typography.Paragraph>
          <Typography.Paragraph>Kindly check your associated email address and continue!</Typography.Paragraph>
        </>
      }
      extra={
        <Button type="primary" onClick={() => navigate('/login')}>
          Proceed to Login
        </Button>
      }
    />
  );
}
