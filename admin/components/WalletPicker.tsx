import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '@shared/api/client';
import type { ApiCustomerRow, Paged } from '@shared/contract';
import { customerName } from '../pages/customers/columns';

export type WalletKind = 'individual' | 'company';

/** A picked wallet as the picker shows it: a known name before any search (e.g. the deposit's own owner). */
export interface WalletOption {
  value: string;
  label: string;
}

const optionOf = (c: ApiCustomerRow): WalletOption => ({
  value: c.id,
  label: `${customerName(c)} · ${c.company_email ?? c.email ?? ''}`,
});

/**
 * A customer's master wallet, searched on the server by name or email (the customer lists'
 * `name` filter) as one types. A wallet's id is its owner's: the individual's user id, or the
 * company's id (server/modules/wallet/access.ts), so the lists' row ids are the wallet ids.
 */
export function WalletPicker({
  kind,
  known,
  value,
  onChange,
  id,
}: {
  kind: WalletKind;
  known?: WalletOption | null;
  value?: string;
  onChange?(v: string | undefined): void;
  id?: string;
}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<WalletOption | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const found = useQuery({
    queryKey: ['wallet-picker', kind, search],
    queryFn: () =>
      api<Paged<ApiCustomerRow>>('GET', kind === 'individual' ? '/individuals' : '/companies', {
        query: { per_page: 20, ...(search ? { name: search } : {}) },
        silent: true,
      }),
    placeholderData: (prev) => prev,
  });
  const results = (found.data?.data ?? []).map(optionOf);
  // The chosen option stays listed whatever is typed next, so its name never turns into an id.
  const options = [
    ...new Map(
      [...[known, picked].filter((o): o is WalletOption => !!o), ...results].map((o) => [o.value, o]),
    ).values(),
  ];
  return (
    <Select
      id={id}
      showSearch
      allowClear
      filterOption={false}
      value={value}
      onSearch={setTyped}
      onChange={(v?: string) => {
        setPicked(options.find((o) => o.value === v) ?? null);
        onChange?.(v);
      }}
      onBlur={() => setTyped('')}
      loading={found.isFetching}
      options={options}
      placeholder={kind === 'company' ? 'Search companies by name or email' : 'Search customers by name or email'}
      notFoundContent={found.isFetching ? 'Searching…' : 'No account matches'}
    />
  );
}
