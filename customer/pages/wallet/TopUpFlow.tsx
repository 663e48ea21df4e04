import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Skeleton, Steps } from 'antd';
import { useState } from 'react';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { TopupConfirmed, TopupInstructions } from '@shared/contract';
import { refreshWallet } from '@shared/ui/wallet';
import { TopUpForm } from './TopUpForm';
import { TopupPayment } from './TopupPayment';
import { TopUpSummary } from './TopUpSummary';

/**
 * The three steps of a top-up: amount and method, payment instructions, summary. With `resume`
 * (a Pending top-up's reference) it starts at the payment instructions.
 */
export function TopUpFlow({ walletId, resume, onDone }: { walletId: string; resume?: string; onDone(): void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [created, setCreated] = useState<TopupInstructions>();
  const [result, setResult] = useState<TopupConfirmed>();
  const resumed = useQuery({
    queryKey: ['topup-instructions', resume],
    queryFn: () => apiData<TopupInstructions>('GET', `/wallet/topup/${encodeURIComponent(resume!)}`, { silent: true }),
    enabled: !!resume,
    staleTime: 0,
  });
  const instructions = created ?? resumed.data;
  const step = result ? 2 : instructions ? 1 : 0;

  const steps = (
    <Steps
      size="small"
      current={step}
      direction="horizontal"
      responsive={false}
      style={{ marginBottom: 20 }}
      items={[{ title: 'Amount' }, { title: 'Payment' }, { title: 'Summary' }]}
    />
  );

  let body: React.ReactNode;
  if (resume && resumed.isLoading) body = <Skeleton active />;
  else if (resume && resumed.error)
    body = <Alert type="error" showIcon message={messageOf(resumed.error, 'Could not load this top-up.')} />;
  else if (!instructions) {
    body = (
      <TopUpForm
        walletId={walletId}
        onCreated={(i) => {
          setCreated(i);
          void refreshWallet(qc);
        }}
      />
    );
  } else if (!result) {
    body = (
      <TopupPayment
        instructions={instructions}
        onConfirmed={(r) => {
          // The spec's toast of the server's message, and the summary (step 3) beside it.
          setResult(r);
          message.success(r.message, 4);
          void refreshWallet(qc);
        }}
      />
    );
  } else body = <TopUpSummary walletId={walletId} instructions={instructions} result={result} onDone={onDone} />;

  return (
    <>
      {steps}
      {body}
    </>
  );
}
