import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { apiData } from '@shared/api/client';
import { TRON_HASH, type TopupConfirmed, type TopupInstructions } from '@shared/contract';
import { formatPhone } from '@shared/phone';
import { DetailRows, amountText, signedUsdt } from '@shared/ui/wallet';
import { useSubmit } from '@shared/ui/useSubmit';
import { AddressQr, AddressText, ONLY_USDT_TRON } from './DepositAddress';
import { useFailure } from './useFailure';

const copyable = (value: string, label: string, shown = value) => (
  <Typography.Text copyable={{ text: value, tooltips: [`Copy ${label}`, 'Copied'] }} style={{ wordBreak: 'break-all' }}>
    {shown}
  </Typography.Text>
);

/**
 * Step 2 of a top-up, and the continue-payment view of a Pending one: where to pay, then the
 * Tron transaction hash or 'Paid' for mobile money.
 */
export function TopupPayment({
  instructions,
  onConfirmed,
}: {
  instructions: TopupInstructions;
  onConfirmed(r: TopupConfirmed): void;
}) {
  const [form] = Form.useForm<{ transaction_hash: string }>();
  const { busy, submit } = useSubmit();
  const fail = useFailure();

  async function confirm(body: Record<string, string>) {
    const r = await submit((key) =>
      apiData<TopupConfirmed>('POST', '/wallet/topup-confirm', {
        body: { reference: instructions.reference, ...body },
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (r.ok) onConfirmed(r.data);
    else fail(r.error, instructions.tron ? form : undefined);
  }

  if (instructions.tron) {
    const { network, address } = instructions.tron;
    return (
      <>
        {/* The QR and the address first, as a wallet app scans or pastes them; then what to send. */}
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16, textAlign: 'center' }}>
          <AddressQr address={address} size={176} />
          <Typography.Text type="secondary">Deposit Address</Typography.Text>
          <AddressText address={address} />
        </Flex>
        <DetailRows
          rows={[
            { label: 'Network', value: network },
            { label: 'Amount', value: <strong>{signedUsdt(instructions.amount, 'credit')}</strong> },
            { label: 'Reference', value: instructions.reference },
          ]}
        />
        <Alert type="warning" showIcon style={{ marginTop: 16 }} message={ONLY_USDT_TRON} />
        <Alert
          type="info"
          showIcon
          style={{ margin: '12px 0 16px' }}
          message="Credited automatically"
          description="This is your wallet's own address. Once the network confirms the transfer, usually within minutes, the USDT is credited by itself. Already sent it? Paste the transaction hash to match it to this top-up."
        />
        <Form
          noValidate
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => confirm({ transaction_hash: v.transaction_hash.trim() })}
        >
          <Form.Item
            name="transaction_hash"
            label="Provide transaction hash"
            rules={[
              { required: true, whitespace: true, message: 'Transaction hash is required' },
              { pattern: TRON_HASH, message: 'A Tron transaction hash is 64 hexadecimal characters' },
            ]}
          >
            <Input
              placeholder="64 hexadecimal characters"
              autoComplete="off"
              spellCheck={false}
              style={{ fontFamily: 'monospace' }}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} block>
            Submit
          </Button>
        </Form>
      </>
    );
  }

  const m = instructions.momo;
  if (!m) return <Alert type="error" showIcon message="This top-up has no payment details." />;
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        Transfer Details
      </Typography.Title>
      <DetailRows
        rows={[
          { label: 'Network', value: copyable(m.network, 'network') },
          { label: 'Momo Number', value: copyable(m.momo_number, 'momo number', formatPhone(m.momo_number)) },
          {
            label: 'Amount to Send',
            value: (
              <Typography.Text
                copyable={{ text: m.amount_to_send, tooltips: ['Copy amount', 'Copied'] }}
              >{`${m.currency} ${amountText(m.amount_to_send)}`}</Typography.Text>
            ),
          },
          { label: 'Momo Name', value: copyable(m.momo_name, 'momo name') },
          {
            label: 'Reference',
            value: <span style={{ fontFamily: 'monospace' }}>{copyable(m.pay_reference, 'reference')}</span>,
          },
        ]}
      />
      <Alert
        type="info"
        showIcon
        style={{ margin: '16px 0' }}
        message={`Send exactly ${m.currency} ${amountText(m.amount_to_send)} to ${m.momo_name} and use the reference above, then press Paid. We verify mobile-money payments between 9am and 11pm GMT, usually within 30 minutes.`}
      />
      <Button type="primary" loading={busy} block onClick={() => confirm({ code: instructions.code })}>
        Paid
      </Button>
    </>
  );
}
