import { Alert, Button, Tag } from 'antd';
import type { TopupConfirmed, TopupInstructions } from '@shared/contract';
import { centsOf } from '@shared/money';
import { DetailRows, usdt, usdtCents, useWalletBalance } from '@shared/ui/wallet';
import { useTronFee } from './hooks';

/**
 * Step 3. Usually the top-up is 'Processing' (waiting for the chain or an operator): the balances
 * are what the wallet holds now and what it will hold once approved (less the Tron fee). When the
 * chain already settled the hash the server approves it at once: then the wallet was credited and
 * its balance (refreshed by the flow) already holds it.
 */
export function TopUpSummary({
  walletId,
  instructions,
  result,
  onDone,
}: {
  walletId: string;
  instructions: TopupInstructions;
  result: TopupConfirmed;
  onDone(): void;
}) {
  const { balance, loading } = useWalletBalance(walletId);
  const amount = centsOf(instructions.amount);
  const tron = instructions.method === 'Tron';
  const approved = result.state === 'Approved';
  const fee = useTronFee(amount, tron);
  const credited = tron ? (fee ? amount - fee.total : null) : amount;
  const before = balance === null ? null : centsOf(balance);
  const after = before === null || credited === null ? null : before + credited;
  const balanceRows = approved
    ? [{ label: 'Balance', value: loading ? '…' : balance === null ? 'N/A' : usdt(balance) }]
    : [
        { label: 'Balance Before', value: loading ? '…' : before === null ? 'N/A' : usdtCents(before) },
        {
          label: 'Balance After',
          value: loading ? '…' : after === null ? 'N/A' : `${usdtCents(after)} (once approved)`,
        },
      ];
  return (
    <>
      <Alert
        type={approved ? 'success' : 'info'}
        showIcon
        role="status"
        message={result.message}
        style={{ marginBottom: 16 }}
      />
      <DetailRows
        rows={[
          { label: 'Status', value: approved ? <Tag color="green">Approved</Tag> : <Tag color="gold">Processing</Tag> },
          { label: 'Amount', value: usdt(instructions.amount) },
          { label: 'Method', value: instructions.method },
          { label: 'Reference', value: result.reference },
          ...(result.transaction_hash
            ? [
                {
                  label: tron ? 'Transaction Hash' : 'Payment Reference',
                  value: (
                    <span style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
                      {result.transaction_hash}
                    </span>
                  ),
                },
              ]
            : []),
          ...(tron && fee ? [{ label: 'Top-up Fee', value: usdtCents(fee.total) }] : []),
          ...(approved && credited !== null ? [{ label: 'Credited', value: usdtCents(credited) }] : []),
          ...balanceRows,
        ]}
      />
      <Button type="primary" block onClick={onDone} style={{ marginTop: 16 }}>
        Done
      </Button>
    </>
  );
}
