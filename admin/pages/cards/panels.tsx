import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, type FormProps, Input, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { api, type Query } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { type ApiCard, type Paged, cardAmountBody, changeStatusTokenBody } from '@shared/contract';
import { type CardPurpose, FEES_FOR } from '@shared/fees';
import { formatMoney } from '@shared/money';
import {
  CardFilterDrawer,
  type CardFilterValues,
  cardOptionLabel,
  FeePreview,
  overBalanceRule,
  refreshCards,
  useCardFeeSchedule,
  useConfirmCardMoney,
  usd,
  withinCardBalance,
} from '@shared/ui/cards';
import { NOT_ARIA_REQUIRED, applyFieldErrors, sayFailure } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { amountRule, DetailsDrawer, refreshWallet, typedCents } from '@shared/ui/wallet';
import { type ListQuery, useSearchAgain } from '../../components/FilterBar';
import { useAction } from '../../components/refineForms';
import { useCan } from '../../components/Allowed';
import { doneOrSent, heldForApproval } from '../../components/approvals';

export type CardSearch = CardFilterValues;

/** Who created the cards of this scope (the 'Created By' choices), from the scope's cards. */
function useCreators(scope: Query, enabled: boolean) {
  return useQuery({
    queryKey: ['cards', 'creators', scope],
    queryFn: async () => {
      const r = await api<Paged<ApiCard>>('GET', '/cards', { query: { ...scope, per_page: 100 }, silent: true });
      const byId = new Map<string, string>();
      for (const c of r.data) if (c.created_by_id) byId.set(c.created_by_id, c.created_by ?? c.created_by_id);
      return [...byId].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
    },
    enabled,
  });
}

/**
 * 'Search Cards' (back-office §2.8): start/end date, for, purpose, type, active flag, search text
 * and 'Created By' (enabled only for admins), over the list's Refine search form.
 */
export function SearchCardsPanel({
  open,
  onClose,
  formProps,
  query,
  scope,
}: {
  open: boolean;
  onClose(): void;
  formProps: FormProps<CardSearch>;
  /** the list's query (useTable's tableQuery) */
  query: ListQuery;
  scope: Query;
}) {
  const admin = useCan('customers.read');
  const creators = useCreators(scope, open && admin);
  const form = formProps.form!;
  const search = useSearchAgain(query, formProps.onFinish);
  return (
    <CardFilterDrawer
      variant="staff"
      open={open}
      onClose={onClose}
      formProps={{ ...formProps, 'aria-label': 'Search Cards' }}
      onFinish={search}
      onReset={() => {
        form.resetFields();
        form.submit();
      }}
    >
      <Form.Item name="created_by" label="Created By" extra={admin ? undefined : 'For admins only'}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          disabled={!admin}
          placeholder="Anyone"
          loading={creators.isLoading}
          options={creators.data ?? []}
          notFoundContent={creators.isLoading ? 'Loading…' : 'No creators in this list'}
        />
      </Form.Item>
    </CardFilterDrawer>
  );
}

type TokenForm = { card_token: string; status: 'activate' | 'deactivate' };

/** 'Activate Cards': freeze or unfreeze a card by the issuer's card token. */
export function ActivateCardsPanel({
  open,
  onClose,
  walletId,
  onDone,
}: {
  open: boolean;
  onClose(): void;
  walletId?: string;
  onDone(): void;
}) {
  const [form] = Form.useForm<TokenForm>();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { busy, run } = useAction<{ message: string }>();
  const [error, setError] = useState<string>();
  async function send(v: TokenForm) {
    setError(undefined);
    const r = await run('post', '/cards/change-status-token', {
      card_token: v.card_token.trim(),
      status: v.status,
      ...(walletId ? { wallet_id: walletId } : {}),
    });
    if (!r.ok) {
      if (!applyFieldErrors(form, r.error)) setError(messageOf(r.error, 'Something went wrong. Please try again.'));
      return;
    }
    message.success(r.data.data.message, 2);
    form.resetFields();
    await refreshCards(qc);
    onDone();
  }
  return (
    <DetailsDrawer title="Activate Cards" open={open} onClose={onClose}>
      <Typography.Paragraph type="secondary">Change a card's status by its card token.</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ status: 'activate' }}
        onFinish={send}
      >
        <Form.Item name="card_token" label="Card Token" rules={[contractRule(changeStatusTokenBody.shape.card_token)]}>
          <Input autoComplete="off" style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Form.Item
          required={NOT_ARIA_REQUIRED}
          name="status"
          label="Status"
          rules={[{ required: true, message: 'Status is required' }]}
        >
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { label: 'Activate', value: 'activate' },
              { label: 'Deactivate', value: 'deactivate' },
            ]}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Change Status
        </Button>
      </Form>
    </DetailsDrawer>
  );
}

type WithdrawForm = { card?: string; amount: string };

/** 'Card Withdrawal': a premium card's funds back to its owner's master wallet, with the fees. */
export function CardWithdrawalPanel({
  open,
  onClose,
  scope,
  onDone,
}: {
  open: boolean;
  onClose(): void;
  scope: Query;
  onDone(): void;
}) {
  const [form] = Form.useForm<WithdrawForm>();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { busy, run } = useAction<{ message: string }>();
  const cards = useQuery({
    queryKey: ['cards', 'withdrawable', scope],
    queryFn: async () =>
      (
        await api<Paged<ApiCard>>('GET', '/cards', {
          query: { ...scope, type: 'premium', per_page: 100 },
          silent: true,
        })
      ).data.filter((c) => !c.is_deleted),
    enabled: open,
  });
  // Hooks at the top level only: inside find's callback they ran once per loaded card.
  const chosenId = Form.useWatch('card', form);
  const cents = typedCents(Form.useWatch('amount', form));
  const chosen = cards.data?.find((c) => c.id === chosenId);
  const schedule = useCardFeeSchedule({ staff: true, walletId: chosen?.wallet_id }, open && !!chosen);
  const confirmMoney = useConfirmCardMoney();

  function send(v: WithdrawForm) {
    if (!chosen) return;
    confirmMoney({
      kind: 'withdraw',
      card: chosen,
      cents: typedCents(v.amount)!,
      schedule: schedule.data,
      names: FEES_FOR.cardWithdrawal(chosen.purpose as CardPurpose),
      move: () => move(v),
      refuse: (text) => form.setFields([{ name: 'amount', errors: [text] }]),
    });
  }

  async function move(v: WithdrawForm) {
    const r = await run('post', '/cards/withdraw-funds', { card: v.card, amount: formatMoney(typedCents(v.amount)!) });
    if (!r.ok) {
      sayFailure(form, r.error, (text) => message.error(text, 4), 'Something went wrong. Please try again.');
      return;
    }
    message.success(doneOrSent(r.data.data, r.data.data.message), heldForApproval(r.data.data) ? 5 : 2);
    form.resetFields();
    await Promise.all([refreshCards(qc), refreshWallet(qc)]);
    onDone();
  }

  return (
    <DetailsDrawer title="Card Withdrawal" open={open} onClose={onClose}>
      <Typography.Paragraph type="secondary">
        Move a premium card's funds into its owner's master wallet.
      </Typography.Paragraph>
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ amount: '0.00' }}
        onFinish={send}
      >
        <Form.Item
          required={NOT_ARIA_REQUIRED}
          name="card"
          label="Card"
          rules={[contractRule(cardAmountBody.shape.card)]}
          extra={chosen ? `On the card: ${usd(chosen.balance)} · ${chosen.owner_name ?? ''}` : undefined}
        >
          <Select
            showSearch
            optionFilterProp="label"
            placeholder="select card"
            loading={cards.isLoading}
            options={(cards.data ?? []).map((c) => ({ value: c.id, label: cardOptionLabel(c) }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label="Amount"
          dependencies={['card']}
          rules={[amountRule(), overBalanceRule(chosen, usd(chosen?.balance))]}
        >
          <Input inputMode="decimal" placeholder="USD 5000.00" addonBefore="USD" autoComplete="off" />
        </Form.Item>
        <div style={{ marginBottom: 16 }}>
          <FeePreview
            schedule={schedule}
            names={chosen ? FEES_FOR.cardWithdrawal(chosen.purpose as CardPurpose) : null}
            cents={withinCardBalance(chosen, cents) ? cents : null}
            totals={(fees, amount) => [
              { label: 'To the master wallet', cents: Math.max(amount - fees.total, 0), testId: 'fee-grand-total' },
            ]}
          />
        </div>
        <Button type="primary" htmlType="submit" block loading={busy} disabled={!chosen}>
          Withdraw Funds
        </Button>
      </Form>
    </DetailsDrawer>
  );
}
