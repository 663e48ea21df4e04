import { ApiOutlined, CheckCircleFilled, ClockCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { Button, Card, Flex, Result, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ApiUser } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DocsLinks } from './DocsLinks';
import { ResultHeading } from '@shared/ui/ResultHeading';

type Check = 'done' | 'waiting' | 'missing';

const ICON: Record<Check, ReactNode> = {
  done: <CheckCircleFilled style={{ color: '#16a34a' }} aria-label="Done" />,
  waiting: <ClockCircleFilled style={{ color: '#d97706' }} aria-label="Waiting" />,
  missing: <CloseCircleFilled style={{ color: '#dc2626' }} aria-label="Missing" />,
};

/** What stands between this person and the API Settings, in one sentence and a checklist. */
function reasonOf(user: ApiUser, refused?: string) {
  const company = user.role === 'Company-Admin' || user.role === 'Company-User';
  if (!company) {
    return {
      title: 'API access is for company accounts',
      text: 'API credentials are issued to verified companies, for their own systems. Individual accounts cannot use the API.',
    };
  }
  if (user.role !== 'Company-Admin') {
    return {
      title: 'Only your company admin can manage API access',
      text: 'Ask the Company-Admin of your company to generate API credentials and set the callback URL.',
    };
  }
  if (user.state === 'pending') {
    return {
      title: 'Your KYB verification is being reviewed',
      text: 'API Settings open as soon as your company is verified. We will let you know by email.',
    };
  }
  if (user.state !== 'Verified') {
    return {
      title: 'Complete KYB verification first',
      text: 'Your company must be verified before it can use the API. Submit the KYB form; API Settings open once it is approved.',
    };
  }
  return { title: 'API Settings are not available', text: refused ?? 'Your account cannot manage API access.' };
}

/** /portal/apisettings for everyone but the Company-Admin of a verified company. */
export function AccessNeeded({ user, refused }: { user: ApiUser; refused?: string }) {
  const navigate = useNavigate();
  const { title, text } = reasonOf(user, refused);
  const company = user.role === 'Company-Admin' || user.role === 'Company-User';
  const admin = user.role === 'Company-Admin';
  const verification: Check = user.state === 'Verified' ? 'done' : user.state === 'pending' ? 'waiting' : 'missing';
  const checks: Array<[string, Check]> = [
    ['A company account', company ? 'done' : 'missing'],
    ['The Company-Admin role', admin ? 'done' : 'missing'],
    [
      verification === 'waiting' ? 'KYB verification (under review)' : 'KYB verification approved',
      company ? verification : 'missing',
    ],
  ];
  const canSubmitKyb = admin && user.state === 'Unverified';
  return (
    <>
      <PageHeader title="API Settings" subtitle="Generate API credentials for integration" />
      <Card>
        <Result
          icon={<ApiOutlined style={{ color: '#1d4ed8' }} />}
          title={<ResultHeading level={2}>{title}</ResultHeading>}
          subTitle={text}
          style={{ padding: '24px 0' }}
          extra={
            canSubmitKyb ? (
              <Button type="primary" onClick={() => navigate('/portal/kycverifications')}>
                Complete KYB verification
              </Button>
            ) : undefined
          }
        >
          <div style={{ maxWidth: 420, margin: '0 auto' }}>
            <Typography.Text strong>What API access needs</Typography.Text>
            <ul aria-label="What API access needs" style={{ listStyle: 'none', padding: 0, margin: '8px 0 0' }}>
              {checks.map(([label, state]) => (
                <li key={label} style={{ padding: '6px 0' }}>
                  <Flex gap={10} align="center">
                    {ICON[state]}
                    <span>{label}</span>
                  </Flex>
                </li>
              ))}
            </ul>
          </div>
        </Result>
        <Flex justify="center">
          <DocsLinks />
        </Flex>
      </Card>
    </>
  );
}
