import { Alert, App, Button, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiTopup } from '@shared/contract';
import { DetailRows, TopupStateTag, dateTime, ghs, usdt } from '@shared/ui/wallet';
import { useSubmit } from '@shared/ui/useSubmit';

/** 'Momo Confirmation': the agent says the mobile money for this top-up has arrived. */
export function MomoConfirmModal({ topup, open, onClose }: { topup: ApiTopup | null; open: boolean; onClose(): void }) {
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the error of one top-up must not show on the next
  useEffect(() => setError(undefined), [topup]);

  async function confirm() {
    if (!topup) return;
    setError(undefined);
    const r = await submit((key) =>
      apiData<{ message: string; state: string }>('POST', '/wallet/momo-confirm', {
        body: { topup_id: topup.id },
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (r.ok) {
      message.success(r.data.message, 4);
      onClose();
    } else {
      const text = messageOf(r.error, 'Something went wrong. Please try again.');
      setError(text);
      message.error(text, 4);
    }
  }

  return (
    <Modal
      title="Momo Confirmation"
      open={open}
      onCancel={onClose}
      destroyOnHidden
      width={520}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="confirm" type="primary" loading={busy} onClick={confirm}>
          Confirm
        </Button>,
      ]}
    >
      {topup && (
        <>
          <Typography.Paragraph
            type="secondary"
            style={{ textTransform: 'uppercase', letterSpacing: 0.5, fontSize: 12 }}
          >
            confirm momo transaction
          </Typography.Paragraph>
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
          <DetailRows
            rows={[
              { label: 'Customer', value: `${topup.name} (${topup.name_type})` },
              { label: 'Amount', value: usdt(topup.amount) },
              { label: 'GHS Amount', value: <strong>{ghs(topup.momo_amount)}</strong> },
              {
                label: 'Reference',
                value: (
                  <span style={{ fontFamily: 'monospace' }}>
                    {topup.transaction_hash ?? `${topup.code}-${topup.momo_amount ?? ''}`}
                  </span>
                ),
              },
              { label: 'Top-up Reference', value: topup.reference },
              { label: 'State', value: <TopupStateTag state={topup.state} processedIsDone /> },
              { label: 'Requested', value: dateTime(topup.created_at) },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0, fontSize: 13 }}>
            Confirm only once the mobile money with this reference has arrived. Staff then approve the top-up.
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  );
}
