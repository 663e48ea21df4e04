import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Input, Skeleton, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { AMOUNT_ACTIONS, APPROVAL_ACTION_LABELS, type ApiApprovalPolicy, type ApprovalAction } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';

type Row = { required: boolean; min_amount?: string | null };
type Values = Record<ApprovalAction, Row>;

const KEY = ['approval-policies'];

/**
 * /admin/approval-policies (Super-Admin): which staff actions need a second person, and from which
 * amount for those that move money. Every policy starts off, so one admin can run a fresh install.
 */
export default function ApprovalPolicies() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const { busy, submit } = useSubmit();
  const q = useQuery({ queryKey: KEY, queryFn: () => apiData<ApiApprovalPolicy[]>('GET', '/approval-policies') });
  const values = Form.useWatch([], form) as Values | undefined;

  useEffect(() => {
    if (q.data)
      form.setFieldsValue(
        Object.fromEntries(q.data.map((p) => [p.action, { required: p.required, min_amount: p.min_amount ?? '' }])),
      );
  }, [q.data, form]);

  async function save(v: Values) {
    const body = (Object.keys(APPROVAL_ACTION_LABELS) as ApprovalAction[]).map((action) => ({
      action,
      required: !!v[action]?.required,
      min_amount: AMOUNT_ACTIONS.includes(action) && v[action]?.min_amount ? v[action].min_amount : null,
    }));
    const r = await submit((key) =>
      apiData<ApiApprovalPolicy[]>('PUT', '/approval-policies', { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok) return message.error(messageOf(r.error, 'The policies were not saved. Please try again.'), 5);
    qc.setQueryData(KEY, r.data);
    message.success('Approval policies saved.', 3);
  }

  return (
    <>
      <PageHeader
        title="Approval Policies"
        subtitle="Which staff actions need a second person before they are done. The person who asks can never approve."
      />
      {q.error && <Alert type="error" showIcon message={messageOf(q.error, 'Could not load the policies.')} />}
      {q.isLoading && <Skeleton active />}
      {q.data && (
        <Card>
          <Form form={form} layout="vertical" onFinish={save} noValidate>
            <Flex vertical gap={4}>
              {(Object.keys(APPROVAL_ACTION_LABELS) as ApprovalAction[]).map((action) => (
                <Flex key={action} gap={16} align="center" wrap style={{ minHeight: 48 }}>
                  <Form.Item name={[action, 'required']} valuePropName="checked" noStyle>
                    <Switch aria-label={`${APPROVAL_ACTION_LABELS[action]} needs approval`} />
                  </Form.Item>
                  <Typography.Text style={{ minWidth: 220, flex: '1 1 220px' }}>
                    {APPROVAL_ACTION_LABELS[action]}
                  </Typography.Text>
                  {AMOUNT_ACTIONS.includes(action) && (
                    <Form.Item name={[action, 'min_amount']} noStyle>
                      <Input
                        prefix="From"
                        suffix="USD"
                        placeholder="any amount"
                        inputMode="decimal"
                        disabled={!values?.[action]?.required}
                        aria-label={`${APPROVAL_ACTION_LABELS[action]}: from which amount`}
                        style={{ width: 200 }}
                      />
                    </Form.Item>
                  )}
                </Flex>
              ))}
            </Flex>
            <Button type="primary" htmlType="submit" loading={busy} style={{ marginTop: 16 }}>
              Save policies
            </Button>
          </Form>
        </Card>
      )}
    </>
  );
}
