import { Flex, Tag, Typography } from 'antd';
import type { ApiTopup, ApiWalletTransaction, ApiWalletTransfer } from '../../contract';
import { DetailRows } from './DetailsDrawer';
import { amountText, dateTime, signedUsdt, txTypeLabel, usdt } from './format';
import { DirectionTag, TopupStateTag } from './StateTag';

const mono = { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' } as const;
const Copy = ({ value }: { value: string | null | undefined }) =>
  value ? (
    <Typography.Text copyable style={mono}>
      {value}
    </Typography.Text>
  ) : (
    '-'
  );

const FEE_LABELS: Array<[RegExp, string]> = [
  [/^wallet-topup-tron$/, 'Tron top-up fee'],
  [/^flat-fee$/, 'Flat fee'],
  [/^card-issuance-/, 'Card issuance fee'],
  [/^card-load-/, 'Card load fee'],
  [/^card-withdraw-/, 'Card withdrawal fee'],
  [/^card-maintenance$/, 'Card maintenance fee'],
  [/^api-monthly$/, 'Monthly API fee'],
];
/** What a person calls a fee by its schedule name. */
export const feeLabel = (name: string) => FEE_LABELS.find(([re]) => re.test(name))?.[1] ?? name;

/** fees_meta: { fees: { name: "2.50" }, 'sub-total', total, old_balance, new_balance } */
function FeeBreakdown({ meta }: { meta: Record<string, unknown> }) {
  const fees = (meta.fees && typeof meta.fees === 'object' ? meta.fees : {}) as Record<string, unknown>;
  const str = (k: string) => (typeof meta[k] === 'string' || typeof meta[k] === 'number' ? String(meta[k]) : undefined);
  return (
    <div style={{ marginTop: 16 }}>
      <Typography.Title level={5}>Fee Breakdown</Typography.Title>
      <DetailRows
        rows={[
          ...(str('sub-total') ? [{ label: 'Amount (sub-total)', value: usdt(str('sub-total')) }] : []),
          ...Object.entries(fees).map(([name, amount]) => ({ label: feeLabel(name), value: usdt(String(amount)) })),
          { label: 'Total fees', value: <strong>{usdt(str('total') ?? '0.00')}</strong> },
        ]}
      />
    </div>
  );
}

/** A movement of the master wallet (wallet transactions, recent transactions). */
export function WalletTransactionDetails({ tx }: { tx: ApiWalletTransaction }) {
  return (
    <>
      <DetailRows
        rows={[
          { label: 'Reference', value: <Copy value={tx.trans_ref} /> },
          {
            label: 'Transaction Type',
            value: <DirectionTag direction={tx.direction}>{txTypeLabel(tx.type)}</DirectionTag>,
          },
          { label: 'Amount', value: signedUsdt(tx.amount, tx.direction) },
          { label: 'Total Fees', value: usdt(tx.fees) },
          { label: 'Associated Card', value: tx.card_number ?? '-' },
          { label: 'Description', value: tx.description ?? '-' },
          { label: 'Balance Before', value: usdt(tx.balance_before) },
          { label: 'Balance After', value: usdt(tx.balance_after) },
          { label: 'Date', value: dateTime(tx.created_at) },
        ]}
      />
      {tx.fees_meta && <FeeBreakdown meta={tx.fees_meta} />}
    </>
  );
}

/** A top-up that is no longer waiting for the customer (read-only). */
export function TopupDetails({ topup, processedIsDone }: { topup: ApiTopup; processedIsDone?: boolean }) {
  const balance =
    topup.balance_before && topup.balance_after ? (
      <Flex vertical>
        <span>{usdt(topup.balance_after)}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          was {usdt(topup.balance_before)}
        </Typography.Text>
      </Flex>
    ) : (
      '-'
    );
  return (
    <>
      <DetailRows
        rows={[
          { label: 'Date', value: dateTime(topup.created_at) },
          { label: 'Status', value: <TopupStateTag state={topup.state} processedIsDone={processedIsDone} /> },
          { label: 'Amount', value: usdt(topup.amount) },
          { label: 'Hash', value: <Copy value={topup.transaction_hash} /> },
          { label: 'Type', value: 'Top Up' },
          { label: 'Balance', value: balance },
          // Approved by the chain itself (a deposit to the wallet's address, or a hash found settled), not by a person.
          ...(topup.credited_automatically
            ? [{ label: 'Approved', value: 'Automatically, once confirmed on the chain' }]
            : []),
          ...(topup.reason
            ? [{ label: 'Reason', value: <Typography.Text type="danger">{topup.reason}</Typography.Text> }]
            : []),
          { label: 'Method', value: topup.method },
          { label: 'Reference', value: <Copy value={topup.reference} /> },
          ...(topup.momo_amount ? [{ label: 'Amount Sent', value: `GHS ${amountText(topup.momo_amount)}` }] : []),
          ...(topup.fee ? [{ label: 'Fee', value: usdt(topup.fee) }] : []),
          ...(topup.credited ? [{ label: 'Credited', value: usdt(topup.credited) }] : []),
          { label: 'Last Modified', value: dateTime(topup.updated_at) },
        ]}
      />
      {topup.fees_meta && topup.state === 'Approved' && <FeeBreakdown meta={topup.fees_meta} />}
    </>
  );
}

/** A wallet-to-wallet transfer, from the viewer's side (Debit or Credit). */
export function TransferDetails({ transfer }: { transfer: ApiWalletTransfer }) {
  const party = (name: string | null, id: string) => (
    <Flex vertical>
      <span>{name ?? '-'}</span>
      <Typography.Text type="secondary" style={mono}>
        {id}
      </Typography.Text>
    </Flex>
  );
  return (
    <DetailRows
      rows={[
        { label: 'Transaction Id', value: <Copy value={transfer.trans_ref} /> },
        { label: 'Date', value: dateTime(transfer.created_at) },
        {
          label: 'Status',
          value: <Tag color={transfer.status === 'Completed' ? 'green' : 'gold'}>{transfer.status}</Tag>,
        },
        {
          label: 'Type',
          value:
            transfer.type === 'Transfer' ? (
              'Transfer'
            ) : (
              <DirectionTag direction={transfer.type === 'Credit' ? 'credit' : 'debit'}>{transfer.type}</DirectionTag>
            ),
        },
        { label: 'Amount', value: usdt(transfer.amount) },
        { label: 'Reference', value: transfer.reference || '-' },
        { label: 'From', value: party(transfer.from_name, transfer.wallet_from) },
        { label: 'To', value: party(transfer.to_name, transfer.wallet_to) },
        { label: 'Transaction By', value: transfer.transferer ?? '-' },
        { label: 'Balance Before', value: usdt(transfer.balance_before) },
        { label: 'Balance After', value: usdt(transfer.balance_after) },
      ]}
    />
  );
}
