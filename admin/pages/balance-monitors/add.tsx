import { Alert, App, Button, Drawer, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { balanceMonitorBody } from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { NOT_ARIA_REQUIRED } from '@shared/ui/forms';
import { usePanelForm } from '../../components/refineForms';
import { WalletPicker } from '../../components/WalletPicker';

type Watch = 'master:general' | 'master:media' | 'master:tokencard' | 'fees' | 'individual' | 'company';
/** What to watch on the form; `account` (from it) and `below` in what POST /balance-monitors takes. */
interface Values {
  watch?: Watch;
  wallet?: string;
  account?: string;
  below: string;
}

const WATCH_OPTIONS: Array<{ value: Watch; label: string }> = [
  { value: 'master:general', label: 'Mastercard master balance (general)' },
  { value: 'master:media', label: 'Visa master balance (media)' },
  { value: 'master:tokencard', label: 'Tokenised Cards master balance (tokencard)' },
  { value: 'fees', label: 'Fee account' },
  { value: 'individual', label: "A customer's wallet" },
  { value: 'company', label: "A company's wallet" },
];

const belowRules = [contractRule(balanceMonitorBody.shape.below)];

/** The Add Balance Alert panel: what to watch (a master balance, the fee account, a wallet) and the threshold. */
export function AddMonitorDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Drawer
      title="Add Balance Alert"
      open={open}
      onClose={onClose}
      width={Math.min(460, window.innerWidth)}
      destroyOnHidden
    >
      {open && <AddMonitorForm onDone={onClose} />}
    </Drawer>
  );
}

function AddMonitorForm({ onDone }: { onDone(): void }) {
  const { message } = App.useApp();
  const [error, setError] = useState<string>();
  const [watch, setWatch] = useState<Watch>();
  const wallet = watch === 'individual' || watch === 'company';
  const { formProps, busy, submit } = usePanelForm<Values>({
    action: 'create',
    resource: 'balance-monitors',
    say: setError,
    fallback: 'The alert was not added. Please try again.',
    rename: { account: wallet ? 'wallet' : 'watch' },
    onSaved: () => {
      message.success('Balance alert added.');
      onDone();
    },
  });
  return (
    <>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form<Values>
        noValidate
        {...formProps}
        layout="vertical"
        requiredMark={false}
        onValuesChange={(changed: Partial<Values>) => changed.watch && setWatch(changed.watch)}
        onFinish={(v) => {
          setError(undefined);
          submit({ account: wallet ? (v.wallet ?? '') : v.watch, below: (v.below ?? '').trim() });
        }}
      >
        <Form.Item
          name="watch"
          label="Account"
          required={NOT_ARIA_REQUIRED}
          rules={[{ required: true, message: 'Account is required' }]}
        >
          <Select options={WATCH_OPTIONS} placeholder="Choose what to watch" />
        </Form.Item>
        {wallet && (
          <Form.Item
            name="wallet"
            label="Wallet"
            required={NOT_ARIA_REQUIRED}
            rules={[{ required: true, message: 'Wallet is required' }]}
          >
            <WalletPicker key={watch} kind={watch} />
          </Form.Item>
        )}
        <Form.Item
          name="below"
          label="Alert Below"
          extra="Finance and Super-Admins are told once when a payment takes the balance below this, and again after it has been back at or above it."
          rules={belowRules}
        >
          <Input inputMode="decimal" suffix={watch?.startsWith('master:') ? 'USD' : 'USDT'} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          Add Alert
        </Button>
      </Form>
    </>
  );
}
