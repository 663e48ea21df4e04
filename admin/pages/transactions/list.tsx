import { useSearchParams } from 'react-router';
import type { Query } from '@shared/api/client';
import { CardTransactionsScreen } from '@shared/ui/cards';
import { WalletTransactionsScreen } from '@shared/ui/wallet';

/** ?company_id|individual_id&acc_name narrow a report to one account, as the customer lists link it. */
function useAccount(): { params: Query; prefix: string } {
  const [search] = useSearchParams();
  const companyId = search.get('company_id') ?? undefined;
  const individualId = search.get('individual_id') ?? undefined;
  const name = search.get('acc_name');
  return { params: { company_id: companyId, individual_id: individualId }, prefix: name ? `${name} - ` : '' };
}

/** /admin/wallet-transactions (back-office §2.13): every wallet's movements, or one account's, by date range. */
export function StaffWalletTransactions() {
  const { params, prefix } = useAccount();
  return (
    <WalletTransactionsScreen key={JSON.stringify(params)} params={params} title={`${prefix}Wallet Transactions`} />
  );
}

/** /admin/card-transactions (back-office §2.13): a card of any account (or of the named one) and a date range. */
export function StaffCardTransactions() {
  const { params, prefix } = useAccount();
  return (
    <CardTransactionsScreen key={JSON.stringify(params)} staff params={params} title={`${prefix}Card Transactions`} />
  );
}
