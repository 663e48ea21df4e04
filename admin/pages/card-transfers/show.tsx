import { Typography } from 'antd';
import { type ApiWalletTransaction, brandOf } from '@shared/contract';
import { usd } from '@shared/ui/cards';
import { DetailRows, DetailsDrawer, dateTime, feeLabel, txTypeLabel } from '@shared/ui/wallet';

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/** What the fees were charged for: 'card-issuance-media' → 'Card issuance (Visa)'. */
const forLabel = (name: string | undefined) => {
  if (!name) return '-';
  const purpose = /-(media|general|tokencard)$/.exec(name)?.[1];
  return `${feeLabel(name).replace(/ fee$/, '')}${purpose ? ` (${brandOf(purpose)})` : ''}`;
};

/**
 * 'Transaction Details' of a card movement of a wallet (back-office §2.15): date, type, amount
 * in USD, reference, card, total fees, and the fee breakdown (for, each fee, sub-total, total),
 * each labelled with what it is: the amount the fees apply to, each fee, the fees' total.
 */
function CardTransferDetails({ tx }: { tx: ApiWalletTransaction }) {
  const meta = tx.fees_meta ?? {};
  const fees = (meta.fees && typeof meta.fees === 'object' ? meta.fees : {}) as Record<string, unknown>;
  return (
    <>
      <DetailRows
        rows={[
          { label: 'Date', value: dateTime(tx.created_at) },
          { label: 'Type', value: txTypeLabel(tx.type) },
          { label: 'Amount (USD)', value: usd(tx.amount) },
          {
            label: 'Reference',
            value: (
              <Typography.Text copyable className="cw-hash">
                {tx.trans_ref}
              </Typography.Text>
            ),
          },
          { label: 'Card', value: tx.card_number ?? '-' },
          { label: 'Total Fees', value: usd(tx.fees) },
          { label: 'Balance Change', value: `${usd(tx.balance_before)} → ${usd(tx.balance_after)}` },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Fee Breakdown
      </Typography.Title>
      {tx.fees_meta ? (
        <div data-testid="fee-breakdown">
          <DetailRows
            rows={[
              { label: 'Fees for', value: forLabel(str(meta.for)) },
              { label: 'Amount (sub-total)', value: usd(str(meta['sub-total'])) },
              ...Object.entries(fees).map(([name, amount]) => ({ label: feeLabel(name), value: usd(String(amount)) })),
              { label: 'Total fees', value: <strong>{usd(str(meta.total) ?? tx.fees)}</strong> },
            ]}
          />
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 6, fontSize: 13 }}>
            All fees are in USD
          </Typography.Text>
        </div>
      ) : (
        <Typography.Text type="secondary">No fees were charged on this movement.</Typography.Text>
      )}
    </>
  );
}

export function CardTransferDrawer({
  tx,
  open,
  onClose,
}: {
  tx: ApiWalletTransaction | null;
  open: boolean;
  onClose(): void;
}) {
  return (
    <DetailsDrawer open={open} onClose={onClose} title="Transaction Details">
      {tx && <CardTransferDetails tx={tx} />}
    </DetailsDrawer>
  );
}
