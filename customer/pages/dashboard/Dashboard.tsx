import { PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '@shared/ui/useSession';
import { BalanceCard, useIsPhone, useLiveWallet } from '@shared/ui/wallet';
import { SetupBanner } from '../verification/SetupBanner';
import { useVerificationStatus } from '../verification/useVerification';
import { TopUpModal, TransferModal } from '../wallet/WalletDialogs';
import { FirstCard } from './FirstCard';
import { RecentTransactions } from './RecentTransactions';

function greeting(hour: number) {
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => dayjs());
  useEffect(() => {
    const t = setInterval(() => setNow(dayjs()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/** /portal: greeting, the account-setup banner, the master wallet, a first card's invitation, recent transactions. */
export default function Dashboard({ kycReady }: { kycReady: boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const now = useNow();
  const phone = useIsPhone();
  const [dialog, setDialog] = useState<'topup' | 'transfer' | null>(null);
  const { latest } = useVerificationStatus(!!session && session.user.state !== 'Verified');
  // A deposit credits itself: the balance and Recent Transactions follow without a reload.
  useLiveWallet(session?.user.wallet_id);
  if (!session) return null;
  const { user } = session;
  const walletId = user.wallet_id;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <div>
        <Typography.Title level={1} className="cw-page-title">
          {greeting(now.hour())}, {user.first_name}
        </Typography.Title>
        <Typography.Text type="secondary">{now.format('dddd, D MMMM YYYY · HH:mm')}</Typography.Text>
      </div>
      {user.state !== 'Verified' && (
        <SetupBanner
          state={user.state}
          rejected={latest?.state === 'rejected' && user.state === 'Unverified' ? latest : null}
          onSetUp={kycReady ? () => navigate('/portal/kycverifications') : undefined}
          phone={phone}
        />
      )}
      {walletId && (
        <>
          <BalanceCard
            walletId={walletId}
            actions={
              <>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('topup')} block={phone}>
                  Top Up
                </Button>
                <Button icon={<SwapOutlined />} onClick={() => setDialog('transfer')} block={phone}>
                  Transfer
                </Button>
              </>
            }
          />
          <FirstCard />
          <RecentTransactions walletId={walletId} />
          <TopUpModal open={dialog === 'topup'} walletId={walletId} onClose={() => setDialog(null)} />
          <TransferModal open={dialog === 'transfer'} walletId={walletId} onClose={() => setDialog(null)} />
        </>
      )}
    </Space>
  );
}
