import { Button, Tag, Typography } from 'antd';
import type { TopupInstructions } from '../../../shared/contract';
import { centsOf } from '../../../shared/money';
import { DetailRows, useWalletBalance, usdt, usdtCents } from '../../../shared/ui/wallet';
import { useTronFee } from './hooks';
import type { ConfirmResult } from './TopupPayment';

/**
 * Step 3: the top-up is 'Processing' (it waits for verification). The balances are what the
 * wallet holds now and what it will hold once the top-up is approved (less the Tron fee).
 */
export function TopUpSummary({ walletId, instructions, result, onDone }: { walletId: string; instructions: TopupInstructions; result: ConfirmResult; onDone(): void }) {
  const { balance, loading } = useWalletBalance(walletId);
  const amount = centsOf(instructions.amount);
  const tron = instructions.method === 'Tron';
  const fee = useTronFee(amount, tron);
  const credited = tron ? (fee ? amount - fee.total : null) : amount;
  const before = balance === null ? null : centsOf(balance);
  const after = before === null || credited === null ? null : before + credited;
  return (
    <>
      <DetailRows
        rows={[
          { label: 'Status', value: <Tag color="gold">Processing</Tag> },
          { label: 'Amount', value: usdt(instructions.amount) },
          { label: 'Method', value: instructions.method },
          { label: 'Reference', value: result.reference },
          ...(result.transaction_hash ? [{ label: tron ? 'Transaction Hash' : 'Payment Reference', value: <span style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>{result.transaction_hash}</span> }] : []),
          ...(tron && fee ? [{ label: 'Top-up Fee', value: usdtCents(fee.total) }] : []),
          { label: 'Balance Before', value: loading ? '…' : before === null ? 'N/A' : usdtCents(before) },
          { label: 'Balance After', value: loading ? '…' : after === null ? 'N/A' : `${usdtCents(after)} (once approved)` },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 13 }}>
        {result.message}
      </Typography.Paragraph>
      <Button type="primary" block onClick={onDone}>
        Done
      </Button>
    </>
  );
}
