import { useTable } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_SIZE } from './DataTable';
import { searchFilters } from './FilterBar';

/** The one account a list shows, as the customer lists link it (?company_id|individual_id&acc_name); none: all. */
export interface ListAccount {
  accName?: string;
  companyId?: string;
  individualId?: string;
}

/**
 * The account of the address, and a key for the list: keyed by it, the list starts afresh (filters,
 * page) when a link opens it for another account.
 */
export function useListAccount(): { account: ListAccount; key: string } {
  const [params] = useSearchParams();
  const companyId = params.get('company_id') || undefined;
  const individualId = params.get('individual_id') || undefined;
  return {
    account: { accName: params.get('acc_name') || undefined, companyId, individualId },
    key: `${companyId ?? ''}/${individualId ?? ''}`,
  };
}

/** "Acme Ltd - Wallet Top-Ups / Loads", or "All Accounts - …" for the list of every account. */
export const accountTitle = (a: ListAccount, what: string) => `${a.accName ?? 'All Accounts'} - ${what}`;

/** The account as the API's query filters (the CSV export sends them too). */
export const accountQuery = (a: ListAccount) => ({ company_id: a.companyId, individual_id: a.individualId });

const NONE: CrudFilter[] = [];

/**
 * Refine's table of a list narrowed to the account (after `fixed`, filters the list always has):
 * pages of PAGE_SIZE, no sorting, and each search replacing the filters of the last.
 */
export function useAccountTable<T extends BaseRecord, S extends Record<string, unknown>>(
  resource: string,
  { companyId, individualId }: ListAccount,
  fixed: CrudFilter[] = NONE,
) {
  const permanent = useMemo<CrudFilter[]>(
    () => [
      ...fixed,
      ...(companyId ? [{ field: 'company_id', operator: 'eq', value: companyId } as const] : []),
      ...(individualId ? [{ field: 'individual_id', operator: 'eq', value: individualId } as const] : []),
    ],
    [fixed, companyId, individualId],
  );
  return useTable<T, HttpError, S>({
    resource,
    pagination: { pageSize: PAGE_SIZE },
    sorters: { mode: 'off' },
    filters: { permanent, defaultBehavior: 'replace' },
    onSearch: (v) => searchFilters(v),
  });
}
