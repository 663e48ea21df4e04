import { moneyText } from '@shared/vocabulary';
import { Form, Input, Radio, Typography } from 'antd';
import { type ApiChainDeposit, assignChainDepositBody, returnChainDepositBody } from '@shared/contract';
import { NOT_ARIA_REQUIRED, clearErrorsOnChange } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { StaffActionModal } from '../../components/StaffActionModal';
import { type WalletKind, WalletPicker } from '../../components/WalletPicker';

import { Address } from './columns';

const actionPath = (d: ApiChainDeposit, action: 'assign' | 'return') =>
  `/wallet/chain-deposits/${encodeURIComponent(d.id)}/${action}`;

/** What the deposit is, said at the top of both dialogs so staff act on the one they meant. */
function DepositSummary({ d }: { d: ApiChainDeposit }) {
  return (
    <Typography.Paragraph>
      <strong>{moneyText(d.amount, 'USDT')}</strong> from <Address value={d.from} /> to <Address value={d.to} />.
    </Typography.Paragraph>
  );
}

/** Both dialogs: open while there is a deposit to act on. */
interface DepositActionProps {
  deposit: ApiChainDeposit | null;
  onClose(): void;
  onDone(): void;
}

type AssignForm = { kind: WalletKind; wallet_id?: string };

/**
 * 'Assign': credit a customer's wallet with the deposit (less the Tron top-up fee) as an approved
 * Tron top-up. A deposit that reached a wallet's address but could not be matched starts with that
 * wallet picked.
 */
export function AssignDepositModal({ deposit, onClose, onDone }: DepositActionProps) {
  const [form] = Form.useForm<AssignForm>();
  const kind = Form.useWatch('kind', form) ?? 'individual';
  const known = deposit?.wallet_id && deposit.name ? { value: deposit.wallet_id, label: deposit.name } : null;

  return (
    <StaffActionModal
      subject={deposit}
      form={form}
      title="Assign deposit"
      okText="Assign"
      call={(d, v) => ({ path: actionPath(d, 'assign'), body: { wallet_id: v.wallet_id } })}
      onClose={onClose}
      onDone={onDone}
      formProps={{
        initialValues: { kind: 'individual', wallet_id: known?.value },
        onValuesChange: (changed) => {
          clearErrorsOnChange(form)(changed);
          // Another kind of account: the picked wallet is not one of its kind.
          if ('kind' in changed) form.setFieldValue('wallet_id', undefined);
        },
      }}
    >
      {(d) => (
        <>
          <DepositSummary d={d} />
          <Typography.Paragraph type="secondary">
            The wallet is credited this amount less the Tron top-up fee, as an approved Tron top-up.
          </Typography.Paragraph>
          <Form.Item name="kind" label="Account" required={NOT_ARIA_REQUIRED}>
            <Radio.Group
              optionType="button"
              options={[
                { label: 'Individual', value: 'individual' },
                { label: 'Company', value: 'company' },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="wallet_id"
            label="Wallet"
            required={NOT_ARIA_REQUIRED}
            rules={[contractRule(assignChainDepositBody.shape.wallet_id)]}
          >
            <WalletPicker kind={kind} known={known} />
          </Form.Item>
        </>
      )}
    </StaffActionModal>
  );
}

type ReturnForm = { note: string; return_hash?: string };

/** 'Return': the deposit was sent back to its sender (or otherwise settled off the platform); nobody is credited. */
export function ReturnDepositModal({ deposit, onClose, onDone }: DepositActionProps) {
  const [form] = Form.useForm<ReturnForm>();
  return (
    <StaffActionModal
      subject={deposit}
      form={form}
      title="Return deposit"
      okText="Mark as returned"
      call={(d, v) => {
        const hash = v.return_hash?.trim();
        return { path: actionPath(d, 'return'), body: { note: v.note.trim(), ...(hash ? { return_hash: hash } : {}) } };
      }}
      onClose={onClose}
      onDone={onDone}
    >
      {(d) => (
        <>
          <DepositSummary d={d} />
          <Typography.Paragraph type="secondary">
            Nobody is credited. Send the USDT back first, then record it here.
          </Typography.Paragraph>
          <Form.Item
            name="note"
            label="Note"
            extra="How it was returned, e.g. sent back to the sender."
            rules={[contractRule(returnChainDepositBody.shape.note)]}
          >
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
          <Form.Item
            name="return_hash"
            label="Return transaction hash (optional)"
            rules={[contractRule(returnChainDepositBody.shape.return_hash)]}
          >
            <Input
              autoComplete="off"
              spellCheck={false}
              placeholder="64 hexadecimal characters"
              style={{ fontFamily: 'monospace' }}
            />
          </Form.Item>
        </>
      )}
    </StaffActionModal>
  );
}
