import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { ApiFee } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable } from '../../components/DataTable';
import { FeeItem, feeColumns } from './columns';
import { useCan } from '../../components/Allowed';
import { FeeEditDrawer } from './edit';

/**
 * /admin/fees/{companyId}: the schedule that applies to one company; rows it inherits are marked
 * Default, and editing one of them gives the company its own fee.
 */
export default function CompanyFees() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const [editing, setEditing] = useState<ApiFee | null>(null);
  const mayEdit = useCan('fees.manage');
  const table = useTable<ApiFee, HttpError>({
    resource: 'fees',
    meta: { path: `company/fees/${id}` },
    pagination: { mode: 'off' },
    sorters: { mode: 'off' },
    syncWithLocation: false,
  });
  // Links from customer lists carry acc_name; opened by its address, the answer names the company.
  const name =
    params.get('acc_name') || (table.result as { company?: { company_name: string } }).company?.company_name || null;
  const company = useMemo(() => ({ id, name }), [id, name]);
  return (
    <>
      <PageHeader
        title={`${name ?? 'Company'} - Fees`}
        subtitle="The fees that apply to this company. Editing a default fee here makes it this company's own."
        extra={
          <Link to="/admin/fees">
            <Button>All fees</Button>
          </Link>
        }
      />
      <DataTable<ApiFee>
        table={table}
        exportCsv={{ path: `company/fees/${id}`, filename: 'company-fees' }}
        columns={feeColumns(mayEdit ? setEditing : undefined)}
        renderItem={(f) => <FeeItem f={f} onEdit={mayEdit ? setEditing : undefined} />}
        emptyText="No fees"
      />
      <FeeEditDrawer fee={editing} company={company} onClose={() => setEditing(null)} />
    </>
  );
}
