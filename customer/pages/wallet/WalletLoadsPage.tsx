import { PlusOutlined } from '@ant-design/icons';
import { Button, Col, Result, Row, Space } from 'antd';
import { useState } from 'react';
import type { ApiTopup } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { ResultHeading } from '@shared/ui/ResultHeading';
import { useSession } from '@shared/ui/useSession';
import { BalanceCard, DetailsDrawer, TopupDetails, useDetails, useIsPhone, useLiveWallet } from '@shared/ui/wallet';
import { DepositAddressCard } from './DepositAddress';
import { LoadsList } from './LoadsList';
import { TopUpFlow } from './TopUpFlow';
import { TopUpDrawer } from './WalletDialogs';

/** /portal/wallet-loads: the balance, Top Up, the wallet's deposit address, and its top-ups (Pending ones can be finished). */
export default function WalletLoadsPage() {
  const session = useSession();
  const phone = useIsPhone();
  const walletId = session?.user.wallet_id ?? null;
  const [topUp, setTopUp] = useState(false);
  const details = useDetails<ApiTopup>();
  // Deposits to the wallet's address credit themselves: the balance and this list follow without a reload.
  useLiveWallet(walletId);

  if (!walletId)
    return (
      <Result
        status="404"
        title={<ResultHeading>No master wallet</ResultHeading>}
        subTitle="This account has no master wallet."
      />
    );
  const open = details.item;
  const pending = open?.state === 'Pending';

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title="Wallet Loads" subtitle="Top up your master wallet and follow your top-ups." />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={13} xl={14}>
          <BalanceCard
            walletId={walletId}
            style={{ height: '100%' }}
            actions={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setTopUp(true)} block={phone}>
                Top Up
              </Button>
            }
          />
        </Col>
        <Col xs={24} lg={11} xl={10}>
          <DepositAddressCard walletId={walletId} />
        </Col>
      </Row>
      <LoadsList variant="wallet" walletId={walletId} onOpen={details.show} />
      <TopUpDrawer open={topUp} walletId={walletId} onClose={() => setTopUp(false)} />
      <DetailsDrawer open={details.open} onClose={details.close}>
        {open && pending && <TopUpFlow walletId={walletId} resume={open.reference} onDone={details.close} />}
        {open && !pending && <TopupDetails topup={open} />}
      </DetailsDrawer>
    </Space>
  );
}
