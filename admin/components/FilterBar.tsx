import { FilterOutlined } from '@ant-design/icons';
import type { CrudFilter } from '@refinedev/core';
import { Button, Card, DatePicker, Flex, Form, type FormProps, Grid } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { dayPickerProps } from '../format';

/**
 * A list's filter panel over Refine's search form: inline on wide screens, behind a
 * "Filters" button on phones. Search applies the fields and reads the list again (also when the
 * fields are unchanged: staff press it to see what arrived since), Reset clears them and searches again.
 */
export function FilterBar<T>({
  formProps,
  query,
  children,
}: {
  formProps: FormProps<T>;
  /** the list's query (useTable's tableQuery) */
  query: ListQuery;
  children: ReactNode;
}) {
  const screens = Grid.useBreakpoint();
  const phone = screens.md === false;
  const [open, setOpen] = useState(false);
  const form = formProps.form!;
  const onFinish = useSearchAgain(query, formProps.onFinish);
  // On a phone the fields are folded away: the button says how many are set (a list opened filtered from a link).
  const values = Form.useWatch([], form) as Record<string, unknown> | undefined;
  const set = Object.values(values ?? {}).filter(
    (v) => v !== undefined && v !== null && v !== '' && v !== false && !(Array.isArray(v) && !v.length),
  ).length;
  const body = (
    <Form
      noValidate
      {...formProps}
      onFinish={onFinish}
      layout={phone ? 'vertical' : 'inline'}
      style={{ rowGap: 12 }}
      aria-label="Filters"
    >
      {children}
      <Form.Item style={phone ? { marginBottom: 0 } : undefined}>
        <Flex gap={8}>
          <Button type="primary" htmlType="submit">
            Search
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              form.submit();
            }}
          >
            Reset
          </Button>
        </Flex>
      </Form.Item>
    </Form>
  );
  if (!phone)
    return (
      <Card size="small" style={{ marginBottom: 16 }}>
        {body}
      </Card>
    );
  return (
    <div style={{ marginBottom: 12 }}>
      <Button icon={<FilterOutlined />} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        {set ? `Filters (${set})` : 'Filters'}
      </Button>
      <Card size="small" style={{ marginTop: 8, display: open ? undefined : 'none' }}>
        {body}
      </Card>
    </div>
  );
}

/** A list's query, as Refine's useTable gives it (tableQuery). */
export type ListQuery = { isFetching: boolean; refetch: () => unknown };

/**
 * A search form's onFinish that also reads the list again when the search changed nothing: Refine reads it only
 * when the filters change, and staff press Search to see what arrived since.
 */
export function useSearchAgain<T>(query: ListQuery, onFinish: ((values: T) => unknown) | undefined) {
  const [searches, setSearches] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per search, after Refine has applied it
  useEffect(() => {
    if (searches && !query.isFetching) void query.refetch();
  }, [searches]);
  return async (values: T) => {
    await onFinish?.(values);
    setSearches((n) => n + 1);
  };
}

/** The filter fields of a list with a date range (UTC days, both inclusive). */
export function DateRangeFields() {
  return (
    <>
      <Form.Item name="start_date" label="Start Date" {...dayPickerProps}>
        <DatePicker style={{ width: '100%', minWidth: 150 }} />
      </Form.Item>
      <Form.Item
        name="end_date"
        label="End Date"
        dependencies={['start_date']}
        {...dayPickerProps}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, v?: string) => {
              const start = getFieldValue('start_date') as string | undefined;
              return v && start && v < start
                ? Promise.reject(new Error('End date must be on or after the start date'))
                : Promise.resolve();
            },
          }),
        ]}
      >
        <DatePicker style={{ width: '100%', minWidth: 150 }} />
      </Form.Item>
    </>
  );
}

/** A search form's values as Refine filters named by their field (empty ones dropped). */
export const searchFilters = (v: Record<string, unknown>): CrudFilter[] =>
  Object.entries(v).map(([field, value]) => ({ field, operator: 'eq', value: value === '' ? undefined : value }));
