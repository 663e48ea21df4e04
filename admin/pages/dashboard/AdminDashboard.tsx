import { Flex } from 'antd';
import dayjs from 'dayjs';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { AttentionTiles } from './AttentionTiles';
import { MasterBalancesCard } from './MasterBalancesCard';
import { WalletTopupsCard } from './WalletTopupsCard';
import { useCan } from '../../components/Allowed';

/**
 * /admin: the back-office home (spec §2.4): what needs attention (issue 31), the three master wallet cards (general/Mastercard,
 * media/Visa, tokencard) with their available and ledger balances, then the Wallet Top-Ups table.
 */
export default function AdminDashboard() {
  const session = useSession();
  // The master balances are money figures: for roles that read them (Support reads customers only).
  const seesBalances = useCan('reports.read');
  return (
    <>
      <PageHeader
        title="Dashboard"
        subtitle={`Welcome, ${session?.user.first_name ?? ''} · ${dayjs().format('dddd, D MMMM YYYY')}`}
      />
      <Flex vertical gap={16}>
        <AttentionTiles />
        {seesBalances && <MasterBalancesCard />}
        <WalletTopupsCard />
      </Flex>
    </>
  );
}
