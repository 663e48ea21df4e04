import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Space, Steps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { apiData } from '@shared/api/client';
import { ApiError, messageOf } from '@shared/api/errors';
import { type Recipient, type TransferResult, transferBody } from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { formatMoney } from '@shared/money';
import {
  DetailRows,
  amountRule,
  dateTime,
  refreshWallet,
  typedCents,
  usdt,
  usdtCents,
  useWalletBalance,
} from '@shared/ui/wallet';
import { useSubmit } from '@shared/ui/useSubmit';
import { useFailure } from './useFailure';

type TransferForm = { wallet_id: string; amount: string; reference?: string };

/** What the payer confirms: whom (named by the server, shortened), how much, and what they wrote. */
interface Pending {
  walletId: string;
  cents: number;
  reference?: string;
  recipient: Recipient;
}

/** The question a recipient lookup's failure answers on the wallet field. */
function lookupFailure(e: unknown): string {
  if (e instanceof ApiError && e.statusCode === 404) return 'No master wallet has this id';
  if (e instanceof ApiError && e.errors?.wallet_id?.[0]) return e.errors.wallet_id[0];
  return messageOf(e, 'Could not check this wallet. Please try again.');
}

/**
 * Master wallet to master wallet, in three steps: the form; the confirmation, naming the recipient
 * (nothing moves before Confirm); then the summary the server answers.
 */
export function TransferFlow({ walletId, onDone }: { walletId: string; onDone(): void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<TransferForm>();
  const { busy, submit } = useSubmit();
  const lookup = useSubmit();
  const fail = useFailure();
  const { balance } = useWalletBalance(walletId);
  const [pending, setPending] = useState<Pending>();
  const [done, setDone] = useState<TransferResult>();

  async function review(v: TransferForm) {
    const to = v.wallet_id.trim();
    if (to === walletId) {
      form.setFields([{ name: 'wallet_id', errors: ['You cannot transfer to your own wallet'] }]);
      return;
    }
    const r = await lookup.submit(() =>
      apiData<Recipient>('GET', `/wallet/recipient/${encodeURIComponent(to)}`, { silent: true }),
    );
    if (!r.ok) {
      form.setFields([{ name: 'wallet_id', errors: [lookupFailure(r.error)] }]);
      return;
    }
    setPending({
      walletId: to,
      cents: typedCents(v.amount)!,
      reference: v.reference?.trim() || undefined,
      recipient: r.data,
    });
  }

  async function send(p: Pending) {
    const reference = p.reference;
    const r = await submit((key) =>
      apiData<TransferResult>('POST', '/wallet/transfer', {
        body: {
          wallet_id: p.walletId,
          amount: formatMoney(p.cents),
          ...(reference ? { reference } : {}),
        },
        idempotencyKey: key,
        silent: true,
      }),
    );
    // A refusal names the form's fields (amount, wallet): back to the form, where it is said.
    if (!r.ok) {
      setPending(undefined);
      return fail(r.error, form);
    }
    setPending(undefined);
    setDone(r.data);
    message.success(r.data.message, 2);
    void refreshWallet(qc);
  }

  return (
    <>
      <Steps
        size="small"
        current={done ? 2 : pending ? 1 : 0}
        responsive={false}
        style={{ marginBottom: 20 }}
        items={[{ title: 'Details' }, { title: 'Confirm' }, { title: 'Summary' }]}
      />
      {pending && !done && (
        <TransferConfirm pending={pending} busy={busy} onBack={() => setPending(undefined)} onConfirm={send} />
      )}
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
        // Hidden, not unmounted, while confirming: Back finds every value as it was typed.
        <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={review} hidden={!!pending}>
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
          <Button type="primary" htmlType="submit" loading={lookup.busy} block>
            Continue
          </Button>
        </Form>
      )}
    </>
  );
}

/** "Send USDT 12.34 to Yaw T.": the last look before money moves; Back keeps the form as it was. */
function TransferConfirm({
  pending: p,
  busy,
  onBack,
  onConfirm,
}: {
  pending: Pending;
  busy: boolean;
  onBack(): void;
  onConfirm(p: Pending): void;
}) {
  return (
    <section aria-label="Confirm transfer" data-testid="transfer-confirm">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        Send {usdtCents(p.cents)} to {p.recipient.name}
      </Typography.Title>
      <DetailRows
        rows={[
          { label: 'To', value: `${p.recipient.name} (${p.recipient.type === 'company' ? 'Company' : 'Individual'})` },
          {
            label: 'Destination Wallet',
            value: <span style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>{p.walletId}</span>,
          },
          { label: 'Amount', value: usdtCents(p.cents) },
          { label: 'Fee', value: 'None' },
          { label: 'Reference', value: p.reference || '-' },
        ]}
      />
      <Alert
        type="warning"
        showIcon
        message="Transfers are final: they cannot be reversed."
        style={{ margin: '16px 0' }}
      />
      <Space style={{ width: '100%', justifyContent: 'flex-end' }} wrap>
        <Button onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button type="primary" loading={busy} onClick={() => onConfirm(p)}>
          Confirm
        </Button>
      </Space>
    </section>
  );
}
