import type { useTableReturnType } from '@refinedev/antd';
import type { BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { Card, Flex, Grid, List, Table, type TableColumnsType, type TablePaginationConfig } from 'antd';
import type { KeyboardEvent, ReactNode } from 'react';
import type { Query } from '@shared/api/client';
import { filtersToQuery } from '@shared/api/dataProvider';
import { ExportCsvButton } from '@shared/ui/ExportCsvButton';

/** Lists show a pagination footer only when there is more than one page of 25 (spec §5, §9). */
export const PAGE_SIZE = 25;

interface Props<T extends BaseRecord> {
  table: Pick<
    useTableReturnType<T, HttpError>,
    'tableProps' | 'tableQuery' | 'result' | 'currentPage' | 'pageSize' | 'setCurrentPage'
  > & { filters?: CrudFilter[] };
  columns: TableColumnsType<T>;
  /** The compact row phones show instead of the table. */
  renderItem: (record: T) => ReactNode;
  /** What a click on a row does; rows where canOpen is false are not clickable. */
  onOpen?: (record: T) => void;
  canOpen?: (record: T) => boolean;
  /** Accessible name of a clickable row. */
  rowLabel?: (record: T) => string;
  paginate?: boolean;
  footer?: ReactNode;
  title?: ReactNode;
  extra?: ReactNode;
  emptyText?: string;
  /**
   * An "Export CSV" button in the card's header: the list's API path; the table's active filters
   * (plus `query`, e.g. filters fixed by the route) go with it.
   */
  exportCsv?: { path: string; query?: Query; filename?: string };
  /** Below this width the table scrolls sideways; above it, cells wrap to fit. */
  minWidth?: number;
}

/** A Refine list as a table on wide screens and as a compact list on phones. */
export function DataTable<T extends BaseRecord>(p: Props<T>) {
  const { table, onOpen, canOpen = () => !!onOpen, paginate = true } = p;
  const phone = Grid.useBreakpoint().md === false;
  const total = table.result.total ?? 0;
  const showPages = paginate && table.tableProps.pagination !== false && total > PAGE_SIZE;
  const clickable = (r: T) => !!onOpen && canOpen(r);
  const rowProps = (r: T) =>
    clickable(r)
      ? {
          onClick: () => onOpen!(r),
          onKeyDown: (e: KeyboardEvent) => {
            if (e.target !== e.currentTarget) return; // a button inside the row
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              onOpen!(r);
            }
          },
          tabIndex: 0,
          'aria-label': p.rowLabel?.(r),
          className: 'cw-clickable-row',
        }
      : {};
  const locale = { emptyText: p.emptyText ?? 'No records found' };

  const content = phone ? (
    <List<T>
      dataSource={[...(table.tableProps.dataSource ?? [])]}
      loading={table.tableQuery.isFetching}
      locale={locale}
      rowKey="id"
      renderItem={(r) => (
        <List.Item {...rowProps(r)} style={{ display: 'block', padding: '12px 4px' }}>
          {p.renderItem(r)}
        </List.Item>
      )}
      pagination={
        showPages
          ? {
              current: table.currentPage,
              pageSize: table.pageSize,
              total,
              onChange: (n) => table.setCurrentPage(n),
              size: 'small',
              align: 'center',
            }
          : false
      }
    />
  ) : (
    <Table<T>
      {...table.tableProps}
      columns={p.columns}
      rowKey="id"
      locale={locale}
      onRow={(r) => rowProps(r) as never}
      scroll={{ x: p.minWidth ?? 900 }}
      pagination={
        showPages ? { ...(table.tableProps.pagination as TablePaginationConfig), showSizeChanger: false } : false
      }
    />
  );
  const exportButton = p.exportCsv ? (
    <ExportCsvButton
      path={p.exportCsv.path.startsWith('/') ? p.exportCsv.path : `/${p.exportCsv.path}`}
      query={{ ...filtersToQuery(table.filters), ...p.exportCsv.query }}
      filename={p.exportCsv.filename}
      size="small"
      label={phone ? 'CSV' : undefined}
    />
  ) : null;
  // A gap from the title: on phones the title would otherwise run into the first button.
  const extra =
    exportButton && p.extra ? (
      <Flex gap={phone ? 4 : 8} align="center" style={{ marginInlineStart: 12 }}>
        {p.extra}
        {exportButton}
      </Flex>
    ) : (
      (p.extra ?? exportButton)
    );
  return (
    <Card title={p.title} extra={extra} styles={{ body: { padding: phone ? '4px 12px' : 0 } }}>
      {content}
      {p.footer}
    </Card>
  );
}
