import { Alert, Button, Descriptions, Form, Input, Select, Skeleton, Typography } from 'antd';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { TopupInstructions } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { amountRule, ghs, typedCents, usdtCents } from '@shared/ui/wallet';
import { useSubmit } from '@shared/ui/useSubmit';
import { displayMoney } from '@shared/money';
import { momoToSend, useMomoDetails, useTronFee } from './hooks';
import { useFailure } from './useFailure';
import { NOT_ARIA_REQUIRED } from '@shared/ui/forms';

type Method = 'tron' | 'momo';

/** Step 1 of a top-up: how much, and how it is paid. A preview of what it costs shows as one types. */
export function TopUpForm({ walletId, onCreated }: { walletId: string; onCreated(i: TopupInstructions): void }) {
  const [form] = Form.useForm<{ amount: string; method: Method }>();
  const { busy, submit } = useSubmit();
  const fail = useFailure();
  const method = Form.useWatch('method', form) ?? 'tron';
  const cents = typedCents(Form.useWatch('amount', form));
  const positive = cents !== null && cents > 0 ? cents : null;
  const momo = useMomoDetails(method === 'momo');
  const tronFee = useTronFee(positive, method === 'tron');

  async function create(v: { amount: string; method: Method }) {
    const r = await submit((key) =>
      apiData<TopupInstructions>('POST', '/wallet/topup-balance', {
        body: { wallet_id: walletId, amount: formatMoney(typedCents(v.amount)!), method: v.method },
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (r.ok) onCreated(r.data);
    else fail(r.error, form);
  }

  let preview: React.ReactNode = null;
  if (positive !== null && method === 'momo') {
    if (momo.isLoading) preview = <Skeleton active paragraph={{ rows: 1 }} title={false} />;
    else if (momo.error)
      preview = (
        <Alert type="error" showIcon message={messageOf(momo.error, 'Could not load the mobile-money rate.')} />
      );
    else if (momo.data) {
      const d = momo.data;
      preview = (
        <Descriptions
          size="small"
          column={1}
          bordered
          items={[
            {
              key: 'send',
              label: 'Amount to Send',
              children: <strong data-testid="momo-amount-to-send">GHS {displayMoney(momoToSend(d, positive))}</strong>,
            },
            { key: 'rate', label: 'Rate', children: `1 USDT = ${ghs(d.rate)}` },
            { key: 'flat', label: 'Flat Fee', children: ghs(d.flat_fee) },
          ]}
        />
      );
    }
  } else if (positive !== null && method === 'tron' && tronFee) {
    preview = (
      <Descriptions
        size="small"
        column={1}
        bordered
        items={[
          { key: 'fee', label: 'Top-up Fee', children: usdtCents(tronFee.total) },
          {
            key: 'credit',
            label: 'You Receive',
            children: <strong>{usdtCents(Math.max(positive - tronFee.total, 0))}</strong>,
          },
        ]}
      />
    );
  }

  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ method: 'tron' }}
      onFinish={create}
    >
      <Form.Item name="amount" label="Amount" rules={[amountRule()]} extra="USDT to add to your master wallet">
        <Input inputMode="decimal" placeholder="0.00" addonAfter="USDT" autoComplete="off" />
      </Form.Item>
      <Form.Item
        required={NOT_ARIA_REQUIRED}
        name="method"
        label="Method"
        rules={[{ required: true, message: 'Method is required' }]}
      >
        <Select
          options={[
            { value: 'tron', label: 'Tron (USDT TRC20)' },
            { value: 'momo', label: 'Momo (Mobile Money, GHS)' },
          ]}
        />
      </Form.Item>
      {preview && <div style={{ marginBottom: 16 }}>{preview}</div>}
      {method === 'momo' && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
          Mobile-money payments are verified by hand between 9am and 11pm GMT, usually within 30 minutes.
        </Typography.Paragraph>
      )}
      <Button type="primary" htmlType="submit" loading={busy} block>
        Continue
      </Button>
    </Form>
  );
}
