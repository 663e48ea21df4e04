import { Alert, App, Button, Card, Flex, Form, Input, InputNumber, Radio, Skeleton, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { type ApiDecisionEndpoint, DECISION_TIMEOUT_MS, decisionEndpointBody } from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { NOT_ARIA_REQUIRED, sayFailure } from '@shared/ui/forms';
import { dateTime, useIsPhone } from '@shared/ui/wallet';
import { apiKeys, said, useAction, useDecisionEndpoint } from './hooks';
import { SecretField } from './SecretField';

type Values = { url: string; timeout_ms: number | null; on_timeout: 'approve' | 'decline' };

const DEFAULTS: Values = { url: '', timeout_ms: 1000, on_timeout: 'decline' };
const URL_HINT = 'Enter a full URL such as https://example.com/decide';
const shape = decisionEndpointBody.shape;

/**
 * 'Authorisation decisions' (issue 32): the URL the platform asks, in real time, whether to approve each payment
 * on the company's cards; how long it waits; and what applies when no answer comes in time.
 */
export function DecisionCard() {
  const { message, modal } = App.useApp();
  const phone = useIsPhone();
  const [form] = Form.useForm<Values>();
  const query = useDecisionEndpoint();
  const { busy, run } = useAction();
  const d = query.data;
  const reload = [apiKeys.decision];

  const loading = query.isLoading;
  // Only a change of what is saved refills the form (a new last failure must not undo what someone is typing).
  const url = d?.url;
  const timeoutMs = d?.timeout_ms;
  const onTimeout = d?.on_timeout;
  useEffect(() => {
    if (!loading)
      form.setFieldsValue(url ? { url, timeout_ms: timeoutMs ?? null, on_timeout: onTimeout ?? 'decline' } : DEFAULTS);
  }, [form, loading, url, timeoutMs, onTimeout]);

  async function save(v: Values) {
    const r = await run(
      (key) =>
        apiData<ApiDecisionEndpoint>('PUT', '/third-party/authorization-decision', {
          body: { url: v.url.trim(), timeout_ms: v.timeout_ms, on_timeout: v.on_timeout },
          idempotencyKey: key,
          silent: true, // said once below: under the field it names, else as a toast
        }),
      () => 'Decision endpoint saved',
      reload,
    );
    if (!r.ok) sayFailure(form, r.error, (text) => message.error(text, 4), 'Something went wrong. Please try again.');
  }
  const remove = () =>
    modal.confirm({
      title: 'Remove the decision endpoint',
      content: 'Payments on your cards are then decided by our checks alone, without asking your server.',
      okText: 'Remove',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () =>
        run(
          (key) => apiData<string>('DELETE', '/third-party/authorization-decision', { idempotencyKey: key }),
          said('Authorisation decision endpoint removed'),
          reload,
        ),
    });

  const block = phone ? { block: true } : {};
  return (
    <Card
      title="Authorisation decisions"
      extra={loading ? null : d ? <Tag color="green">On</Tag> : <Tag>Not set</Tag>}
      styles={{ header: phone ? { paddingInline: 12 } : undefined, body: phone ? { padding: 12 } : undefined }}
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : query.isError ? (
        <Alert
          type="error"
          showIcon
          message="The decision endpoint could not be loaded"
          description={messageOf(query.error, 'Something went wrong. Please try again.')}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            Decide your cards' payments yourself. For each payment that passes our checks, we send your server a signed
            request with the card, amount, merchant, category and country, and wait for its answer: approve, decline, or
            approve a smaller amount. If no answer comes in time, or your server fails, the rule below decides.
          </Typography.Paragraph>
          {d?.last_failure && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              message="The last call to your server failed"
              description={`${d.last_failure} (${dateTime(d.last_failure_at)}). The rule for no answer decided that payment.`}
            />
          )}
          <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={save} disabled={busy}>
            <Form.Item
              name="url"
              label="Decision URL"
              rules={[contractRule(shape.url), { pattern: /^\s*https?:\/\/\S+\s*$/i, message: URL_HINT }]}
            >
              <Input placeholder="https://example.com/cardwallet/decide" inputMode="url" autoComplete="url" />
            </Form.Item>
            <Flex gap={phone ? 0 : 24} wrap vertical={phone}>
              <Form.Item
                name="timeout_ms"
                label="Timeout (ms)"
                rules={[contractRule(shape.timeout_ms)]}
                extra={`From ${DECISION_TIMEOUT_MS.min} to ${DECISION_TIMEOUT_MS.max} milliseconds`}
              >
                <InputNumber
                  min={DECISION_TIMEOUT_MS.min}
                  max={DECISION_TIMEOUT_MS.max}
                  step={100}
                  precision={0}
                  style={{ width: phone ? '100%' : 160 }}
                />
              </Form.Item>
              <Form.Item
                required={NOT_ARIA_REQUIRED}
                name="on_timeout"
                label="When there is no answer in time"
                rules={[contractRule(shape.on_timeout)]}
              >
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'approve', label: 'Approve' },
                    { value: 'decline', label: 'Decline' },
                  ]}
                />
              </Form.Item>
            </Flex>
            <Flex gap={8} wrap justify="flex-end" vertical={phone}>
              {d && (
                <Button danger onClick={remove} loading={busy} {...block}>
                  Remove
                </Button>
              )}
              <Button type="primary" htmlType="submit" loading={busy} {...block}>
                Save
              </Button>
            </Flex>
          </Form>
          {d?.signing_secret && (
            <div style={{ marginTop: 20 }}>
              <SecretField
                label="Decision Signing Secret"
                value={d.signing_secret}
                maskable
                hint="Each request carries webhook-id, webhook-timestamp and webhook-signature headers, as webhooks do; check the signature with this secret before you answer."
              />
            </div>
          )}
        </>
      )}
    </Card>
  );
}
