import { ClockCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Result, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ApiVerificationStatus } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { KybForm } from './KybForm';
import { KycForm } from './KycForm';
import { PENDING_TEXT } from './SetupBanner';
import { serverMessage, useVerificationStatus } from './useVerification';
import { ResultHeading } from '@shared/ui/ResultHeading';

const when = (iso: string | null | undefined) => (iso ? dayjs(iso).format('D MMMM YYYY, HH:mm') : '');

/** Why the last submission was turned down, above the form so it can be fixed and sent again. */
function RejectedNotice({ latest, compact }: { latest: ApiVerificationStatus; compact?: boolean }) {
  return (
    <Alert
      type="error"
      showIcon
      message={
        compact
          ? 'Your last verification was rejected'
          : `Your last verification was rejected${latest.decided_at ? ` on ${when(latest.decided_at)}` : ''}`
      }
      description={
        <>
          <Typography.Text strong>Reason: </Typography.Text>
          <span data-testid="rejection-reason">{latest.reason || 'No reason was given.'}</span>
          {!compact && <div style={{ marginTop: 4 }}>Fix what is asked and submit the form again.</div>}
        </>
      }
      style={{ marginBottom: compact ? 0 : 16 }}
    />
  );
}

/** /portal/kycverifications: KYC for an Individual, KYB for a company (sent by its Company-Admin). */
export default function VerificationPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { state, latest, query } = useVerificationStatus();
  if (!session) return null;
  const { user, company } = session;
  const individual = user.role === 'Individual';
  const kind = individual ? 'KYC' : 'KYB';
  const back = (
    <Button type="primary" onClick={() => navigate('/portal')}>
      Back to Dashboard
    </Button>
  );

  const header = (
    <PageHeader
      title={`${kind} Verification`}
      subtitle={
        state === 'Unverified'
          ? individual
            ? 'Verify your identity to create unlimited cards.'
            : `Verify ${company?.company_name ?? 'your company'} to create unlimited cards and access your API settings.`
          : undefined
      }
    />
  );
  const page = (children: ReactNode) => (
    <div style={{ maxWidth: 960 }}>
      {header}
      {children}
    </div>
  );

  if (state === 'pending') {
    return page(
      <Card>
        <Result
          icon={<ClockCircleOutlined style={{ color: '#1d4ed8' }} />}
          title={<ResultHeading level={2}>{PENDING_TEXT}</ResultHeading>}
          subTitle={
            latest?.state === 'pending'
              ? `Submitted on ${when(latest.submitted_at)}. We will review it and let you know by email.`
              : 'We will review it and let you know by email.'
          }
          extra={back}
        />
      </Card>,
    );
  }

  if (state === 'Verified') {
    return page(
      <Card>
        <Result
          status="success"
          title={
            <ResultHeading level={2}>
              {individual ? 'Your account is verified' : 'Your company account is verified'}
            </ResultHeading>
          }
          subTitle={latest?.decided_at ? `Verified on ${when(latest.decided_at)}.` : 'There is nothing more to submit.'}
          extra={back}
        />
      </Card>,
    );
  }

  const rejected = latest?.state === 'rejected' ? latest : null;
  const loadError = query.isError ? (
    <Alert
      type="warning"
      showIcon
      message={`We could not load your last verification. - ${serverMessage(query.error)}`}
      action={
        <Button size="small" onClick={() => void query.refetch()}>
          Retry
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  ) : null;

  if (!individual && user.role !== 'Company-Admin') {
    return page(
      <>
        {rejected && <RejectedNotice latest={rejected} />}
        <Card>
          <Result
            status="info"
            title={<ResultHeading level={2}>Your company admin completes the KYB</ResultHeading>}
            subTitle={`Only a company admin can submit the KYB for ${company?.company_name ?? 'your company'}. Ask them to complete it from their portal.`}
            extra={back}
          />
        </Card>
      </>,
    );
  }

  return page(
    <>
      {loadError}
      {rejected && <RejectedNotice latest={rejected} />}
      <Card>
        {individual ? (
          <KycForm userId={user.id} />
        ) : company ? (
          <KybForm companyId={company.id} companyName={company.company_name} />
        ) : (
          <Alert
            type="error"
            showIcon
            message="Your company could not be found. Log out and in again, or contact the Help Desk."
          />
        )}
      </Card>
    </>,
  );
}
