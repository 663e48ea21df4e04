import { MoreOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Form, Input, type MenuProps, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { type ApiCard, reasonBody } from '@shared/contract';
import { refreshCards, usd } from '@shared/ui/cards';
import { WithdrawPanel } from '@shared/ui/cards/CardPanels';
import { applyFieldErrors } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { useSubmit } from '@shared/ui/useSubmit';
import { refreshWallet } from '@shared/ui/wallet';
import { useAction } from '../../components/refineForms';

export type Toggle = 'flag' | 'unflag' | 'suspend' | 'unsuspend';
type Simple = 'freeze' | 'unfreeze' | 'delete';

/**
 * The row menu of back-office §2.8, in its order: View Card Details; Freeze Card (if Active);
 * Unfreeze Card (if Deactivated); Unflag Card (if flagged); Unsuspend Card (while suspended);
 * Flag Card (if not flagged, not deleted); Suspend Card (if not suspended, not deleted); Card Withdrawal; Delete Card (if
 * not deleted). Freezing and withdrawing are for live premium cards (the server refuses basic ones).
 */
export function cardMenuItems(c: ApiCard): NonNullable<MenuProps['items']> {
  const live = !c.is_deleted;
  const premium = c.type === 'premium';
  return [
    { key: 'view', label: 'View Card Details' },
    ...(live && premium && c.state === 'Active' ? [{ key: 'freeze', label: 'Freeze Card' }] : []),
    ...(live && premium && c.state === 'Deactivated' ? [{ key: 'unfreeze', label: 'Unfreeze Card' }] : []),
    ...(c.flagged ? [{ key: 'unflag', label: 'Unflag Card' }] : []),
    ...(c.suspended ? [{ key: 'unsuspend', label: 'Unsuspend Card' }] : []),
    ...(live && !c.flagged ? [{ key: 'flag', label: 'Flag Card' }] : []),
    ...(live && !c.suspended ? [{ key: 'suspend', label: 'Suspend Card' }] : []),
    ...(live && premium ? [{ key: 'withdraw', label: 'Card Withdrawal' }] : []),
    ...(live ? [{ type: 'divider' as const }, { key: 'delete', label: 'Delete Card', danger: true }] : []),
  ];
}

/** The reason dialog of flag, unflag, suspend and unsuspend ('Please do you wish to … this card?'). */
function ReasonDialog({
  target,
  onClose,
  onDone,
}: {
  target: { card: ApiCard; what: Toggle } | null;
  onClose(): void;
  onDone(): void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const { message } = App.useApp();
  const { busy, run } = useAction<{ message: string }>();
  async function send(v: { reason: string }) {
    if (!target) return;
    const r = await run('post', `/cards/${target.what}/${target.card.id}`, { reason: v.reason.trim() });
    if (!r.ok) {
      if (!applyFieldErrors(form, r.error))
        message.error(messageOf(r.error, 'Something went wrong. Please try again.'), 4);
      return;
    }
    message.success(r.data.data.message, 2);
    onDone();
  }
  return (
    <Modal
      open={!!target}
      title={target ? `Please do you wish to ${target.what} this card?` : ''}
      okText="Confirm"
      cancelText="Cancel"
      okButtonProps={{
        loading: busy,
        danger: target?.what === 'flag' || target?.what === 'suspend',
        htmlType: 'submit',
      }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {target && (
        <Typography.Paragraph type="secondary">
          {target.card.cardholder} ({target.card.nickname}) · {target.card.masked_number}
        </Typography.Paragraph>
      )}
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={send} preserve={false}>
        <Form.Item name="reason" label="Reason" rules={[contractRule(reasonBody.shape.reason)]}>
          <Input.TextArea rows={3} maxLength={500} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A card row's options: its menu button, and the dialogs and panels it opens. */
export function useCardRowActions(onChanged: () => void) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { modal, message } = App.useApp();
  const { submit } = useSubmit();
  const [reason, setReason] = useState<{ card: ApiCard; what: Toggle } | null>(null);
  const [withdraw, setWithdraw] = useState<ApiCard | null>(null);

  const refresh = async (wallet = false) => {
    onChanged();
    await Promise.all([refreshCards(qc), ...(wallet ? [refreshWallet(qc)] : [])]);
  };

  async function act(what: Simple, c: ApiCard) {
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
    await refresh(what === 'delete');
  }

  function confirm(what: Simple, c: ApiCard) {
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
  }

  function onMenu(c: ApiCard, key: string) {
    if (key === 'view') navigate(`/admin/cards/${c.id}`);
    else if (key === 'withdraw') setWithdraw(c);
    else if (key === 'flag' || key === 'unflag' || key === 'suspend' || key === 'unsuspend')
      setReason({ card: c, what: key });
    else confirm(key as Simple, c);
  }

  const menuButton = (c: ApiCard) => (
    // The row opens the card; the menu button and its entries must not.
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops the row's click; the button inside is the control
    <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()} role="presentation">
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{ items: cardMenuItems(c), onClick: ({ key }) => onMenu(c, key) }}
      >
        <Button type="text" icon={<MoreOutlined />} aria-label={`Options of card ${c.nickname}`} />
      </Dropdown>
    </span>
  );

  const dialogs = (
    <>
      <ReasonDialog
        target={reason}
        onClose={() => setReason(null)}
        onDone={() => {
          setReason(null);
          void refresh();
        }}
      />
      {withdraw && (
        <WithdrawPanel
          open={!!withdraw}
          card={withdraw}
          staff
          onClose={() => {
            setWithdraw(null);
            onChanged();
          }}
        />
      )}
    </>
  );
  return { menuButton, dialogs };
}
