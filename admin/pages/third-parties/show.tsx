import { Drawer, Grid, Space, Typography } from 'antd';
import type { ApiThirdParty } from '@shared/contract';
import { WebhookDeliveries } from '@shared/ui/integrations/WebhookDeliveries';
import { Details } from '../../components/Details';
import { dateTime } from '../../format';
import { ClientStateTag, HealthTag } from './columns';

/** A third-party client: its details, its webhook, and that company's webhook delivery log. */
export function ThirdPartyDrawer({ client, onClose }: { client: ApiThirdParty | null; onClose(): void }) {
  const phone = Grid.useBreakpoint().md === false;
  const c = client;
  const w = c?.webhook;
  return (
    <Drawer title="Third-Party Client" open={!!c} onClose={onClose} width={phone ? '100%' : 760} destroyOnHidden>
      {c && w && (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Details
            label="Client details"
            items={[
              ['Name', c.name],
              ['Company', c.company_name],
              [
                'Client Id',
                <Typography.Text key="id" className="cw-hash" copyable>
                  {c.client_id}
                </Typography.Text>,
              ],
              ['State', <ClientStateTag key="s" state={c.state} />],
              ['Created', dateTime(c.created_at)],
              ['Last Used', c.last_used_at ? dateTime(c.last_used_at) : 'Never'],
              ['Last Modified', dateTime(c.updated_at)],
            ]}
          />
          <Details
            label="Webhook"
            items={[
              [
                'Callback Url',
                w.url ? (
                  <Typography.Text key="u" copyable style={{ wordBreak: 'break-all' }}>
                    {w.url}
                  </Typography.Text>
                ) : (
                  'Not set'
                ),
              ],
              ['Health', <HealthTag key="h" health={w.health} />],
              ['Active', w.url ? (w.active ? 'Yes' : 'No') : '—'],
              ['Last Status', w.last_status ?? '—'],
              ['Failed Events', w.failed_events],
              ['Pending Events', w.pending_events],
            ]}
          />
          <Details
            label="Authorisation decisions"
            items={
              c.decision_endpoint
                ? [
                    [
                      'Decision Url',
                      <Typography.Text key="d" copyable style={{ wordBreak: 'break-all' }}>
                        {c.decision_endpoint.url}
                      </Typography.Text>,
                    ],
                    ['Timeout', `${c.decision_endpoint.timeout_ms} ms`],
                    ['No Answer In Time', c.decision_endpoint.on_timeout === 'approve' ? 'Approve' : 'Decline'],
                    [
                      'Last Failure',
                      c.decision_endpoint.last_failure
                        ? `${c.decision_endpoint.last_failure} (${dateTime(c.decision_endpoint.last_failure_at)})`
                        : '—',
                    ],
                  ]
                : [['Decision Url', 'Not set: the platform decides alone']]
            }
          />
          <div>
            <Typography.Title level={5}>Webhook delivery log</Typography.Title>
            <WebhookDeliveries companyId={c.company_id} emptyText="No webhook events for this company yet" />
          </div>
        </Space>
      )}
    </Drawer>
  );
}
