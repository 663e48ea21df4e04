import { Descriptions, Drawer } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import { useIsPhone } from './useIsPhone';

export interface DetailRow {
  label: string;
  value: ReactNode;
}

/** Label/value rows, one per line: readable at 390 px as well as in a wide panel. */
export function DetailRows({ rows }: { rows: DetailRow[] }) {
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      styles={{ label: { width: '38%', whiteSpace: 'nowrap' }, content: { wordBreak: 'break-word' } }}
      items={rows.map((r) => ({ key: r.label, label: r.label, children: r.value }))}
    />
  );
}

/** The 'Transaction Details' side panel of the wallet screens (full width on phones). */
export function DetailsDrawer({
  open,
  onClose,
  title = 'Transaction Details',
  children,
  footer,
}: {
  open: boolean;
  onClose(): void;
  title?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const phone = useIsPhone();
  return (
    <Drawer title={title} open={open} onClose={onClose} width={phone ? '100%' : 520} destroyOnHidden footer={footer}>
      {children}
    </Drawer>
  );
}

/**
 * Which row a details panel shows. Closing keeps the row until the panel has slid away, so the
 * panel never empties while it is still visible.
 */
export function useDetails<T>() {
  const [item, setItem] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((row: T) => {
    setItem(row);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  return { item, open, show, close };
}
