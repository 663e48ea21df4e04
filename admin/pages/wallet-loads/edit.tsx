import { moneyText } from '@shared/vocabulary';
import { Alert, App, Button, Drawer, Form, Input, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError, messageOf } from '@shared/api/errors';
import { type ApiTopup, approveTopupBody, chainConfirmed, notApprovableYet } from '@shared/contract';
import { NOT_ARIA_REQUIRED, applyFieldErrors } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { Details } from '../../components/Details';
import { useAction } from '../../components/refineForms';
import { TopupStateTag } from '@shared/ui/wallet/StateTag';
import { dateTime } from '../../format';
import { ChainFacts } from './chain';
import { Hash, balanceChange } from './columns';
import { UnconfirmedApproval } from './unconfirmed';
import { doneOrSent } from '../../components/approvals';

type Decision = { action?: 'approve' | 'deny'; reason?: string; note?: string };

/**
 * The approve/deny panel of a top-up. The server decides what is allowed (a Tron top-up needs
 * its hash, a Momo one a momo agent's confirmation) and its message is shown as it is.
 */
export function DecideTopupDrawer({
  topup,
  onClose,
  onDecided,
  onStale,
}: {
  topup: ApiTopup | null;
  onClose(): void;
  onDecided(): void;
  /** the list no longer tells the truth about this top-up (decided by someone else meanwhile) */
  onStale(): void;
}) {
  const [form] = Form.useForm<Decision>();
  const { message } = App.useApp();
  const { busy, run } = useAction<{ message: string; state: string }>();
  const [error, setError] = useState<string>();
  /** someone else decided it meanwhile: nothing is left to decide here */
  const [settled, setSettled] = useState(false);
  const action = Form.useWatch('action', form);
  /** the approval waiting for its reason: the chain did not confirm this payment */
  const [asking, setAsking] = useState<Decision>();

  useEffect(() => {
    if (topup) {
      form.resetFields();
      setError(undefined);
      setSettled(false);
      setAsking(undefined);
    }
  }, [topup, form]);

  function decide(v: Decision) {
    if (topup && v.action === 'approve' && !chainConfirmed(topup)) setAsking(v);
    else void send(v);
  }

  async function send(v: Decision) {
    if (!topup) return;
    setError(undefined);
    const note = v.action === 'approve' ? v.note?.trim() : undefined;
    const r = await run('post', '/wallet/approve-topup', {
      topup_id: topup.id,
      action: v.action,
      ...(v.action === 'deny' && v.reason?.trim() ? { reason: v.reason.trim() } : {}),
      ...(note ? { note } : {}),
    });
    setAsking(undefined);
    if (r.ok) {
      message.success(doneOrSent(r.data.data, r.data.data.message));
      onDecided();
      return;
    }
    if (applyFieldErrors(form, r.error)) return;
    const text = messageOf(r.error, 'Something went wrong. Please try again.');
    // Said once, inside the drawer: a toast would cover the drawer's title.
    setError(text);
    // Someone else decided it meanwhile: the drawer keeps saying so; the list behind shows it as it now is.
    if (r.error instanceof ApiError && r.error.statusCode === 409 && /already/.test(text)) {
      setSettled(true);
      onStale();
    }
  }

  const t = topup;
  const notYet = t ? notApprovableYet(t) : null;
  return (
    <Drawer
      title="Approve or Deny Top-Up"
      open={!!t}
      onClose={onClose}
      width={Math.min(520, window.innerWidth)}
      destroyOnHidden
    >
      {t && (
        <>
          <Details
            label="Top-up details"
            items={[
              ['Name', t.name],
              ['Account Type', t.name_type],
              ['Amount', moneyText(t.amount, 'USDT')],
              ['Method', t.method],
              ...(t.momo_amount
                ? ([['Amount to send', moneyText(t.momo_amount, 'GHS')]] as Array<[string, string]>)
                : []),
              ['Reference', t.reference],
              ['Transaction Hash', <Hash key="h" value={t.transaction_hash} full />],
              ['State', <TopupStateTag key="s" state={t.state} processedIsDone />],
              ['Loaded By', t.loader ? `${t.loader.first_name} ${t.loader.last_name} (${t.loader.role})` : '—'],
              ['Created', dateTime(t.created_at)],
              ['Last Modified', dateTime(t.updated_at)],
              ...(t.balance_after ? ([['Balance Change', balanceChange(t)]] as Array<[string, string]>) : []),
              ...(t.decided_by
                ? ([['Decided By', `${t.decided_by.first_name} ${t.decided_by.last_name}`]] as Array<[string, string]>)
                : []),
              ...(t.note ? ([['Note', t.note]] as Array<[string, string]>) : []),
            ]}
          />
          {t.chain_check && (
            <div style={{ marginTop: 24 }}>
              <ChainFacts check={t.chain_check} />
            </div>
          )}
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            Decision
          </Typography.Title>
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
          {notYet && !settled && (
            <Alert type="info" showIcon message={notYet} style={{ marginBottom: 16 }} data-testid="not-approvable" />
          )}
          <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={decide} hidden={settled}>
            <Form.Item
              required={NOT_ARIA_REQUIRED}
              name="action"
              label="Action"
              rules={[contractRule(approveTopupBody.shape.action)]}
            >
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                options={[
                  // Not offered before the payment can be checked; denying stays possible.
                  ...(notYet ? [] : [{ label: 'Approve', value: 'approve' }]),
                  { label: 'Deny', value: 'deny' },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="note"
              label="Note"
              hidden={action !== 'approve'}
              extra={
                t.method === 'Tron' && !chainConfirmed(t)
                  ? 'Required: the chain did not confirm this payment.'
                  : 'Optional: kept with the decision, for staff.'
              }
              rules={[contractRule(approveTopupBody.shape.note)]}
            >
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
            <Form.Item
              name="reason"
              label="Reason"
              hidden={action === 'approve'}
              dependencies={['action']}
              extra={action === 'deny' ? 'The customer sees this reason.' : undefined}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, v?: string) =>
                    getFieldValue('action') === 'deny' && !v?.trim()
                      ? Promise.reject(new Error('A reason is required to deny a top-up'))
                      : Promise.resolve(),
                }),
                contractRule(approveTopupBody.shape.reason),
              ]}
            >
              <Input.TextArea rows={3} maxLength={500} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} danger={action === 'deny'} block>
              Submit
            </Button>
          </Form>
          <UnconfirmedApproval
            open={!!asking}
            note={asking?.note}
            busy={busy}
            onCancel={() => setAsking(undefined)}
            onConfirm={(note) => void send({ ...asking, action: 'approve', note })}
          />
        </>
      )}
    </Drawer>
  );
}
