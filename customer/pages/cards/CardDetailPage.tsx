import { useNavigate, useParams } from 'react-router';
import { CardDetail } from '@shared/ui/cards';

/** /portal/prepaid-cards/{cardId}: the shared card detail on the customer path. */
export default function CardDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  if (!id) return null;
  return (
    <CardDetail
      key={id}
      cardId={id}
      backTo="/portal/prepaid-cards"
      backLabel="Back to Prepaid Cards"
      onDeleted={() => navigate('/portal/prepaid-cards')}
    />
  );
}
