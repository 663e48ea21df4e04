import {
  CheckCircleOutlined,
  CreditCardOutlined,
  DownloadOutlined,
  MoreOutlined,
  PercentageOutlined,
  SafetyOutlined,
  StopOutlined,
  TransactionOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, type MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import { api } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiCustomerRow } from '@shared/contract';
import { useSubmit } from '@shared/ui/useSubmit';
import type { ResetTarget } from '../../components/ResetTwoFactor';
import { useCan } from '../../components/Allowed';
import { type Kind, customerName } from './columns';
import { doneOrSent } from '../../components/approvals';

/** Links into the screens filtered to one customer (spec §2.3 "Links from row actions"). */
function customerLinks(kind: Kind, c: ApiCustomerRow) {
  const q = `${kind === 'company' ? 'company_id' : 'individual_id'}=${encodeURIComponent(c.id)}&acc_name=${encodeURIComponent(customerName(c))}`;
  return {
    cards: `/admin/cards?${q}`,
    cardTransactions: `/admin/card-transfers?${q}`,
    walletLoads: `/admin/wallet-loads?${q}`,
    fees: `/admin/fees/${encodeURIComponent(c.id)}?acc_name=${encodeURIComponent(customerName(c))}`,
  };
}

/**
 * Deactivate (from any state but Deactivated) and Reactivate (from Deactivated), each confirmed
 * first; the server's message is the toast. `done` reloads the list.
 */
function useAccountStatus(kind: Kind, done: () => void) {
  const { message, modal } = App.useApp();
  const { submit } = useSubmit();

  async function send(c: ApiCustomerRow, active: boolean) {
    const r = await submit((key) =>
      active
        ? api<{ data: string }>('POST', kind === 'company' ? '/company/status' : '/individuals/status', {
            body: { account: c.id, status: 'activate' },
            idempotencyKey: key,
          })
        : api<{ data: string }>(
            'DELETE',
            `/${kind === 'company' ? 'companies' : 'individuals'}/${encodeURIComponent(c.id)}`,
            { idempotencyKey: key },
          ),
    );
    if (r.ok) message.success(doneOrSent(r.data.data, r.data.data));
    else
      message.error(
        messageOf(r.error, `The account was not ${active ? 'reactivated' : 'deactivated'}. Please try again.`),
      );
    done();
  }

  const who = (c: ApiCustomerRow) => (kind === 'company' ? customerName(c) : `the account of ${customerName(c)}`);
  return {
    deactivate: (c: ApiCustomerRow) =>
      modal.confirm({
        title: 'Deactivate Account',
        content: `Do you want to deactivate ${who(c)}? ${kind === 'company' ? 'All its users are' : 'They are'} signed out at once and cannot log in until it is reactivated.`,
        okText: 'Deactivate',
        okButtonProps: { danger: true },
        cancelText: 'Cancel',
        onOk: () => send(c, false),
      }),
    reactivate: (c: ApiCustomerRow) =>
      modal.confirm({
        title: 'Reactivate Account',
        content: `Do you want to reactivate ${who(c)}? ${kind === 'company' ? 'Its users' : 'They'} can log in again.`,
        okText: 'Reactivate',
        cancelText: 'Cancel',
        onOk: () => send(c, true),
      }),
  };
}

/** The row menu: the customer's cards, card transactions, wallet loads, fees, 2FA reset, and the account state. */
export function useCustomerActions(kind: Kind, done: () => void, resetTwoFactor: (t: ResetTarget) => void) {
  const navigate = useNavigate();
  const seesFees = useCan('fees.manage', 'audit.read');
  const canManage = useCan('customers.manage');
  const canReset = useCan('two_factor.reset', 'two_factor.request');
  const status = useAccountStatus(kind, done);

  return (c: ApiCustomerRow) => {
    const links = customerLinks(kind, c);
    const items: MenuProps['items'] = [
      { key: links.cards, label: 'View Cards', icon: <CreditCardOutlined /> },
      { key: links.cardTransactions, label: 'Card Transactions', icon: <TransactionOutlined /> },
      { key: links.walletLoads, label: 'Wallet Loads', icon: <DownloadOutlined /> },
      // Fees Management is for who changes fees (and the Auditor).
      ...(kind === 'company' && seesFees ? [{ key: links.fees, label: 'Fees', icon: <PercentageOutlined /> }] : []),
      ...(canReset || canManage ? [{ type: 'divider' as const }] : []),
      ...(canReset ? [{ key: 'reset-2fa', label: 'Reset 2FA', icon: <SafetyOutlined /> }] : []),
      ...(!canManage
        ? []
        : c.state === 'Deactivated'
          ? [{ key: 'reactivate', label: 'Reactivate', icon: <CheckCircleOutlined /> }]
          : [{ key: 'deactivate', label: 'Deactivate', icon: <StopOutlined />, danger: true }]),
    ];
    return (
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items,
          onClick: ({ key, domEvent }) => {
            domEvent.stopPropagation();
            if (key === 'deactivate') status.deactivate(c);
            else if (key === 'reactivate') status.reactivate(c);
            else if (key === 'reset-2fa')
              resetTwoFactor(
                kind === 'company'
                  ? { companyId: c.id, name: customerName(c) }
                  : { userId: c.id, name: customerName(c) },
              );
            else navigate(key);
          },
        }}
      >
        <Button
          icon={<MoreOutlined />}
          aria-label={`Actions for ${customerName(c)}`}
          onClick={(e) => e.stopPropagation()}
        />
      </Dropdown>
    );
  };
}
