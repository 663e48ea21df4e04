import { useQueryClient } from '@tanstack/react-query';
import { App, type MenuProps } from 'antd';
import { useState } from 'react';
import { apiData } from '../../api/client';
import { messageOf } from '../../api/errors';
import type { ApiCard } from '../../contract';
import { useSubmit } from '../useSubmit';
import { refreshWallet } from '../wallet/keys';
import { usd } from './format';
import { refreshCards } from './keys';

export type CardPanel = 'fund' | 'withdraw' | 'spend-limit' | null;

type Confirmable = 'delete' | 'freeze' | 'unfreeze';

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
  const qc = useQueryClient();
  const { modal, message } = App.useApp();
  const { submit } = useSubmit();
  const [panel, setPanel] = useState<CardPanel>(null);

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
        // Basic cards cannot be frozen (customer-portal §1): the entries are for premium cards.
        ...(live && premium && card.state === 'Active' ? [{ key: 'freeze', label: 'Freeze Card' }] : []),
        ...(live && premium && card.state === 'Deactivated' ? [{ key: 'unfreeze', label: 'Unfreeze Card' }] : []),
        ...(live ? [{ type: 'divider' as const }, { key: 'delete', label: 'Delete Card', danger: true }] : []),
      ];

  async function act(what: Confirmable, c: ApiCard) {
    const r = await submit((key) =>
      what === 'delete'
        ? apiData<{ message: string }>('DELETE', `/cards/${c.id}`, { idempotencyKey: key, silent: true })
        : apiData<{ message: string }>('POST', `/cards/change-status/${c.id}`, {
            body: { status: what === 'freeze' ? 'deactivate' : 'activate' },
            idempotencyKey: key,
            silent: true,
          }),
    );
    if (!r.ok) {
      message.error(messageOf(r.error, 'Something went wrong. Please try again.'), 4);
      return;
    }
    message.success(r.data.message, 2);
    if (what === 'delete') onDeleted();
    await Promise.all([refreshCards(qc), ...(what === 'delete' ? [refreshWallet(qc)] : [])]);
  }

  function confirm(what: Confirmable, c: ApiCard) {
    const remaining = usd(c.balance);
    const consequence =
      what !== 'delete' || c.balance === '0.00'
        ? null
        : c.type === 'basic'
          ? `The remaining balance of ${remaining} on this basic card will be forfeited: it is not returned to the master wallet.`
          : `The balance of ${remaining} will be returned to the master wallet.`;
    modal.confirm({
      title: `Please do you wish to ${what} this card?`,
      content: consequence ? <span data-testid="delete-consequence">{consequence}</span> : undefined,
      okText: 'Confirm',
      cancelText: 'Cancel',
      okButtonProps: what === 'delete' ? { danger: true } : undefined,
      onOk: () => act(what, c),
    });
  }

  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (!card) return;
    if (key === 'transactions') onTransactions();
    else if (key === 'fund' || key === 'withdraw' || key === 'spend-limit') setPanel(key);
    else confirm(key as Confirmable, card);
  };

  return { items, onMenu, panel, closePanel: () => setPanel(null) };
}
