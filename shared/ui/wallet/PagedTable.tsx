import { Alert, Flex, List, Table, Typography } from 'antd';
import type { TableColumnsType as ColumnsType } from 'antd';
import type { KeyboardEvent, ReactNode } from 'react';
import { messageOf } from '../../api/errors';
import { useIsPhone } from './useIsPhone';

export const PAGE_SIZE = 25;

export interface CompactRow {
  title: ReactNode;
  description?: ReactNode;
  extra?: ReactNode;
}

export interface PagedTableProps<T> {
  rowKey: (row: T) => string;
  rows: T[] | undefined;
  total: number;
  page: number;
  onPage(page: number): void;
  pageSize?: number;
  loading: boolean;
  error?: unknown;
  columns: ColumnsType<T>;
  /** the phone layout of one row */
  compact(row: T): CompactRow;
  emptyText: ReactNode;
  onRowClick?(row: T): void;
  /** rows that open nothing are not made to look clickable */
  clickable?(row: T): boolean;
  /** an accessible name for a clickable row */
  rowLabel?(row: T): string;
}

/**
 * A paged list of the wallet screens: a table on desktop, compact entries on phones, the same
 * row click on both, the pagination footer only when there is more than one page, and the
 * failure of the query said in place (never an empty table that pretends there is no data).
 */
export function PagedTable<T extends object>(p: PagedTableProps<T>) {
  const phone = useIsPhone();
  const size = p.pageSize ?? PAGE_SIZE;
  const pagination =
    p.total > size
      ? { current: p.page, pageSize: size, total: p.total, onChange: p.onPage, showSizeChanger: false }
      : false;
  const canOpen = (row: T) => !!p.onRowClick && (p.clickable ? p.clickable(row) : true);
  const open = (row: T) => canOpen(row) && p.onRowClick?.(row);
  const onKey = (row: T) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(row);
    }
  };
  // A row keeps its table (or list) role: a focusable row named by rowLabel, opened by Enter or Space.
  const a11y = (row: T) =>
    canOpen(row)
      ? {
          tabIndex: 0,
          'aria-label': p.rowLabel?.(row),
          onKeyDown: onKey(row),
          onClick: () => open(row),
          style: { cursor: 'pointer' },
        }
      : {};
  const error = p.error ? (
    <Alert
      type="error"
      showIcon
      message={messageOf(p.error, 'Could not load the list.')}
      style={{ margin: phone ? 0 : 16, marginBottom: 12 }}
    />
  ) : null;
  const empty = p.error ? 'No data' : p.emptyText;

  if (phone) {
    return (
      <>
        {error}
        <List<T>
          loading={p.loading}
          dataSource={p.rows}
          rowKey={p.rowKey}
          pagination={pagination ? { ...pagination, size: 'small', align: 'center' } : false}
          locale={{ emptyText: empty }}
          renderItem={(row) => {
            const c = p.compact(row);
            return (
              <List.Item {...a11y(row)} style={{ ...(canOpen(row) ? { cursor: 'pointer' } : {}), paddingInline: 4 }}>
                <Flex justify="space-between" align="flex-start" gap={12} style={{ width: '100%', minWidth: 0 }}>
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Typography.Text strong style={{ display: 'block' }}>
                      {c.title}
                    </Typography.Text>
                    {c.description && (
                      <div style={{ color: 'rgba(0,0,0,0.55)', fontSize: 13, marginTop: 2 }}>{c.description}</div>
                    )}
                  </div>
                  {c.extra && <div style={{ flexShrink: 0, textAlign: 'right' }}>{c.extra}</div>}
                </Flex>
              </List.Item>
            );
          }}
        />
      </>
    );
  }
  return (
    <>
      {error}
      <Table<T>
        rowKey={p.rowKey}
        loading={p.loading}
        dataSource={p.rows}
        columns={p.columns}
        pagination={pagination}
        locale={{ emptyText: empty }}
        scroll={{ x: 'max-content' }}
        onRow={(row) => a11y(row) as React.HTMLAttributes<HTMLElement>}
      />
    </>
  );
}
