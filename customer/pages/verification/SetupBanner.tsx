import { Alert, Button, Typography } from 'antd';
import type { ApiVerificationStatus, VerificationState } from '@shared/contract';

const UNVERIFIED_TEXT = 'Complete KYC form in order to create unlimited cards and access your API setttings';
export const PENDING_TEXT = 'KYC verification submitted pending approval';

/**
 * 'Finish your account setup' while the account is not Verified: what to do (Unverified, with
 * 'Set Up') or that it is being reviewed (pending); after a rejection, also why.
 */
export function SetupBanner({
  state,
  rejected,
  onSetUp,
  phone,
}: {
  state: VerificationState;
  rejected: ApiVerificationStatus | null;
  onSetUp?: () => void;
  phone: boolean;
}) {
  const unverified = state === 'Unverified';
  const setUp =
    unverified && onSetUp ? (
      <Button type="primary" onClick={onSetUp} block={phone}>
        Set Up
      </Button>
    ) : null;
  return (
    <Alert
      type={unverified ? 'warning' : 'info'}
      showIcon
      message={<Typography.Text strong>Finish your account setup</Typography.Text>}
      description={
        <>
          <div>{unverified ? UNVERIFIED_TEXT : PENDING_TEXT}</div>
          {rejected && (
            <div style={{ marginTop: 8 }} data-testid="banner-rejection">
              <Typography.Text type="danger" strong>
                Your last verification was rejected:{' '}
              </Typography.Text>
              <span>{rejected.reason || 'No reason was given.'}</span>
            </div>
          )}
          {phone && setUp && <div style={{ marginTop: 12 }}>{setUp}</div>}
        </>
      }
      action={!phone && setUp ? setUp : undefined}
    />
  );
}
