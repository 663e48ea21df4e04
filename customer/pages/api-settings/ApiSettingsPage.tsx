import { Button, Card, Col, Result, Row, Space } from 'antd';
import { useState } from 'react';
import { ApiError, messageOf } from '@shared/api/errors';
import type { ApiCompany } from '@shared/contract';
import { WebhookDeliveries } from '@shared/ui/integrations/WebhookDeliveries';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { useIsPhone } from '@shared/ui/wallet';
import { AccessNeeded } from './AccessNeeded';
import { CallbackCard } from './CallbackCard';
import { CredentialsCard, type NewCredentials } from './CredentialsCard';
import { DecisionCard } from './DecisionCard';
import { DocsLinks } from './DocsLinks';
import { useCredentials } from './hooks';
import { ResultHeading } from '@shared/ui/ResultHeading';

/**
 * /portal/apisettings (customer-portal §2): the real screen for the Company-Admin of a verified
 * company; for everyone else a screen that says what is needed to get there.
 */
export default function ApiSettingsPage() {
  const session = useSession();
  const user = session?.user;
  const company = session?.company ?? null;
  const eligible = user?.role === 'Company-Admin' && user.state === 'Verified' && !!company;
  if (!user) return null;
  if (!eligible || !company) return <AccessNeeded user={user} />;
  return <ApiSettings key={company.id} company={company} />;
}

function ApiSettings({ company }: { company: ApiCompany }) {
  const session = useSession()!;
  const phone = useIsPhone();
  const query = useCredentials(company.id);
  // The secret of credentials generated on this visit; gone when the screen is left or reloaded.
  const [created, setCreated] = useState<NewCredentials | null>(null);

  if (query.error instanceof ApiError && query.error.statusCode === 403) {
    return <AccessNeeded user={session.user} refused={query.error.display} />;
  }
  const header = (
    <PageHeader
      title="API Settings"
      subtitle="Generate API credentials for integration"
      extra={<DocsLinks block={phone} />}
    />
  );
  if (query.isError) {
    return (
      <>
        {header}
        <Card>
          <Result
            status="warning"
            title={<ResultHeading level={2}>Your API settings could not be loaded</ResultHeading>}
            subTitle={messageOf(query.error, 'Something went wrong. Please try again.')}
            extra={
              <Button type="primary" loading={query.isFetching} onClick={() => void query.refetch()}>
                Try again
              </Button>
            }
          />
        </Card>
      </>
    );
  }
  const active = !!query.data && !query.data.revoked;
  const pad = phone ? { header: { paddingInline: 12 }, body: { padding: 12 } } : { body: { paddingTop: 12 } };
  return (
    <>
      {header}
      <Space direction="vertical" size={phone ? 'middle' : 'large'} style={{ width: '100%' }}>
        <Row gutter={[phone ? 12 : 24, phone ? 12 : 24]}>
          <Col xs={24} xl={active ? 12 : 24}>
            <CredentialsCard company={company} query={query} created={created} onCreated={setCreated} />
          </Col>
          {active && (
            <Col xs={24} xl={12}>
              <CallbackCard />
            </Col>
          )}
          {active && (
            <Col xs={24} xl={12}>
              <DecisionCard />
            </Col>
          )}
        </Row>
        <Card title="Webhook deliveries" styles={pad}>
          <WebhookDeliveries emptyText="No webhook events yet. Card events are sent to your callback URL once it is saved and active." />
        </Card>
      </Space>
    </>
  );
}
