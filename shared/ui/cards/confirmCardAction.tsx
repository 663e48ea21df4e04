import { useQueryClient } from '@tanstack/react-query';
import { App, type MenuProps } from 'antd';
import { apiData } from '../../api/client';
import { messageOf } from '../../api/errors';
import type { ApiCard } from '../../contract';
import { useSubmit } from '../useSubmit';
import { refreshWallet } from '../wallet/keys';
import { usd } from './format';
import { refreshCards } from './keys';

/** What staff and customers both do to a card after confirming it. */
export type ConfirmedCardAction = 'freeze' | 'unfreeze' | 'delete';

type MenuItems = NonNullable<MenuProps['items']>;

/** Freeze Card or Unfreeze Card: basic cards cannot be frozen (customer-portal §1), deleted ones are done. */
export const freezeItems = (c: ApiCard): MenuItems =>
  c.is_deleted || c.type !== 'premium'
    ? []
    : [
        ...(c.state === 'Active' ? [{ key: 'freeze', label: 'Freeze Card' }] : []),
        ...(c.state === 'Deactivated' ? [{ key: 'unfreeze', label: 'Unfreeze Card' }] : []),
      ];

/** Delete Card, set apart at the end of a live card's menu. */
export const deleteItems = (c: ApiCard): MenuItems =>
  c.is_deleted ? [] : [{ type: 'divider' as const }, { key: 'delete', label: 'Delete Card', danger: true }];

/**
 * Freezing, unfreezing and deleting, as both apps do them: the question ('Please do you wish to … this
 * card?', with what a delete does to the balance), the call, its message, then the card queries read
 * again (and the wallet's after a delete, which may refund it). `onDone` runs before that reading.
 */
export function useConfirmCardAction(onDone: (what: ConfirmedCardAction) => void) {
  const qc = useQueryClient();
  const { modal, message } = App.useApp();
  const { submit } = useSubmit();

  async function act(what: ConfirmedCardAction, c: ApiCard) {
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
    onDone(what);
    await Promise.all([refreshCards(qc), ...(what === 'delete' ? [refreshWallet(qc)] : [])]);
  }

  return function confirm(what: ConfirmedCardAction, c: ApiCard) {
    const consequence =
      what !== 'delete' || c.balance === '0.00'
        ? null
        : c.type === 'basic'
          ? `The remaining balance of ${usd(c.balance)} on this basic card will be forfeited: it is not returned to the master wallet.`
          : `The balance of ${usd(c.balance)} will be returned to the master wallet.`;
    modal.confirm({
      title: `Please do you wish to ${what} this card?`,
      content: consequence ? <span data-testid="delete-consequence">{consequence}</span> : undefined,
      okText: 'Confirm',
      cancelText: 'Cancel',
      okButtonProps: what === 'delete' ? { danger: true } : undefined,
      onOk: () => act(what, c),
    });
  };
}
