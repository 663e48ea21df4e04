import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Steps, Tag } from 'antd';
import { useState } from 'react';
import { apiData } from '@shared/api/client';
import { type TransferResult, transferBody } from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { formatMoney } from '@shared/money';
import { DetailRows, amountRule, dateTime, refreshWallet, typedCents, usdt, useWalletBalance } from '@shared/ui/wallet';
import { useSubmit } from '@shared/ui/useSubmit';
import { useFailure } from './useFailure';

/** Master wallet to master wallet, in two steps: the form, then the summary the server answers. */
export function TransferFlow({ walletId, onDone }: { walletId: string; onDone(): void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ wallet_id: string; amount: string; reference?: string }>();
  const { busy, submit } = useSubmit();
  const fail = useFailure();
  const { balance } = useWalletBalance(walletId);
  const [done, setDone] = useState<TransferResult>();

  async function send(v: { wallet_id: string; amount: string; reference?: string }) {
    const reference = v.reference?.trim();
    const r = await submit((key) =>
      apiData<TransferResult>('POST', '/wallet/transfer', {
        body: {
          wallet_id: v.wallet_id.trim(),
          amount: formatMoney(typedCents(v.amount)!),
          ...(reference ? { reference } : {}),
        },
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (!r.ok) return fail(r.error, form);
    setDone(r.data);
    message.success(r.data.message, 2);
    void refreshWallet(qc);
  }

  return (
    <>
      <Steps
        size="small"
        current={done ? 1 : 0}
        responsive={false}
        style={{ marginBottom: 20 }}
        items={[{ title: 'Details' }, { title: 'Summary' }]}
      />
      {done ? (
        <>
          <DetailRows
            rows={[
              {
                label: 'Status',
                value: <Tag color={done.status === 'Completed' ? 'green' : 'gold'}>{done.status}</Tag>,
              },
              { label: 'Transaction Id', value: done.trans_ref },
              { label: 'To', value: done.to_name },
              {
                label: 'Destination Wallet',
                value: (
                  <span style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
                    {done.wallet_to}
                  </span>
                ),
              },
              { label: 'Amount', value: usdt(done.amount) },
              { label: 'Reference', value: done.reference || '-' },
              { label: 'Date', value: dateTime(done.created_at) },
              { label: 'Balance Before', value: usdt(done.balance_before) },
              { label: 'Balance After', value: usdt(done.balance_after) },
            ]}
          />
          <Button type="primary" block style={{ marginTop: 16 }} onClick={onDone}>
            Done
          </Button>
        </>
      ) : (
        <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={send}>
          <Form.Item
            name="wallet_id"
            label="Destination Wallet"
            rules={[contractRule(transferBody.shape.wallet_id)]}
            extra="The wallet ID of the person or company you are paying"
          >
            <Input
              placeholder="e.g. 00000000-0000-4000-8000-000000000000"
              autoComplete="off"
              spellCheck={false}
              style={{ fontFamily: 'monospace' }}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label="Amount"
            rules={[amountRule()]}
            extra={balance !== null ? `Available: ${usdt(balance)}` : undefined}
          >
            <Input inputMode="decimal" placeholder="0.00" addonAfter="USDT" autoComplete="off" />
          </Form.Item>
          <Form.Item name="reference" label="Reference (optional)" rules={[contractRule(transferBody.shape.reference)]}>
            <Input placeholder="What is this transfer for?" />
          </Form.Item>
          <Alert
            type="warning"
            showIcon
            message="Transfers are final: they cannot be reversed."
            style={{ marginBottom: 16 }}
          />
          <Button type="primary" htmlType="submit" loading={busy} block>
            Transfer
          </Button>
        </Form>
      )}
    </>
  );
}
