import { Alert, App, Button, Card, Flex, Form, Input, Skeleton, Tag } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { type ApiCallbackDetails, callbackRequestBody } from '@shared/contract';
import { sayFailure } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { useIsPhone } from '@shared/ui/wallet';
import { apiKeys, said, useAction, useCallbackDetails } from './hooks';
import { GUIDE_PATH } from './DocsLinks';
import { SecretField } from './SecretField';

/**
 * Which buttons show (customer-portal §4): active false → Revoke and Activate; a URL and active
 * true → Deactivate; active not false → Save. With no callback saved yet there is no state at all
 * (the server answers active false then, but there is nothing to revoke or activate), so only Save.
 */
function callbackButtons(d: Pick<ApiCallbackDetails, 'callback_url' | 'active'> | undefined) {
  const active = d?.callback_url ? d.active : undefined;
  return {
    save: active !== false,
    revoke: active === false,
    activate: active === false,
    deactivate: !!d?.callback_url && active === true,
  };
}

const URL_HINT = 'Enter a full URL such as https://example.com/webhooks';

/** 'Callback url for card transaction webhooks': the URL, its state buttons and the signing secret. */
export function CallbackCard() {
  const { message, modal } = App.useApp();
  const phone = useIsPhone();
  const [form] = Form.useForm<{ callback_url: string }>();
  const query = useCallbackDetails(true);
  const { busy, run } = useAction();
  const d = query.data;
  const show = callbackButtons(d);
  const reload = [apiKeys.callback];

  const loading = query.isLoading;
  useEffect(() => {
    if (!loading) form.setFieldsValue({ callback_url: d?.callback_url ?? '' }); // the Form is mounted once loaded
  }, [form, loading, d?.callback_url]);

  async function save({ callback_url }: { callback_url: string }) {
    const r = await run(
      (key) =>
        apiData<string>('POST', '/third-party/callback-request', {
          body: { callback_url: callback_url.trim(), active: true },
          idempotencyKey: key,
          silent: true, // said once below: under the field it names, else as a toast
        }),
      said('Callback Url set successfully'),
      reload,
    );
    if (!r.ok) sayFailure(form, r.error, (text) => message.error(text, 4), 'Something went wrong. Please try again.');
  }
  const setActive = (activate: boolean) =>
    run(
      (key) => apiData<string>('PUT', '/third-party/callback-status', { body: { activate }, idempotencyKey: key }),
      said(activate ? 'Callback Url activated successfully' : 'Callback Url deactivated successfully'),
      reload,
    );
  const revoke = () =>
    modal.confirm({
      title: 'Revoke Callback Url',
      content: 'Card transaction webhooks stop being sent to this URL. You can save a new URL afterwards.',
      okText: 'Revoke',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () =>
        run(
          (key) => apiData<string>('DELETE', '/third-party/callback-revoke', { idempotencyKey: key }),
          said('Callback Url revoked successfully'),
          reload,
        ),
    });

  const state = !d?.callback_url ? (
    <Tag>Not set</Tag>
  ) : d.active ? (
    <Tag color="green">Active</Tag>
  ) : (
    <Tag>Inactive</Tag>
  );
  const block = phone ? { block: true } : {};
  return (
    <Card
      title="Callback Url"
      extra={loading ? null : state}
      styles={{ header: phone ? { paddingInline: 12 } : undefined, body: phone ? { padding: 12 } : undefined }}
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : query.isError ? (
        <Alert
          type="error"
          showIcon
          message="The callback details could not be loaded"
          description={messageOf(query.error, 'Something went wrong. Please try again.')}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        />
      ) : (
        <>
          {d?.disabled_reason && !d.active && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              message="Deliveries to this URL were stopped"
              description={`${d.disabled_reason} Activate the callback to resume.`}
            />
          )}
          <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={save} disabled={busy}>
            <Form.Item
              name="callback_url"
              label="Callback url for card transaction webhooks"
              rules={[
                contractRule(callbackRequestBody.shape.callback_url),
                { pattern: /^https?:\/\/\S+$/i, message: URL_HINT },
              ]}
              extra={show.save ? undefined : 'Activate the callback to change its URL.'}
            >
              <Input
                placeholder="https://example.com/webhooks/cardwallet"
                readOnly={!show.save}
                inputMode="url"
                autoComplete="url"
              />
            </Form.Item>
            <Flex gap={8} wrap justify="flex-end" vertical={phone}>
              {show.revoke && (
                <Button danger onClick={revoke} loading={busy} {...block}>
                  Revoke
                </Button>
              )}
              {show.activate && (
                <Button onClick={() => setActive(true)} loading={busy} {...block}>
                  Activate
                </Button>
              )}
              {show.deactivate && (
                <Button onClick={() => setActive(false)} loading={busy} {...block}>
                  Deactivate
                </Button>
              )}
              {show.save && (
                <Button type="primary" htmlType="submit" loading={busy} {...block}>
                  Save
                </Button>
              )}
            </Flex>
          </Form>
          {d?.signing_secret && (
            <div style={{ marginTop: 20 }}>
              <SecretField
                label="Signing Secret"
                value={d.signing_secret}
                maskable
                hint={
                  <>
                    Each webhook carries webhook-id, webhook-timestamp and webhook-signature headers; check the
                    signature with this secret (<Link to={`${GUIDE_PATH}#7-receive-webhooks`}>how</Link>).
                  </>
                }
              />
            </div>
          )}
        </>
      )}
    </Card>
  );
}
