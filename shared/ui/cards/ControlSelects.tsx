import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { apiData } from '../../api/client';
import { type ApiMerchantCategory, COUNTRY_CODES } from '../../contract';
import { countryName } from '../../merchant-categories';

/** The categories as the server lists them; they change only with a release. */
function useMerchantCategories() {
  return useQuery({
    queryKey: ['merchant-categories'],
    queryFn: () => apiData<ApiMerchantCategory[]>('GET', '/merchant-categories', { silent: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const COUNTRY_OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: `${countryName(code)} (${code})` })).sort(
  (a, b) => a.label.localeCompare(b.label),
);

type MultiProps = Pick<SelectProps<string[]>, 'value' | 'onChange' | 'disabled' | 'id'>;

/** Several merchant categories by their labels, searchable. */
export function MerchantCategorySelect(props: MultiProps) {
  const categories = useMerchantCategories();
  return (
    <Select
      {...props}
      mode="multiple"
      allowClear
      loading={categories.isLoading}
      placeholder="Choose categories"
      optionFilterProp="label"
      options={(categories.data ?? []).map((c) => ({ value: c.name, label: c.label }))}
    />
  );
}

/** Several countries by name, searchable by name or code. */
export function CountrySelect(props: MultiProps) {
  return (
    <Select
      {...props}
      mode="multiple"
      allowClear
      placeholder="Choose countries"
      optionFilterProp="label"
      options={COUNTRY_OPTIONS}
    />
  );
}
