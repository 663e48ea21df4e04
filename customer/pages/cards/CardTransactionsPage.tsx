import { useSearchParams } from 'react-router';
import { CardTransactionsScreen } from '@shared/ui/cards';

/** /portal/card-transactions: the shared report over the customer's own cards (?card= preselects one). */
export default function CardTransactionsPage() {
  const [params] = useSearchParams();
  return <CardTransactionsScreen initialCardId={params.get('card') ?? undefined} />;
}
