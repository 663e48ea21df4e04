import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { apiData } from '@shared/api/client';
import { type ApiCard, SPENDING_CONTROLS, type SpendingControl } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { CONTROL_LABELS, controlWords, refreshCards, usd } from '@shared/ui/cards';
import { NOT_ARIA_REQUIRED, sayFailure } from '@shared/ui/forms';
import { useSubmit } from '@shared/ui/useSubmit';
import { amountRule, typedCents } from '@shared/ui/wallet';

interface LimitForm {
  spending_limit: string;
  spending_control: SpendingControl;
}

/** 'Set card spending limit' for a Visa card; any other card: 'Not applicable!'. */
export function SpendingLimitModal({ card, open, onClose }: { card: ApiCard | null; open: boolean; onClose(): void }) {
  return (
    <Modal title="Set card spending limit" open={open} onCancel={onClose} footer={null} destroyOnHidden width={480}>
      {card &&
        (card.purpose === 'media' ? (
          <LimitForm card={card} onClose={onClose} />
        ) : (
          <Typography.Paragraph style={{ margin: '16px 0 8px' }}>Not applicable!</Typography.Paragraph>
        ))}
    </Modal>
  );
}

function LimitForm({ card, onClose }: { card: ApiCard; onClose(): void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<LimitForm>();
  const { busy, submit } = useSubmit();
  const [error, setError] = useState<string>();

  async function save(v: LimitForm) {
    setError(undefined);
    const body = { spending_limit: formatMoney(typedCents(v.spending_limit)!), spending_control: v.spending_control };
    const r = await submit((key) =>
      apiData<{ message: string }>('PUT', `/cards/${card.id}`, { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok) {
      sayFailure(form, r.error, setError, 'The spending limit could not be saved. Please try again.');
      return;
    }
    message.success(r.data.message, 2);
    await refreshCards(qc);
    onClose();
  }

  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={save}
      onValuesChange={() => setError(undefined)}
      initialValues={{
        spending_limit: card.spending_limit ?? undefined,
        spending_control: card.spending_control ?? 'lifetime',
      }}
    >
      <Typography.Paragraph type="secondary">
        {card.nickname} · {card.masked_number}
        {card.spending_limit
          ? ` · now ${usd(card.spending_limit)} ${controlWords(card.spending_control)}`
          : ' · no limit set'}
      </Typography.Paragraph>
      <Form.Item name="spending_limit" label="Spending Limit (USD)" rules={[amountRule('Spending Limit is required')]}>
        <Input inputMode="decimal" placeholder="20,000.00" addonBefore="USD" autoComplete="off" />
      </Form.Item>
      <Form.Item
        required={NOT_ARIA_REQUIRED}
        name="spending_control"
        label="Reset Every"
        rules={[{ required: true, message: 'Reset Every is required' }]}
      >
        <Select options={SPENDING_CONTROLS.map((c) => ({ value: c, label: CONTROL_LABELS[c] }))} />
      </Form.Item>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Button type="primary" htmlType="submit" block loading={busy}>
        Save Changes
      </Button>
    </Form>
  );
}
