import { moneyText } from '@shared/vocabulary';
import { Drawer, Tag } from 'antd';
import type { ApiWalletTransfer } from '@shared/contract';
import { Details } from '../../components/Details';
import { dateTime } from '../../format';

/** 'Transfer Details': the transfer as recorded, with its real date and status. */
export function TransferDetailsDrawer({ transfer, onClose }: { transfer: ApiWalletTransfer | null; onClose(): void }) {
  const t = transfer;
  return (
    <Drawer
      title="Transfer Details"
      open={!!t}
      onClose={onClose}
      width={Math.min(480, window.innerWidth)}
      destroyOnHidden
    >
      {t && (
        <Details
          label="Transfer details"
          items={[
            ['Date', dateTime(t.created_at)],
            [
              'Status',
              <Tag key="s" color={t.status === 'Completed' ? 'green' : 'gold'}>
                {t.status}
              </Tag>,
            ],
            ['Amount', moneyText(t.amount, 'USDT')],
            ['Reference', t.reference || '—'],
            ['Type', t.type],
            ['Balance Before', moneyText(t.balance_before, 'USDT')],
            ['Balance After', moneyText(t.balance_after, 'USDT')],
            ['From', t.from_name ?? t.wallet_from],
            ['To', t.to_name ?? t.wallet_to],
            ['Transaction Id', t.trans_ref],
            ['Transaction By', t.transferer ?? '—'],
          ]}
        />
      )}
    </Drawer>
  );
}
