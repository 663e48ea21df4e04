import { useSession } from '@shared/ui/useSession';
import { WalletTransactionsScreen } from '@shared/ui/wallet';

/** /portal/wallet-transactions: the shared report, on the customer's own wallet. */
export default function WalletTransactionsPage() {
  const session = useSession();
  if (!session) return null;
  return <WalletTransactionsScreen walletId={session.user.wallet_id} />;
}
