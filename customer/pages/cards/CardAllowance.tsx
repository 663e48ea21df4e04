import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { apiData } from '@shared/api/client';
import type { ApiCardAllowance } from '@shared/contract';
import { CARD_KEYS } from '@shared/ui/cards';

export function useCardAllowance() {
  return useQuery({
    queryKey: CARD_KEYS.allowance,
    queryFn: () => apiData<ApiCardAllowance>('GET', '/cards/allowance', { silent: true }),
  });
}

/** An unverified account that has used all its cards: 'Add New Card' says so instead of opening the form. */
export const atCardCap = (data: ApiCardAllowance | undefined) => data?.left === 0;

/**
 * An unverified account's card limit, said before the form is filled ("3 of 5 cards left"), not
 * only after a refused submission. Nothing for a verified account.
 */
export function CardAllowance() {
  const { data } = useCardAllowance();
  if (!data || data.limit === null || data.left === null) return null;
  const none = data.left === 0;
  return (
    <Alert
      type={none ? 'warning' : 'info'}
      showIcon
      data-testid="card-allowance"
      role={none ? 'alert' : undefined}
      style={{ marginBottom: 16 }}
      message={
        none
          ? `No cards left: unverified accounts may have ${data.limit} in all.`
          : `${data.left} of ${data.limit} cards left`
      }
      description="Cards you deleted count too. Complete your verification to create more."
    />
  );
}
