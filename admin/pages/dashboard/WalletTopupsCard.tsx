import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Button } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { ApiTopup } from '@shared/contract';
import { DataTable } from '../../components/DataTable';
import { TopupItem, topupColumns } from '../wallet-loads/columns';

const SHOWN = ['Name', 'Account Type', 'Amount', 'State', 'Last Modified'];
const columns = topupColumns.filter((c) => SHOWN.includes(String(c.title)));

/** Wallet Loads of one account: where a dashboard row leads. */
const walletLoadsOf = (t: ApiTopup) =>
  `/admin/wallet-loads?${t.name_type === 'Company' ? 'company_id' : 'individual_id'}=${t.wallet_id}&acc_name=${encodeURIComponent(t.name)}`;

/** The dashboard's latest top-ups; each row opens that account's Wallet Loads. */
export function WalletTopupsCard() {
  const navigate = useNavigate();
  const table = useTable<ApiTopup, HttpError>({
    resource: 'wallet-loads',
    pagination: { pageSize: 6 },
    sorters: { mode: 'off' },
    syncWithLocation: false,
  });
  return (
    <DataTable<ApiTopup>
      table={table}
      title="Wallet Top-Ups"
      extra={
        <Link to="/admin/wallet-loads">
          <Button type="link" style={{ paddingInline: 0 }}>
            View all
          </Button>
        </Link>
      }
      exportCsv={{ path: 'wallet/list-topups', filename: 'wallet-top-ups' }}
      columns={columns}
      renderItem={(t) => <TopupItem t={t} />}
      onOpen={(t) => navigate(walletLoadsOf(t))}
      rowLabel={(t) => `Wallet loads of ${t.name}`}
      paginate={false}
      emptyText="No top-ups yet"
    />
  );
}
