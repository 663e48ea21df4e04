import { useQuery } from '@tanstack/react-query';
import { Empty, Flex, Select, Space, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client';
import type { ApiWebhookEvent, Paged } from '../../contract';
import { ExportCsvButton } from '../ExportCsvButton';
import { DetailRows, DetailsDrawer, PAGE_SIZE, PagedTable, dateTime, useDetails } from '../wallet';

type State = ApiWebhookEvent['state'];
type Attempt = ApiWebhookEvent['deliveries'][number];

const STATE_COLOR: Record<State, string> = { delivered: 'green', pending: 'gold', failed: 'red', skipped: 'default' };
const STATE_LABEL: Record<State, string> = {
  delivered: 'Delivered',
  pending: 'Pending',
  failed: 'Failed',
  skipped: 'Skipped',
};

export const webhookKeys = { all: ['webhook-deliveries'] as const };

function EventStateTag({ state }: { state: State }) {
  return (
    <Tag color={STATE_COLOR[state]} style={{ marginInlineEnd: 0 }}>
      {STATE_LABEL[state] ?? state}
    </Tag>
  );
}

const ok = (code: number | null) => code !== null && code >= 200 && code < 300;

/** An attempt's outcome: the HTTP status (green 2xx, red otherwise) or the network error. */
function AttemptStatus({ attempt }: { attempt: Attempt | undefined }) {
  if (!attempt) return <Typography.Text type="secondary">-</Typography.Text>;
  if (attempt.status_code !== null) {
    return (
      <Tag color={ok(attempt.status_code) ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
        HTTP {attempt.status_code}
      </Tag>
    );
  }
  return (
    <Tag color="red" style={{ marginInlineEnd: 0 }} title={attempt.error ?? undefined}>
      No answer
    </Tag>
  );
}

const lastAttempt = (e: ApiWebhookEvent) => e.deliveries[e.deliveries.length - 1];
const nextRetry = (e: ApiWebhookEvent) => (e.state === 'pending' ? dateTime(e.next_attempt_at) : '-');
const code = (text: string) => (
  <span style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 }}>{text}</span>
);

/** One event: its Standard Webhooks id, every attempt with its status and next retry, and the payload. */
function WebhookEventDetails({ event: e }: { event: ApiWebhookEvent }) {
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <DetailRows
        rows={[
          { label: 'Event', value: code(e.type) },
          { label: 'State', value: <EventStateTag state={e.state} /> },
          {
            label: 'Webhook Id',
            value: <Typography.Text copyable={{ text: e.message_id }}>{code(e.message_id)}</Typography.Text>,
          },
          { label: 'Created', value: dateTime(e.created_at) },
          { label: 'Delivered', value: dateTime(e.delivered_at) },
          { label: 'Attempts', value: e.attempts },
          { label: 'Next Retry', value: nextRetry(e) },
        ]}
      />
      <div>
        <Typography.Title level={5}>Attempts</Typography.Title>
        {e.deliveries.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              e.state === 'pending' ? 'Not sent yet: the first attempt is queued.' : 'No attempts were made.'
            }
          />
        ) : (
          <Timeline
            items={e.deliveries.map((a) => ({
              color: ok(a.status_code) ? 'green' : 'red',
              children: (
                <Flex vertical gap={2} data-testid="webhook-attempt">
                  <Flex gap={8} wrap align="center">
                    <Typography.Text strong>Attempt {a.attempt}</Typography.Text>
                    <AttemptStatus attempt={a} />
                    {a.duration_ms !== null && <Typography.Text type="secondary">{a.duration_ms} ms</Typography.Text>}
                  </Flex>
                  <Typography.Text type="secondary">{dateTime(a.created_at)}</Typography.Text>
                  {a.error && <Typography.Text type="danger">{a.error}</Typography.Text>}
                  {a.next_retry_at && (
                    <Typography.Text type="secondary">Next retry: {dateTime(a.next_retry_at)}</Typography.Text>
                  )}
                </Flex>
              ),
            }))}
          />
        )}
      </div>
      <div>
        <Flex justify="space-between" align="center">
          <Typography.Title level={5} style={{ margin: 0 }}>
            Payload
          </Typography.Title>
          <Typography.Text
            copyable={{ text: JSON.stringify(e.payload, null, 2), tooltips: ['Copy payload', 'Copied'] }}
          />
        </Flex>
        <pre
          role="region"
          aria-label="Payload"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways; focusable so a keyboard can scroll it
          tabIndex={0}
          style={{
            background: '#0f172a',
            color: '#e2e8f0',
            padding: 12,
            borderRadius: 8,
            fontSize: 12,
            overflowX: 'auto',
            marginTop: 8,
            whiteSpace: 'pre',
          }}
        >
          {JSON.stringify(e.payload, null, 2)}
        </pre>
      </div>
    </Space>
  );
}

/**
 * The webhook delivery log: the company's card events, their state, attempts, last status and next
 * retry; a row opens its attempts and payload. Customers see their own company's (no companyId),
 * staff pass the company.
 */
export function WebhookDeliveries({ companyId, emptyText }: { companyId?: string; emptyText: string }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<State | undefined>();
  const details = useDetails<ApiWebhookEvent>();
  const query = useQuery({
    queryKey: [...webhookKeys.all, companyId ?? 'mine', state ?? 'all', page],
    queryFn: () =>
      api<Paged<ApiWebhookEvent>>('GET', '/third-party/webhook-deliveries', {
        query: { company_id: companyId, state, page, per_page: PAGE_SIZE },
      }),
  });
  return (
    <>
      <Flex justify="flex-end" gap={8} wrap style={{ padding: '0 0 12px' }}>
        <ExportCsvButton
          path="/third-party/webhook-deliveries"
          query={{ company_id: companyId, state }}
          filename="webhook-deliveries"
          size="small"
        />
        <Select<State | 'all'>
          aria-label="Delivery state"
          size="small"
          style={{ width: 150 }}
          value={state ?? 'all'}
          onChange={(v) => {
            setState(v === 'all' ? undefined : v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: 'All states' },
            ...(Object.keys(STATE_LABEL) as State[]).map((s) => ({ value: s, label: STATE_LABEL[s] })),
          ]}
        />
      </Flex>
      <PagedTable<ApiWebhookEvent>
        rowKey={(r) => r.id}
        rows={query.data?.data}
        total={query.data?.total ?? 0}
        page={page}
        onPage={setPage}
        loading={query.isLoading}
        error={query.error}
        emptyText={emptyText}
        onRowClick={details.show}
        rowLabel={(r) => `Webhook event ${r.type}`}
        columns={[
          { title: 'Event', dataIndex: 'type', render: (v: string) => code(v) },
          { title: 'State', dataIndex: 'state', render: (v: State) => <EventStateTag state={v} /> },
          { title: 'Attempts', dataIndex: 'attempts', align: 'right' },
          { title: 'Last Status', key: 'last', render: (_, r) => <AttemptStatus attempt={lastAttempt(r)} /> },
          {
            title: 'Next Retry',
            key: 'next',
            render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{nextRetry(r)}</span>,
          },
          {
            title: 'Created',
            dataIndex: 'created_at',
            render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(v)}</span>,
          },
        ]}
        compact={(r) => ({
          title: code(r.type),
          description: (
            <>
              <div>{dateTime(r.created_at)}</div>
              <div>
                {r.attempts} attempt{r.attempts === 1 ? '' : 's'}
                {r.state === 'pending' ? ` · next ${nextRetry(r)}` : ''}
              </div>
            </>
          ),
          extra: (
            <Space direction="vertical" size={4} align="end">
              <EventStateTag state={r.state} />
              {lastAttempt(r) && <AttemptStatus attempt={lastAttempt(r)} />}
            </Space>
          ),
        })}
      />
      <DetailsDrawer open={details.open} onClose={details.close} title="Webhook Event">
        {details.item && <WebhookEventDetails event={details.item} />}
      </DetailsDrawer>
    </>
  );
}
