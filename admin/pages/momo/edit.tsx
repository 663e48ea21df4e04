import { useCustom } from '@refinedev/core';
import { App, Button, Card, Col, Form, Input, Row, Skeleton } from 'antd';
import { useEffect } from 'react';
import { api } from '../../../shared/api/client';
import { messageOf } from '../../../shared/api/errors';
import type { MomoDetails as Momo } from '../../../shared/contract';
import { applyFieldErrors } from '../../../shared/ui/forms';
import { PageHeader } from '../../../shared/ui/PageHeader';
import { useSubmit } from '../../../shared/ui/useSubmit';

type MomoForm = { momo_name: string; momo_number: string; network: string; rate: string; flat_fee: string; momo_alert_emails: string; entity_users?: string };

const list = (s?: string) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const required = (message: string) => ({ required: true, whitespace: true, message });

/** /admin/momo: the mobile-money settings (Super-Admin): where customers pay, at what rate, who is alerted and who confirms. */
export default function MomoDetails() {
  const [form] = Form.useForm<MomoForm>();
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
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
      entity_users: (details.entity_users ?? []).join(', '),
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
      entity_users: list(v.entity_users),
    };
    const r = await submit((key) => api<{ message: string; data: Momo }>('PUT', '/param/momo-sync', { body, idempotencyKey: key }));
    if (r.ok) {
      message.success(r.data.message);
      void query.refetch();
      return;
    }
    applyFieldErrors(form, r.error);
    message.error(messageOf(r.error, 'The momo settings were not saved. Please try again.'));
  }

  return (
    <>
      <PageHeader title="Momo Details" subtitle="Mobile-money payment details customers see, the rate and fee, alerts and confirmation users." />
      <Card style={{ maxWidth: 880 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : (
          <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={save} aria-label="Momo Details">
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="momo_name" label="Momo Name" rules={[required('Momo Name is required'), { max: 100 }]}>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="momo_number" label="Momo Number" rules={[required('Momo Number is required'), { max: 30 }]}>
                  <Input inputMode="tel" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="network" label="Mobile Network" rules={[required('Mobile Network is required'), { max: 60 }]}>
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item
                  name="rate"
                  label="Rate"
                  extra="GHS per USDT"
                  rules={[
                    required('Rate is required'),
                    { pattern: /^\s*\d{1,6}(\.\d{1,4})?\s*$/, message: 'Rate must be a number above 0 with at most 4 decimals' },
                    { validator: (_, v?: string) => (v && Number(v) === 0 ? Promise.reject(new Error('Rate must be a number above 0 with at most 4 decimals')) : Promise.resolve()) },
                  ]}
                >
                  <Input inputMode="decimal" />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item
                  name="flat_fee"
                  label="Flat Fee"
                  extra="GHS per payment"
                  rules={[required('Flat Fee is required'), { pattern: /^\s*\d{1,9}(\.\d{1,2})?\s*$/, message: 'Flat Fee must be a number with at most 2 decimals' }]}
                >
                  <Input inputMode="decimal" />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item
                  name="momo_alert_emails"
                  label="MoMo Alert Emails"
                  extra="Separate addresses with commas. They are told of every new mobile-money top-up."
                  rules={[
                    required('MoMo Alert Emails are required'),
                    {
                      validator: (_, v?: string) =>
                        list(v).every((e) => EMAIL.test(e)) ? Promise.resolve() : Promise.reject(new Error('Each alert email must be a valid email address')),
                    },
                  ]}
                >
                  <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
                </Form.Item>
              </Col>
              <Col xs={24}>
                <Form.Item
                  name="entity_users"
                  label="Momo Confirmation User IDs"
                  extra="Separate ids with commas. These customers confirm that mobile-money payments arrived."
                >
                  <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} className="cw-hash" />
                </Form.Item>
              </Col>
            </Row>
            <Button type="primary" htmlType="submit" loading={busy}>
              Save
            </Button>
          </Form>
        )}
      </Card>
    </>
  );
}
