import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Select, Space, Typography } from 'antd';
import { apiData } from '../../api/client';
import { type ApiCard, MIN_CARD_LOAD_CENTS, cardAmountBody } from '../../contract';
import { type CardPurpose, FEES_FOR } from '../../fees';
import { formatMoney } from '../../money';
import { NOT_ARIA_REQUIRED, sayFailure } from '../forms';
import { contractRule } from '../contractRules';
import { useSubmit } from '../useSubmit';
import { DetailsDrawer } from '../wallet/DetailsDrawer';
import { amountRule, typedCents, usdt } from '../wallet/format';
import { refreshWallet } from '../wallet/keys';
import { useWalletBalance } from '../wallet/useWalletBalance';
import { overBalanceRule, useConfirmCardMoney, withinCardBalance } from './confirmCardMoney';
import { FeePreview } from './FeeLines';
import { cardOptionLabel, controlWords, usd } from './format';
import { useCardFeeSchedule, useCardList } from './hooks';
import { refreshCards } from './keys';

export interface PanelProps {
  open: boolean;
  onClose(): void;
  card: ApiCard;
  staff?: boolean;
}

type MoneyForm = { card?: string; amount: string };

/** A call that moves card money: the server's message as a toast, failures on the form and as a toast. */
function useCardCall() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
  const run = async <T extends { message: string }>(
    form: ReturnType<typeof Form.useForm<MoneyForm>>[0] | null,
    call: (key: string) => Promise<T>,
  ) => {
    const r = await submit(call);
    if (!r.ok) {
      sayFailure(
        form ?? undefined,
        r.error,
        (text) => message.error(text, 4),
        'Something went wrong. Please try again.',
      );
      return null;
    }
    message.success(r.data.message, 2);
    await Promise.all([refreshWallet(qc), refreshCards(qc)]);
    return r.data;
  };
  return { busy, run };
}

const minLoad = {
  validator: (_: unknown, v: unknown) => {
    const c = typedCents(v);
    return c !== null && c > 0 && c < MIN_CARD_LOAD_CENTS
      ? Promise.reject(new Error('The minimum card top-up is USD 3.00'))
      : Promise.resolve();
  },
};

/** Fund Card (premium) and Card Withdrawal (premium): card, amount, and the fees of that movement. */
function MoneyPanel({ open, onClose, card, staff, kind }: PanelProps & { kind: 'fund' | 'withdraw' }) {
  const [form] = Form.useForm<MoneyForm>();
  const { busy, run } = useCardCall();
  const fund = kind === 'fund';
  const cards = useCardList({ staff, params: { company_id: card.wallet_id } }, {}, open);
  const options = [card, ...(cards.data ?? []).filter((c) => c.id !== card.id)].filter(
    (c) => c.type === 'premium' && !c.is_deleted,
  );
  const chosenId = Form.useWatch('card', form);
  const chosen = options.find((c) => c.id === chosenId);
  const cents = typedCents(Form.useWatch('amount', form));
  const schedule = useCardFeeSchedule({ staff, walletId: card.wallet_id }, open);
  const wallet = useWalletBalance(open ? card.wallet_id : null);
  const confirmMoney = useConfirmCardMoney();
  const feeNames = chosen
    ? fund
      ? FEES_FOR.cardFunding(chosen.purpose as CardPurpose)
      : FEES_FOR.cardWithdrawal(chosen.purpose as CardPurpose)
    : null;
  // The fees of an amount the card cannot give are no one's fees: no preview for it.
  const previewCents = fund || withinCardBalance(chosen, cents) ? cents : null;

  async function move(v: MoneyForm) {
    const body = { card: v.card, amount: formatMoney(typedCents(v.amount)!) };
    const done = await run(form, (key) =>
      apiData<{ message: string }>('POST', fund ? '/cards/add-funds' : '/cards/withdraw-funds', {
        body,
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (done) {
      form.resetFields();
      onClose();
    }
  }

  function send(v: MoneyForm) {
    if (!chosen || !feeNames) return;
    confirmMoney({
      kind,
      card: chosen,
      cents: typedCents(v.amount)!,
      schedule: schedule.data,
      names: feeNames,
      move: () => move(v),
      refuse: (text) => form.setFields([{ name: 'amount', errors: [text] }]),
    });
  }

  return (
    <DetailsDrawer title={fund ? 'Fund Card' : 'Card Withdrawal'} open={open} onClose={onClose}>
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ card: card.id, amount: '0.00' }}
        onFinish={send}
      >
        <Form.Item
          name="card"
          label="Card"
          required={NOT_ARIA_REQUIRED}
          rules={[contractRule(cardAmountBody.shape.card)]}
        >
          <Select
            placeholder="select card"
            loading={cards.isLoading}
            options={options.map((c) => ({ value: c.id, label: cardOptionLabel(c) }))}
          />
        </Form.Item>
        <Form.Item
          label="Master Wallet"
          extra={wallet.balance !== null ? `Balance: ${usdt(wallet.balance)}` : wallet.error}
        >
          <Input
            value={card.wallet_id}
            readOnly
            disabled
            style={{ fontFamily: 'monospace', fontSize: 12 }}
            aria-label="Master Wallet"
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label="Amount"
          dependencies={['card']}
          rules={[amountRule(), ...(fund ? [minLoad] : [overBalanceRule(chosen, usd(chosen?.balance))])]}
          extra={!fund && chosen ? `On the card: ${usd(chosen.balance)}` : fund ? 'Minimum USD 3.00' : undefined}
        >
          <Input inputMode="decimal" placeholder="USD 5000.00" addonBefore="USD" autoComplete="off" />
        </Form.Item>
        <div style={{ marginBottom: 16 }}>
          <FeePreview
            schedule={schedule}
            names={feeNames}
            cents={previewCents}
            totals={(fees, amount) =>
              fund
                ? [{ label: 'Total from your wallet', cents: amount + fees.total, testId: 'fee-grand-total' }]
                : [
                    {
                      label: 'To your master wallet',
                      cents: Math.max(amount - fees.total, 0),
                      testId: 'fee-grand-total',
                    },
                  ]
            }
          />
        </div>
        <Button type="primary" htmlType="submit" block loading={busy} disabled={!chosenId}>
          {fund ? 'Fund Card' : 'Withdraw Funds'}
        </Button>
      </Form>
    </DetailsDrawer>
  );
}

export const FundCardPanel = (p: PanelProps) => <MoneyPanel {...p} kind="fund" />;
export const WithdrawPanel = (p: PanelProps) => <MoneyPanel {...p} kind="withdraw" />;

/** Additional Spending Limit (customer path): more spending on top of a Visa card's limit. */
export function SpendLimitPanel({ open, onClose, card }: PanelProps) {
  const [form] = Form.useForm<MoneyForm>();
  const { busy, run } = useCardCall();
  const visa = card.purpose === 'media';
  const hasLimit = card.spending_limit != null;

  async function send(v: MoneyForm) {
    const body = { card: card.id, spending_limit: formatMoney(typedCents(v.amount)!) };
    const done = await run(form, (key) =>
      apiData<{ message: string }>('POST', `/cards/add-spend-limit/${card.id}`, {
        body,
        idempotencyKey: key,
        silent: true,
      }),
    );
    if (done) {
      form.resetFields();
      onClose();
    }
  }

  return (
    <DetailsDrawer title="Additional Spending Limit" open={open} onClose={onClose}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {!visa && <Alert type="info" showIcon message="Not applicable! Spending limits apply to Visa cards only." />}
        {visa && !hasLimit && (
          <Alert type="info" showIcon message="Set a spending limit on this card first (Reports, Card Spending)." />
        )}
        {visa && hasLimit && (
          <Typography.Text type="secondary">
            Spending limit {usd(card.spending_limit)} {controlWords(card.spending_control)}; additional{' '}
            {usd(card.additional_spending_limit)}.
          </Typography.Text>
        )}
        <Form
          noValidate
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={send}
          disabled={!visa || !hasLimit}
        >
          <Form.Item name="amount" label="Amount" rules={[amountRule()]}>
            <Input inputMode="decimal" placeholder="USD 500.00" addonBefore="USD" autoComplete="off" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            Update Card
          </Button>
        </Form>
      </Space>
    </DetailsDrawer>
  );
}
