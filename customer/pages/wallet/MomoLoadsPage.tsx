import { useQueryClient } from '@tanstack/react-query';
import { Result } from 'antd';
import type { ApiTopup } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { ResultHeading } from '@shared/ui/ResultHeading';
import { useSession } from '@shared/ui/useSession';
import { refreshWallet, useDetails } from '@shared/ui/wallet';
import { LoadsList } from './LoadsList';
import { MomoConfirmModal } from './MomoConfirmModal';

/** /portal/momo-loads: mobile-money top-ups for the momo agents to confirm. */
export default function MomoLoadsPage() {
  const session = useSession();
  const qc = useQueryClient();
  const confirm = useDetails<ApiTopup>();

  if (!session?.user.entities.includes('momo'))
    return (
      <Result
        status="403"
        title={<ResultHeading>Momo Top-Ups</ResultHeading>}
        subTitle="Only mobile-money agents see these top-ups."
      />
    );

  return (
    <>
      <PageHeader title="Momo Top-Ups" subtitle="Mobile-money top-ups waiting for your confirmation" />
      <LoadsList variant="momo" onOpen={confirm.show} />
      <MomoConfirmModal
        topup={confirm.item}
        open={confirm.open}
        onClose={() => {
          confirm.close();
          void refreshWallet(qc);
        }}
      />
    </>
  );
}
