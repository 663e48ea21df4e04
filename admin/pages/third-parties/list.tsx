import { useTable } from '@refinedev/antd';
import type { HttpError } from '@refinedev/core';
import { useState } from 'react';
import type { ApiThirdParty } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { DataTable, PAGE_SIZE } from '../../components/DataTable';
import { ThirdPartyItem, thirdPartyColumns } from './columns';
import { ThirdPartyDrawer } from './show';

/** /admin/third-parties: every company's API client, its state, last use and webhook health. */
export default function ThirdPartiesList() {
  const [open, setOpen] = useState<ApiThirdParty | null>(null);
  const table = useTable<ApiThirdParty, HttpError>({
    resource: 'third-parties',
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { mode: 'off' },
  });
  return (
    <>
      <PageHeader
        title="List of Third Parties"
        subtitle="Companies' API clients, their last use and the health of their webhooks."
      />
      <DataTable<ApiThirdParty>
        table={table}
        exportCsv={{ path: 'third-party/clients', filename: 'third-parties' }}
        columns={thirdPartyColumns}
        renderItem={(c) => <ThirdPartyItem c={c} />}
        onOpen={setOpen}
        rowLabel={(c) => `Open API client of ${c.company_name}, ${c.state}`}
        emptyText="No company has generated API credentials yet"
        minWidth={1000}
      />
      <ThirdPartyDrawer client={open} onClose={() => setOpen(null)} />
    </>
  );
}
