import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, Radio, Row, Select } from 'antd';
import { apiData } from '@shared/api/client';
import {
  type ApiCardDetail,
  type CardType,
  MIN_CARD_LOAD_CENTS,
  SPENDING_CONTROLS,
  type SpendingControl,
  createCardBody,
  spendingLimitBody,
} from '@shared/contract';
import { FEES_FOR } from '@shared/fees';
import { formatMoney } from '@shared/money';
import { CONTROL_LABELS, FeePreview, refreshCards, useCardFeeSchedule } from '@shared/ui/cards';
import { NOT_ARIA_REQUIRED, sayFailure } from '@shared/ui/forms';
import { contractRule, requiredMessage, requiredRule } from '@shared/ui/contractRules';
import { useSession } from '@shared/ui/useSession';
import { useSubmit } from '@shared/ui/useSubmit';
import { amountRule, refreshWallet, typedCents, usdt, useIsPhone, useWalletBalance } from '@shared/ui/wallet';

interface CreateForm {
  first_name: string;
  last_name: string;
  nickname: string;
  card_amount: string;
  type: CardType;
  purpose?: 'media' | 'general';
  spending_limit?: string;
  spending_control: SpendingControl;
}

const minLoad = {
  validator: (_: unknown, v: unknown) => {
    const c = typedCents(v);
    return c !== null && c < MIN_CARD_LOAD_CENTS
      ? Promise.reject(new Error('The minimum card load is USD 3.00'))
      : Promise.resolve();
  },
};

/** 'Complete the form below to create your new card': Visa cards also take a spending limit. */
export function CreateCardForm({ type, onDone }: { type: CardType; onDone(): void }) {
  const qc = useQueryClient();
  const phone = useIsPhone();
  const session = useSession();
  const { modal } = App.useApp();
  const [form] = Form.useForm<CreateForm>();
  const { busy, submit } = useSubmit();
  const purpose = Form.useWatch('purpose', form);
  const cents = typedCents(Form.useWatch('card_amount', form));
  const schedule = useCardFeeSchedule({});
  const wallet = useWalletBalance(session?.user.wallet_id);
  const visa = purpose === 'media';

  async function create(v: CreateForm) {
    const body = {
      first_name: v.first_name.trim(),
      last_name: v.last_name.trim(),
      nickname: v.nickname.trim(),
      type: v.type,
      purpose: v.purpose,
      card_amount: formatMoney(typedCents(v.card_amount)!),
      // Mastercard payloads carry no spending fields.
      ...(v.purpose === 'media'
        ? { spending_limit: formatMoney(typedCents(v.spending_limit)!), spending_control: v.spending_control }
        : {}),
    };
    const r = await submit((key) =>
      apiData<ApiCardDetail>('POST', '/cards', { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok) {
      sayFailure(
        form,
        r.error,
        (content) => modal.error({ title: 'Failed', content, okText: 'Close' }),
        'The card could not be created. Please try again.',
      );
      return;
    }
    void refreshWallet(qc);
    void refreshCards(qc);
    modal.success({
      title: 'Successful',
      content: 'Your card has been created successfully. Click continue to view your card(s)',
      okText: 'Continue',
      onOk: onDone,
    });
  }

  const half = phone ? 24 : 12;
  return (
    <Card style={{ maxWidth: 760 }} styles={{ body: { padding: phone ? 16 : 24 } }}>
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ type, spending_control: 'lifetime' }}
        onFinish={create}
        scrollToFirstError
      >
        <Row gutter={16}>
          <Col span={half}>
            <Form.Item
              name="first_name"
              label="First Name"
              rules={[
                // The contract's "X is required"; the form words its own limits.
                requiredRule(createCardBody.shape.first_name),
                { max: 50, message: 'First Name must be at most 50 characters' },
              ]}
            >
              <Input autoComplete="given-name" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item
              name="last_name"
              label="Last Name"
              rules={[
                requiredRule(createCardBody.shape.last_name),
                { max: 50, message: 'Last Name must be at most 50 characters' },
              ]}
            >
              <Input autoComplete="family-name" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item
              name="nickname"
              label="Unique Card Nickname"
              rules={[
                requiredRule(createCardBody.shape.nickname),
                { max: 50, message: 'Nickname must be at most 50 characters' },
              ]}
            >
              <Input placeholder="e.g. Online shopping" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item
              name="card_amount"
              label="Amount"
              rules={[amountRule(requiredMessage(createCardBody.shape.card_amount)), minLoad]}
              extra={wallet.balance !== null ? `Master wallet: ${usdt(wallet.balance)}` : undefined}
            >
              <Input inputMode="decimal" placeholder="0.00" addonBefore="USD" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item
              required={NOT_ARIA_REQUIRED}
              name="type"
              label="Card Type"
              rules={[contractRule(createCardBody.shape.type)]}
            >
              <Select
                options={[
                  { value: 'basic', label: 'Basic' },
                  { value: 'premium', label: 'Premium' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item
              required={NOT_ARIA_REQUIRED}
              name="purpose"
              label="Card Purpose"
              rules={[contractRule(createCardBody.shape.purpose)]}
            >
              <Select
                placeholder="Visa or Mastercard"
                options={[
                  { value: 'media', label: 'Visa' },
                  { value: 'general', label: 'Mastercard' },
                ]}
              />
            </Form.Item>
          </Col>
          {visa && (
            <>
              <Col span={half}>
                <Form.Item
                  name="spending_limit"
                  label="Spending Limit (USD)"
                  rules={[amountRule(requiredMessage(spendingLimitBody.shape.spending_limit))]}
                >
                  <Input inputMode="decimal" placeholder="20,000.00" addonBefore="USD" autoComplete="off" />
                </Form.Item>
              </Col>
              <Col span={half}>
                <Form.Item
                  required={NOT_ARIA_REQUIRED}
                  name="spending_control"
                  label="Spending Control"
                  rules={[{ required: true, message: 'Spending Control is required' }]}
                >
                  <Radio.Group options={SPENDING_CONTROLS.map((c) => ({ value: c, label: CONTROL_LABELS[c] }))} />
                </Form.Item>
              </Col>
            </>
          )}
        </Row>
        <div style={{ marginBottom: 16 }}>
          <FeePreview
            schedule={schedule}
            names={purpose ? FEES_FOR.cardCreation(purpose) : null}
            cents={cents}
            totals={(fees, amount) => [
              { label: 'Total from your wallet', cents: amount + fees.total, testId: 'fee-grand-total' },
            ]}
          />
        </div>
        <Button type="primary" htmlType="submit" size="large" loading={busy} block={phone}>
          Create Card
        </Button>
      </Form>
    </Card>
  );
}
