import { KeyOutlined, StopOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Typography } from 'antd';
import { apiData } from '@shared/api/client';
import type { ApiClientCredentials, ApiCompany } from '@shared/contract';
import { dateTime, useIsPhone } from '@shared/ui/wallet';
import { apiKeys, reloadAll, said, useAction } from './hooks';
import { SecretField } from './SecretField';

const COPY_ONCE = 'You can copy your API keys just once. Copy and keep it in a safe place for your future reference.';

export interface NewCredentials {
  client_id: string;
  client_secret: string;
}

interface Props {
  company: ApiCompany;
  query: UseQueryResult<ApiClientCredentials>;
  /** the answer of the generation, held only by this screen: the secret is never shown again */
  created: NewCredentials | null;
  onCreated(c: NewCredentials | null): void;
}

/** Client Id and Client Secret (read-only, copy, skeletons), the copy-once notice, Generate/Revoke. */
export function CredentialsCard({ company, query, created, onCreated }: Props) {
  const { modal } = App.useApp();
  const phone = useIsPhone();
  const { busy, run, qc } = useAction();
  const creds = query.data;
  const active = !!creds && !creds.revoked;
  const secret = active && created?.client_id === creds.client_id ? created.client_secret : null;

  async function generate() {
    const r = await run(
      (key) =>
        apiData<ApiClientCredentials>('POST', '/third-party/clients', {
          body: { name: company.company_name, redirect_uri: company.company_website || null, identifier: company.id },
          idempotencyKey: key,
        }),
      () => 'Credentials generated. Copy the Client Secret now.',
    );
    if (r.ok && r.data.client_id && r.data.client_secret) {
      onCreated({ client_id: r.data.client_id, client_secret: r.data.client_secret });
      qc.setQueryData(apiKeys.credentials(company.id), { ...r.data, client_secret: null });
      await qc.invalidateQueries({ queryKey: apiKeys.callback });
    } else if (!r.ok) {
      await query.refetch(); // 409: someone else generated them meanwhile
    }
  }

  function confirmRevoke() {
    modal.confirm({
      title: 'Revoke Credentials',
      content:
        'Your integration stops working at once: its access tokens end and the callback URL is revoked too. You can generate new credentials afterwards.',
      okText: 'Revoke',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: async () => {
        const r = await run(
          (key) => apiData<string>('DELETE', `/third-party/clients/${company.id}`, { idempotencyKey: key }),
          said('Credentials revoked'),
        );
        if (r.ok) {
          onCreated(null);
          qc.setQueryData(apiKeys.credentials(company.id), { client_id: null, client_secret: null, revoked: true });
          await Promise.all(reloadAll.map((queryKey) => qc.invalidateQueries({ queryKey })));
        }
      },
    });
  }

  const loading = query.isLoading;
  const none = 'No active credentials';
  return (
    <Card
      title="Credentials"
      styles={{ header: phone ? { paddingInline: 12 } : undefined, body: phone ? { padding: 12 } : undefined }}
    >
      <SecretField label="Client Id" value={active ? creds.client_id : null} loading={loading} placeholder={none} />
      <SecretField
        label="Client Secret"
        value={secret}
        loading={loading}
        placeholder={active ? 'Hidden for good: shown only once' : none}
        hint={
          active && !secret
            ? 'For your security the secret is stored hashed and cannot be shown again. Lost it? Revoke and generate new credentials.'
            : undefined
        }
      />
      {secret && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 12 }}
          message="Your new credentials are ready"
          description="Copy the Client Secret now and keep it safe: it will not be shown again once you leave or reload this page."
        />
      )}
      <Alert type="warning" showIcon message={COPY_ONCE} style={{ marginBottom: 16 }} />
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {active && creds.created_at
            ? `Generated ${dateTime(creds.created_at)} · Last used ${creds.last_used_at ? dateTime(creds.last_used_at) : 'never'}`
            : ''}
        </Typography.Text>
        {!loading &&
          creds &&
          (active ? (
            <Button danger icon={<StopOutlined />} loading={busy} onClick={confirmRevoke} block={phone}>
              Revoke Credentials
            </Button>
          ) : (
            <Button type="primary" icon={<KeyOutlined />} loading={busy} onClick={generate} block={phone}>
              Generate Credentials
            </Button>
          ))}
      </Flex>
    </Card>
  );
}
