import { MoreOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Form, Input, type MenuProps, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '@shared/api/errors';
import { type ApiCard, type Permission, can, reasonBody } from '@shared/contract';
import { useSession } from '@shared/ui/useSession';
import {
  type ConfirmedCardAction,
  deleteItems,
  freezeItems,
  refreshCards,
  useConfirmCardAction,
} from '@shared/ui/cards';
import { WithdrawPanel } from '@shared/ui/cards/CardPanels';
import { applyFieldErrors } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { useAction } from '../../components/refineForms';

type Toggle = 'flag' | 'unflag' | 'suspend' | 'unsuspend';

/**
 * The row menu of back-office §2.8, in its order: View Card Details; Freeze Card (if Active);
 * Unfreeze Card (if Deactivated); Unflag Card (if flagged); Unsuspend Card (while suspended);
 * Flag Card (if not flagged, not deleted); Suspend Card (if not suspended, not deleted); Card Withdrawal; Delete Card (if
 * not deleted). Freezing and withdrawing are for live premium cards (the server refuses basic ones).
 */
function cardMenuItems(c: ApiCard, may: (p: Permission) => boolean): NonNullable<MenuProps['items']> {
  const live = !c.is_deleted;
  const freeze = may('cards.freeze');
  return [
    { key: 'view', label: 'View Card Details' },
    ...(freeze ? freezeItems(c) : []),
    ...(freeze && c.flagged ? [{ key: 'unflag', label: 'Unflag Card' }] : []),
    ...(freeze && c.suspended ? [{ key: 'unsuspend', label: 'Unsuspend Card' }] : []),
    ...(freeze && live && !c.flagged ? [{ key: 'flag', label: 'Flag Card' }] : []),
    ...(freeze && live && !c.suspended ? [{ key: 'suspend', label: 'Suspend Card' }] : []),
    ...(may('cards.money') && live && c.type === 'premium' ? [{ key: 'withdraw', label: 'Card Withdrawal' }] : []),
    ...(may('cards.manage') ? deleteItems(c) : []),
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
  const role = useSession()?.user.role;
  const may = (p: Permission) => can(role, p);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const confirm = useConfirmCardAction(onChanged);
  const [reason, setReason] = useState<{ card: ApiCard; what: Toggle } | null>(null);
  const [withdraw, setWithdraw] = useState<ApiCard | null>(null);

  const refresh = async () => {
    onChanged();
    await refreshCards(qc);
  };

  function onMenu(c: ApiCard, key: string) {
    if (key === 'view') navigate(`/admin/cards/${c.id}`);
    else if (key === 'withdraw') setWithdraw(c);
    else if (key === 'flag' || key === 'unflag' || key === 'suspend' || key === 'unsuspend')
      setReason({ card: c, what: key });
    else confirm(key as ConfirmedCardAction, c);
  }

  const menuButton = (c: ApiCard) => (
    // The row opens the card; the menu button and its entries must not.
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops the row's click; the button inside is the control
    <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()} role="presentation">
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{ items: cardMenuItems(c, may), onClick: ({ key }) => onMenu(c, key) }}
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
