import type { MenuProps } from 'antd';
import { useState } from 'react';
import { type ApiCard, type Permission, can } from '../../contract';
import { useSession } from '../useSession';
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

  const role = useSession()?.user.role;
  // Staff see what their role may do (shared/contract/permissions.ts); customers what they own.
  const may = (p: Permission) => !staff || can(role, p);
  const premium = card?.type === 'premium';
  const live = !!card && !card.is_deleted;
  const items: NonNullable<MenuProps['items']> = !card
    ? []
    : [
        { key: 'transactions', label: 'Card Transactions' },
        ...(live && premium && may('cards.money')
          ? [
              { key: 'withdraw', label: 'Card Withdrawal' },
              { key: 'fund', label: 'Fund Card' },
            ]
          : []),
        // Spending limits apply to Visa cards only.
        ...(live && !staff && card.purpose === 'media'
          ? [{ key: 'spend-limit', label: 'Additional Spend Limit' }]
          : []),
        ...(may('cards.freeze') ? freezeItems(card) : []),
        ...(may('cards.manage') ? deleteItems(card) : []),
      ];

  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (!card) return;
    if (key === 'transactions') onTransactions();
    else if (key === 'fund' || key === 'withdraw' || key === 'spend-limit') setPanel(key);
    else confirm(key as ConfirmedCardAction, card);
  };

  return { items, onMenu, panel, closePanel: () => setPanel(null) };
}
