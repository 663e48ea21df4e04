import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, List, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { api } from '@shared/api/client';
import { type ApiCardTransaction, HOLD_EXPIRY_DAYS, type Paged } from '@shared/contract';
import { usd } from '@shared/ui/cards';
import { dateTime, useIsPhone } from '@shared/ui/wallet';
import {
  AmountField,
  CloseField,
  DaysField,
  MerchantFields,
  PartialField,
  PaymentField,
  StepModal,
  moneyOf,
} from './simulate-forms';

type Tx = ApiCardTransaction;
type Step = 'authorize' | 'refund' | 'force' | 'expire' | 'increment' | 'clear' | 'reverse';
type Open = { step: Step } | null;
type Said = { text: string; ok: boolean };

type Answer = Record<string, unknown>;
type Merchant = { amount: string; merchant: string; mcc: string; country: string };
const merchantBody = <V extends Merchant>(v: V) => ({
  ...v,
  amount: moneyOf(v.amount),
  mcc: v.mcc.trim(),
  country: v.country.trim().toUpperCase(),
});
const Intro = ({ children }: { children: ReactNode }) => (
  <Typography.Paragraph type="secondary">{children}</Typography.Paragraph>
);
const messageOf = (d: Answer): Said => ({ text: String(d.message ?? 'Done.'), ok: true });

/** An authorisation's answer in words: approved (maybe in part), or declined and why. */
function decisionOf(d: Answer, asked: string, merchant: string, increment = false): Said {
  if (!d.approved) return { text: `Declined: ${String(d.decline_reason ?? 'no reason was given')}`, ok: false };
  const got = String(d.approved_amount ?? asked);
  const what = increment ? 'Hold increased by' : 'Approved';
  return got === asked
    ? { text: `${what} ${usd(got)} at ${merchant}.`, ok: true }
    : { text: `${what} ${usd(got)} of ${usd(asked)} at ${merchant} (partial approval).`, ok: true };
}

/** The card's payments a refund may name (authorisations and force-posts); the pending ones take further steps. */
function usePayments(cardId: string) {
  return useQuery({
    // under 'cards', so every card change (and every step here) reads it again
    queryKey: ['cards', 'simulate', cardId],
    queryFn: async () =>
      (
        await api<Paged<Tx>>('GET', '/reports/view-cards-transactions', {
          query: { card: cardId, per_page: 100 },
          silent: true,
        })
      ).data.filter((t) => (t.kind === 'authorization' || t.kind === 'force_post') && t.status !== 'declined'),
  });
}

/**
 * Back-office card show, sandbox issuer: a merchant's messages against this card, one at a time —
 * authorise, increment, clear, reverse, refund, force-post — and the hold expiry run now. Each
 * answer is said here and the card's figures and transactions read themselves again. When the
 * issuer is not the sandbox the server refuses each message, and that refusal is what is said.
 */
export function SimulatePanel({ cardId }: { cardId: string }) {
  const phone = useIsPhone();
  const payments = usePayments(cardId);
  const [open, setOpen] = useState<Open>(null);
  // kept after its dialog closes, so the closing dialog still names its merchant
  const [auth, setAuth] = useState<Tx>();
  const onAuth = (step: Step, t: Tx) => {
    setAuth(t);
    setOpen({ step });
  };
  const [said, setSaid] = useState<Said | null>(null);
  const close = () => setOpen(null);
  const done = (text: string, ok: boolean) => {
    setSaid({ text, ok });
    setOpen(null);
  };
  const pending = (payments.data ?? []).filter((t) => t.kind === 'authorization' && t.status === 'approved');
  const held = auth?.held ?? auth?.amount ?? '0.00';
  const common = { onClose: close, onDone: done };

  return (
    <Card
      title="Simulate (sandbox)"
      style={{ marginTop: 24 }}
      styles={{ body: { padding: phone ? 12 : 24 } }}
      data-testid="simulate-panel"
    >
      <Typography.Paragraph type="secondary">
        Send this card the messages a merchant's network would: a payment, its changes, a refund.
      </Typography.Paragraph>
      <Flex wrap gap={8} style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setOpen({ step: 'authorize' })}>
          Authorise a payment
        </Button>
        <Button onClick={() => setOpen({ step: 'refund' })}>Refund</Button>
        <Button onClick={() => setOpen({ step: 'force' })}>Force-post</Button>
        <Button onClick={() => setOpen({ step: 'expire' })}>Expire holds now</Button>
      </Flex>
      {said && (
        <Alert
          type={said.ok ? 'success' : 'warning'}
          showIcon
          message={said.text}
          closable
          onClose={() => setSaid(null)}
          style={{ marginBottom: 16 }}
          role="status"
          data-testid="simulate-answer"
        />
      )}
      <section aria-labelledby="pending-authorisations">
        <Typography.Title id="pending-authorisations" level={2} style={{ fontSize: 16, marginTop: 0 }}>
          Pending authorisations
        </Typography.Title>
        <List
          loading={payments.isLoading}
          dataSource={pending}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No payment is on hold" /> }}
          renderItem={(t) => (
            <List.Item data-testid="pending-authorization">
              <Flex wrap justify="space-between" align="center" gap={8} style={{ width: '100%' }}>
                <div style={{ minWidth: 0 }}>
                  <Typography.Text strong>{t.merchant}</Typography.Text>
                  <div>
                    <Typography.Text type="secondary">
                      Holds {usd(t.held ?? t.amount)} of {usd(t.amount)} approved
                    </Typography.Text>
                  </div>
                </div>
                <Flex wrap gap={8}>
                  <Button
                    size="small"
                    onClick={() => onAuth('increment', t)}
                    aria-label={`Increment the hold at ${t.merchant}`}
                  >
                    Increment
                  </Button>
                  <Button
                    size="small"
                    onClick={() => onAuth('clear', t)}
                    aria-label={`Clear the payment at ${t.merchant}`}
                  >
                    Clear
                  </Button>
                  <Button
                    size="small"
                    onClick={() => onAuth('reverse', t)}
                    aria-label={`Reverse the hold at ${t.merchant}`}
                  >
                    Reverse
                  </Button>
                </Flex>
              </Flex>
            </List.Item>
          )}
        />
      </section>

      <StepModal<Merchant & { partial_allowed: boolean }>
        {...common}
        open={open?.step === 'authorize'}
        title="Authorise a payment"
        okText="Authorise"
        initialValues={{ country: 'GH', partial_allowed: false }}
        request={(v) => ({ url: '/sandbox/authorizations', body: { card_id: cardId, ...merchantBody(v) } })}
        answer={(d, v) => decisionOf(d, moneyOf(v.amount)!, v.merchant)}
      >
        <AmountField />
        <MerchantFields />
        <PartialField />
      </StepModal>
      <StepModal<{ amount: string }>
        {...common}
        open={open?.step === 'increment'}
        title={`Increment the hold at ${auth?.merchant ?? ''}`}
        okText="Increment"
        intro={auth && <Intro>It holds {usd(held)}; the merchant asks for more.</Intro>}
        request={(v) => ({ url: `/sandbox/authorizations/${auth!.id}/increment`, body: { amount: moneyOf(v.amount) } })}
        answer={(d, v) => decisionOf(d, moneyOf(v.amount)!, auth?.merchant ?? '', true)}
      >
        <AmountField label="Add to the hold" />
      </StepModal>
      <StepModal<{ amount: string; close_authorization: boolean }>
        {...common}
        open={open?.step === 'clear'}
        title={`Clear the payment at ${auth?.merchant ?? ''}`}
        okText="Clear"
        intro={auth && <Intro>It holds {usd(held)}. The merchant may clear less, or more (a tip).</Intro>}
        initialValues={{ amount: held, close_authorization: true }}
        request={(v) => ({
          url: `/sandbox/authorizations/${auth!.id}/clear`,
          body: { amount: moneyOf(v.amount), close_authorization: !!v.close_authorization },
        })}
        answer={messageOf}
      >
        <AmountField label="Amount to clear" />
        <CloseField />
      </StepModal>
      <StepModal<{ amount?: string }>
        {...common}
        open={open?.step === 'reverse'}
        title={`Reverse the hold at ${auth?.merchant ?? ''}`}
        okText="Reverse"
        intro={auth && <Intro>It holds {usd(held)}. Leave the amount empty to release all of it.</Intro>}
        request={(v) => ({
          url: `/sandbox/authorizations/${auth!.id}/reverse`,
          body: moneyOf(v.amount) ? { amount: moneyOf(v.amount) } : {},
        })}
        answer={messageOf}
      >
        <AmountField label="Amount to release" required={false} placeholder={`All of ${usd(held)}`} />
      </StepModal>
      <StepModal<Merchant & { transaction_id?: string }>
        {...common}
        open={open?.step === 'refund'}
        title="Refund to the card"
        okText="Refund"
        initialValues={{ country: 'GH' }}
        request={(v) => ({
          url: '/sandbox/refunds',
          body: {
            card_id: cardId,
            ...merchantBody(v),
            ...(v.transaction_id ? { transaction_id: v.transaction_id } : {}),
          },
        })}
        answer={messageOf}
      >
        <AmountField />
        <PaymentField
          options={(payments.data ?? []).map((t) => ({
            value: t.id,
            label: `${t.merchant} · ${usd(t.amount)} · ${dateTime(t.date_created)}`,
          }))}
        />
        <MerchantFields />
      </StepModal>
      <StepModal<Merchant>
        {...common}
        open={open?.step === 'force'}
        title="Force-post a charge"
        okText="Force-post"
        intro={
          <Intro>A merchant's clearing with no authorisation before it: it is taken even beyond the balance.</Intro>
        }
        initialValues={{ country: 'GH' }}
        request={(v) => ({ url: '/sandbox/force-posts', body: { card_id: cardId, ...merchantBody(v) } })}
        answer={messageOf}
      >
        <AmountField />
        <MerchantFields />
      </StepModal>
      <StepModal<{ older_than_days: number }>
        {...common}
        open={open?.step === 'expire'}
        title="Expire holds now"
        okText="Expire holds"
        initialValues={{ older_than_days: HOLD_EXPIRY_DAYS }}
        request={(v) => ({ url: '/sandbox/holds/expire', body: { older_than_days: v.older_than_days } })}
        answer={messageOf}
      >
        <DaysField />
      </StepModal>
    </Card>
  );
}
