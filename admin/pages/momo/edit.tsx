import { useCustom } from '@refinedev/core';
import { Alert, App, Button, Card, Col, Form, Input, Row, Select, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { flatFeeProblem, type MomoDetails as Momo, type MomoUser, momoSyncBody, rateProblem } from '@shared/contract';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { contractRule, requiredRule } from '@shared/ui/contractRules';
import { PageHeader } from '@shared/ui/PageHeader';
import { useAction } from '../../components/refineForms';
import { useCan } from '../../components/Allowed';

type MomoForm = {
  momo_name: string;
  momo_number: string;
  network: string;
  rate: string;
  flat_fee: string;
  momo_alert_emails: string;
  entity_users?: string[];
};

const list = (s?: string) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
/** The server's own parsing of a typed value; an empty one is left to `required`. */
const serverRule = (problem: (v: string) => string | null) => ({
  validator: async (_: unknown, v?: string) => {
    const found = v?.trim() ? problem(v) : null;
    if (found) throw new Error(found);
  },
});

/** /admin/momo: the mobile-money settings (Super-Admin): where customers pay, at what rate, who is alerted and who confirms. */
export default function MomoDetails() {
  const [form] = Form.useForm<MomoForm>();
  const { message } = App.useApp();
  // The Auditor reads the settings; only who manages them changes them.
  const mayEdit = useCan('momo.manage');
  // The settings are one record at /param/momo-details and /param/momo-sync, not a resource's
  // /{name}/{id}: read with useCustom, saved with a custom mutation (docs/decisions.md).
  const { busy, run } = useAction<Momo>();
  const { query, result } = useCustom<Momo>({ url: '/param/momo-details', method: 'get' });
  const details = result.data as Momo | undefined;

  useEffect(() => {
    if (!details?.momo_name) return;
    form.setFieldsValue({
      momo_name: details.momo_name,
      momo_number: details.momo_number,
      network: details.network,
      rate: details.rate,
      flat_fee: details.flat_fee,
      momo_alert_emails: (details.momo_alert_emails ?? []).join(', '),
      entity_users: details.entity_users ?? [],
    });
  }, [details, form]);

  async function save(v: MomoForm) {
    const body = {
      momo_name: v.momo_name.trim(),
      momo_number: v.momo_number.trim(),
      network: v.network.trim(),
      // as typed: a rate or fee never goes through a float
      rate: v.rate.trim(),
      flat_fee: v.flat_fee.trim(),
      momo_alert_emails: list(v.momo_alert_emails),
      entity_users: v.entity_users ?? [],
    };
    const r = await run('put', '/param/momo-sync', body);
    if (r.ok) {
      // This answer is { message, data }: the server's message beside the saved settings.
      const answer = r.data;
      if ('message' in answer && typeof answer.message === 'string') message.success(answer.message);
      void query.refetch();
      return;
    }
    sayFailure(form, r.error, (text) => message.error(text), 'The momo settings were not saved. Please try again.');
  }

  return (
    <>
      <PageHeader
        title="Momo Details"
        subtitle="Mobile-money payment details customers see, the rate and fee, alerts and confirmation users."
      />
      {!mayEdit && (
        <Alert
          type="info"
          showIcon
          message="Your role reads these settings; a Super-Admin changes them."
          style={{ maxWidth: 880, marginBottom: 16 }}
        />
      )}
      <Card style={{ maxWidth: 880 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : (
          <Form
            noValidate
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={save}
            onValuesChange={clearErrorsOnChange(form)}
            aria-label="Momo Details"
          >
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="momo_name"
                  label="Momo Name"
                  rules={[requiredRule(momoSyncBody.shape.momo_name), { max: 100 }]}
                >
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="momo_number"
                  label="Momo Number"
                  rules={[contractRule(momoSyncBody.shape.momo_number)]}
                  extra="With the country code, such as +233 24 123 4567"
                >
                  <Input inputMode="tel" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="network"
                  label="Mobile Network"
                  rules={[requiredRule(momoSyncBody.shape.network), { max: 60 }]}
                >
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item
                  name="rate"
                  label="Rate"
                  extra="GHS per USDT"
                  rules={[requiredRule(momoSyncBody.shape.rate), serverRule(rateProblem)]}
                >
                  <Input inputMode="decimal" />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item
                  name="flat_fee"
                  label="Flat Fee"
                  extra="GHS per payment"
                  rules={[requiredRule(momoSyncBody.shape.flat_fee), serverRule(flatFeeProblem)]}
                >
                  <Input inputMode="decimal" />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item
                  name="momo_alert_emails"
                  label="MoMo Alert Emails"
                  extra="Separate addresses with commas. They are told of every new mobile-money top-up."
                  rules={[contractRule(momoSyncBody.shape.momo_alert_emails)]}
                >
                  <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item
                  name="entity_users"
                  label="Momo Confirmation Users"
                  extra="Search customers by name or email. They confirm that mobile-money payments arrived."
                >
                  <ConfirmationUsers known={details?.confirmation_users ?? []} />
                </Form.Item>
              </Col>
            </Row>
            {mayEdit && (
              <Button type="primary" htmlType="submit" loading={busy}>
                Save
              </Button>
            )}
          </Form>
        )}
      </Card>
    </>
  );
}

const userLabel = (u: MomoUser) =>
  `${u.first_name} ${u.last_name} · ${u.email}${u.company_name ? ` (${u.company_name})` : ''}`;

/** Customers picked by name and email (the API stores their ids); results come from the server as one types. */
function ConfirmationUsers({
  known,
  value,
  onChange,
  id,
}: {
  known: MomoUser[];
  value?: string[];
  onChange?(v: string[]): void;
  id?: string;
}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const [seen, setSeen] = useState<Record<string, MomoUser>>({});
  const found = useCustom<MomoUser[]>({
    url: '/param/momo-users',
    method: 'get',
    config: { query: search ? { search } : {} },
    queryOptions: { placeholderData: (prev) => prev },
  });
  // Refine answers {} until the first answer arrives.
  const results = Array.isArray(found.result.data) ? (found.result.data as MomoUser[]) : [];
  const byId = {
    ...Object.fromEntries(known.map((u) => [u.id, u])),
    ...seen,
    ...Object.fromEntries(results.map((u) => [u.id, u])),
  };
  const options = [
    ...new Map([
      ...(value ?? []).map((v) => [v, byId[v]] as const),
      ...results.map((u) => [u.id, u] as const),
    ]).entries(),
  ].map(([v, u]) => ({
    value: v,
    label: u ? userLabel(u) : v,
  }));
  return (
    <Select
      id={id}
      mode="multiple"
      showSearch
      filterOption={false}
      value={value}
      onSearch={setTyped}
      onChange={(next: string[]) => {
        setSeen((s) => ({
          ...s,
          ...Object.fromEntries(results.filter((u) => next.includes(u.id)).map((u) => [u.id, u])),
        }));
        onChange?.(next);
      }}
      onBlur={() => setTyped('')}
      loading={found.query.isFetching}
      options={options}
      placeholder="Search by name or email"
      notFoundContent={found.query.isFetching ? 'Searching…' : 'No customer matches'}
    />
  );
}
