import { Descriptions } from 'antd';
import type { ReactNode } from 'react';

/** A record's fields as label/value rows, one per line (drawers and detail panels). */
export function Details({ items, label }: { items: Array<[string, ReactNode]>; label?: string }) {
  return (
    <Descriptions
      className="cw-descriptions"
      aria-label={label}
      bordered
      size="small"
      column={1}
      items={items.map(([l, v]) => ({ key: l, label: l, children: v ?? '—' }))}
    />
  );
}
