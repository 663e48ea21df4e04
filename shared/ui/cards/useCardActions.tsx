import type { MenuProps } from 'antd';
import { useState } from 'react';
import type { ApiCard } from '../../contract';
import { type ConfirmedCardAction, deleteItems, freezeItems, useConfirmCardAction } from './confirmCardAction';

export type CardPanel = 'fund' | 'withdraw' | 'spend-limit' | null;

/**
 * The card detail's options: which entries apply to this card on this path, the confirmations
 * ('Please do you wish to … this card?'), and the panels they open.
 */
export function useCardActions({
  card,
  staff,
  onTransactions,
  onDeleted,
}: {
  card: ApiCard | undefined;
  staff: boolean;
  onTransactions(): void;
  onDeleted(): void;
}) {
  const [panel, setPanel] = useState<CardPanel>(null);
  const confirm = useConfirmCardAction((what) => {
    if (what === 'delete') onDeleted();
  });

  const premium = card?.type === 'premium';
  const live = !!card && !card.is_deleted;
  const items: NonNullable<MenuProps['items']> = !card
    ? []
    : [
        { key: 'transactions', label: 'Card Transactions' },
        ...(live && premium
          ? [
              { key: 'withdraw', label: 'Card Withdrawal' },
              { key: 'fund', label: 'Fund Card' },
            ]
          : []),
        // Spending limits apply to Visa cards only.
        ...(live && !staff && card.purpose === 'media'
          ? [{ key: 'spend-limit', label: 'Additional Spend Limit' }]
          : []),
        ...freezeItems(card),
        ...deleteItems(card),
      ];

  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (!card) return;
    if (key === 'transactions') onTransactions();
    else if (key === 'fund' || key === 'withdraw' || key === 'spend-limit') setPanel(key);
    else confirm(key as ConfirmedCardAction, card);
  };

  return { items, onMenu, panel, closePanel: () => setPanel(null) };
}
