import { useNavigate, useParams } from 'react-router';
import { CardDetail } from '@shared/ui/cards';
import { SimulatePanel } from './simulate';
import { useCan } from '../../components/Allowed';

/**
 * /admin/cards/{id}: the staff card detail (back-office §2.9, admin path): masked number only,
 * the sums summary instead of the details table, no Additional Spend Limit; the sandbox's simulation.
 */
export default function CardShow() {
  const { id } = useParams<{ id: string }>();
  const navigate = useNavigate();
  const maySimulate = useCan('cards.simulate');
  return (
    <CardDetail
      key={id}
      cardId={id ?? ''}
      staff
      backTo="/admin/cards"
      backLabel="Back to All Cards"
      onDeleted={() => navigate('/admin/cards')}
    >
      {maySimulate && <SimulatePanel cardId={id ?? ''} />}
    </CardDetail>
  );
}
